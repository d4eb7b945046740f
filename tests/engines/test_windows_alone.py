"""A side may pass only while the other side waits, in both games: what lets the server hold a
pass written before its time (``app.games.hold``) without the other side acting meanwhile on a
state it must not see yet."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engines.base_on_board import Engine as BaseOnBoard
from app.engines.bottom_of_the_ninth import Engine as BottomOfTheNinth
from app.engines.dice import SeededDice

GAMES: list[tuple[Any, dict[str, Any]]] = [
    (BaseOnBoard, {"innings": 3, "tier": "pro"}),
    (BaseOnBoard, {"innings": 3, "tier": "lite"}),
    (BottomOfTheNinth, {}),
]


@pytest.mark.parametrize(("engine_class", "options"), GAMES)
def test_whoever_may_pass_acts_alone(engine_class: Any, options: dict[str, Any]) -> None:
    passes = 0
    for seed in range(40):
        engine = engine_class(SeededDice(seed))
        state = engine.new_game(options)
        rng = random.Random(seed)
        while engine.outcome(state) is None:
            legal = {side: engine.legal_actions(state, side) for side in ("home", "away")}
            for side, other in (("home", "away"), ("away", "home")):
                if any(a["type"] == "pass" for a in legal[side]):
                    passes += 1
                    assert legal[other] == [], (seed, legal)
            state, _events = engine.apply(state, rng.choice(legal["home"] + legal["away"]))
    assert passes > 0 or engine_class is BottomOfTheNinth
