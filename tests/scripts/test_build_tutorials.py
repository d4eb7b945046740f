"""The committed tutorials (static/tutorials/*.json) are what scripts/build_tutorials.py builds
now from the real engines, and every step asks for a move the engine allows then."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
              for lang in ("en", "ko")}


def load_script() -> ModuleType:
    path = ROOT / "scripts" / "build_tutorials.py"
    spec = importlib.util.spec_from_file_location("build_tutorials", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_tutorials", module)
    spec.loader.exec_module(module)
    return module


SCRIPT = load_script()
KINDS = tuple(SCRIPT.TUTORIALS)


def committed(kind: str) -> dict[str, Any]:
    return dict(json.loads((SCRIPT.OUT / f"{kind}.json").read_text("utf-8")))


def test_both_games_have_a_tutorial() -> None:
    assert KINDS == ("base-on-board", "bottom-of-the-9th")


@pytest.mark.parametrize("kind", KINDS)
def test_the_committed_tutorial_is_a_fresh_build(kind: str) -> None:
    fresh = SCRIPT.text(SCRIPT.build(kind))
    assert (SCRIPT.OUT / f"{kind}.json").read_text("utf-8") == fresh, (
        f"static/tutorials/{kind}.json is out of date: run python scripts/build_tutorials.py")


def test_check_mode_passes_on_the_committed_files() -> None:
    assert SCRIPT.main(["--check"]) == 0


@pytest.mark.parametrize("kind", KINDS)
def test_every_step_expects_a_legal_move_and_says_known_words(kind: str) -> None:
    tutorial = committed(kind)
    steps = tutorial["steps"]
    assert 5 <= len(steps) <= 40
    side = tutorial["side"]
    for index, step in enumerate(steps):
        last = index == len(steps) - 1
        if last:
            assert step["expect"] is None and step["legal"] == []
        else:
            assert step["expect"] in step["legal"], index
            assert step["expect"]["side"] == side
            assert step["view"]["legal_actions"] == step["legal"], index
        assert step["say"], index
        for key in step["say"]:
            assert key in CATALOGUES["en"] and key in CATALOGUES["ko"], (index, key)
        assert step["view"].get("side", side) == side
    # The first step greets, the last one ends the lesson.
    assert steps[0]["say"][0].endswith(".intro")
    assert steps[-1]["say"][-1].endswith(".end")


def test_the_lessons_show_the_moments_they_promise() -> None:
    def seen(kind: str) -> list[dict[str, Any]]:
        return [e for step in committed(kind)["steps"] for e in step["events"]]

    bob = seen("base-on-board")
    ends = {e.get("pa_result") for e in bob if e["type"] == "pitch"}
    assert {"BB", "1B", "K", "OUT"} <= ends
    steps = committed("base-on-board")["steps"]
    assert any(s["expect"] and s["expect"]["type"] == "play" for s in steps)
    assert any(e["type"] == "roll" and e["die"] == "pitch" and e["face"] == "C" for e in bob)
    ninth = seen("bottom-of-the-9th")
    types = {e["type"] for e in ninth}
    assert {"reveal", "pitch_roll", "swing_roll", "race_start", "race_end", "game_over"} <= types
    assert [e["winner"] for e in ninth if e["type"] == "game_over"] == ["home"]


def test_the_learner_never_sees_what_its_side_may_not() -> None:
    # A stare-down pick of the computer is hidden until the reveal: the recorded event of the
    # computer's choice has no direction for the learner.
    for step in committed("bottom-of-the-9th")["steps"]:
        for event in step["events"]:
            if event["type"] == "stare_chosen" and event["side"] == "away":
                assert "direction" not in event and "location" not in event
