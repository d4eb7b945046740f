"""Writes the interactive tutorials, ``static/tutorials/<kind>.json``, from the real engines.

Each tutorial is a short game against the computer on fixed dice (the server's own
``RecordingDice`` under a fixed seed), the learner's moves chosen by a fixed script and the
computer's by the server's (the kind's policy with its own seeded picks, else the engine's
timeout action). A step is one moment the learner must act, recorded as the learner's side sees
it: ``view`` (``engine.view``), ``legal`` (``engine.legal_actions``), ``events`` (what happened
since the learner's last move, each ``Event.for_viewer(side)``), ``expect`` (the one action
that moves the tutorial on) and ``say`` (keys into static/i18n, with ``vars`` to fill them). The
last step has no ``expect``: the game (or the lesson) is over.

Run it after a rule or card change and commit its output; tests/scripts/test_build_tutorials.py
fails when the committed files differ from a fresh build:

    python scripts/build_tutorials.py          # writes static/tutorials/*.json
    python scripts/build_tutorials.py --check  # exits 1 if they are out of date
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.engines.bottom_of_the_ninth.policy import choose_action  # noqa: E402
from app.engines.dice import HmacDice  # noqa: E402
from app.engines.interface import JSON, Action, Event, Side, other_side  # noqa: E402
from app.engines.registry import make_engine  # noqa: E402
from app.games.fair_dice import RecordingDice  # noqa: E402

OUT = ROOT / "static" / "tutorials"
GAME_ID = "tutorial"
MAX_STEPS = 80


def seed_of(word: str) -> str:
    return hashlib.sha256(word.encode()).hexdigest()


# --- the learner's script and the words of each moment ----------------------------------------


def bob_learner(legal: list[Action], played: list[Action]) -> Action:
    """Base on Board: plays the first card it is offered (once, to show a card play), else
    rolls when a die is to be rolled, else passes."""
    plays = [a for a in legal if a["type"] == "play"]
    if plays and not played:
        return plays[0]
    for wanted in ("roll", "pass"):
        for action in legal:
            if action["type"] == wanted:
                return action
    return legal[0]


def bob_say(
    view: JSON, events: list[JSON], expect: Action | None, first: bool
) -> tuple[list[str], JSON]:
    """What the step says: what just happened (a plate appearance's end, the computer's pitch
    die), then what to do now."""
    say: list[str] = ["tut.bob.intro"] if first else []
    values: JSON = {}
    for event in events:
        if event["type"] == "pitch" and event.get("pa_result"):
            say.append(f"tut.bob.pa.{event['pa_result']}")
        if event["type"] == "card" and event.get("side") != view.get("side"):
            say.append("tut.bob.their_card")
            values["card"] = event["code"]
    rolls = [e for e in events if e["type"] == "roll"]
    kind = (view.get("waiting") or {}).get("kind")
    if rolls and rolls[-1]["die"] == "pitch":
        values["face"] = rolls[-1]["face"]
        say.append(f"tut.bob.pitch_die.{rolls[-1]['face']}")
    if expect is None:
        say.append("tut.bob.end")
    elif expect["type"] == "play":
        values["card"] = expect["card"]
        say.append("tut.bob.do.play")
    else:
        say.append(f"tut.bob.do.{expect['type']}.{kind}")
    return say, values


def ninth_learner(legal: list[Action], played: list[Action]) -> Action:
    """Bottom of the 9th: in the stare-down, a guess that moves through the grid pitch by
    pitch; every other moment has one thing to do (roll)."""
    stares = [a for a in legal if a["type"] == "stare"]
    if stares:
        return stares[(len(played) * 5) % len(stares)]
    return legal[0]


def ninth_say(
    view: JSON, events: list[JSON], expect: Action | None, first: bool
) -> tuple[list[str], JSON]:
    say: list[str] = ["tut.ninth.intro"] if first else []
    values: JSON = {}
    for event in events:
        kind = event["type"]
        if kind == "reveal":
            read = event.get("direction_read") or event.get("location_read")
            mood = "mvp" if event.get("mvp") else "read" if read else "none"
            say.append(f"tut.ninth.reveal.{mood}")
        elif kind == "pitch_roll":
            values["control"] = event["control"]
            values["pitch"] = event["pitch"]
            say.append("tut.ninth.pitched")
        elif kind == "race_end":
            say.append(f"tut.ninth.race_end.{'won' if event['winner'] == 'home' else 'lost'}")
        elif kind == "pitch":
            code = event.get("pa_result") or event.get("result")
            say.append(f"tut.ninth.result.{code}")
    say.append("tut.ninth.end" if expect is None else f"tut.ninth.do.{expect['type']}")
    return say, values


LEARNERS: dict[str, Callable[[list[Action], list[Action]], Action]] = {
    "base-on-board": bob_learner, "bottom-of-the-9th": ninth_learner}
SAYERS = {"base-on-board": bob_say, "bottom-of-the-9th": ninth_say}

TUTORIALS: dict[str, JSON] = {
    # The learner bats first (away), the computer pitches; one half inning: a double, a
    # card play, a strike-out, a walk and a sacrifice fly.
    "base-on-board": {"seed": "tutorial-bob-335", "side": "away",
                      "options": {"innings": 3, "tier": "lite", "fast_play": True},
                      "until": "half_end"},
    # The learner bats (home), the computer pitches: stare-downs, the dice, a lost run race
    # and a walk-off home run.
    "bottom-of-the-9th": {"seed": "tutorial-ninth-12", "side": "home",
                          "options": {"mode": "solo", "solo_side": "home", "setup": "random"},
                          "until": "game_over"},
}


def build(kind: str) -> JSON:
    plan = TUTORIALS[kind]
    seed = seed_of(plan["seed"])
    side: Side = plan["side"]
    computer: Side = other_side(side)
    engine = make_engine(kind, RecordingDice(seed, GAME_ID))
    # Fixed here, not the server's current computer: a stronger computer must not rewrite
    # the lessons (Base on Board's computer plays its timeout action in them).
    policy = choose_action if kind == "bottom-of-the-9th" else None
    picks = HmacDice(bytes.fromhex(seed), f"{GAME_ID}:computer")
    drawn = 0

    def pick(n: int) -> int:
        nonlocal drawn
        drawn += 1
        return picks.below(drawn, n)

    state, start_events = engine.start(plan["options"])
    seen: list[Event] = list(start_events)
    steps: list[JSON] = []
    played: list[Action] = []
    learner, sayer = LEARNERS[kind], SAYERS[kind]
    stop = False
    while len(steps) < MAX_STEPS:
        # The computer moves whenever the learner has nothing to do (in a stare-down both
        # choose at once: the learner first, so it never sees the computer's pick).
        while (not stop and engine.outcome(state) is None and not engine.legal_actions(state, side)
               and engine.legal_actions(state, computer)):
            action = (policy(engine, state, computer, pick) if policy is not None
                      else engine.timeout_action(state, computer))
            assert action is not None
            state, new = engine.apply(state, action)
            seen += new
            stop = any(e.type == plan["until"] for e in new)
        events = [e.for_viewer(side) for e in seen]
        seen = []
        legal = engine.legal_actions(state, side)
        if stop or engine.outcome(state) is not None or not legal:
            say, values = sayer(engine.view(state, side), events, None, False)
            steps.append({"view": engine.view(state, side), "legal": [], "events": events,
                          "expect": None, "say": say, "vars": values})
            break
        expect = learner(legal, played)
        say, values = sayer(engine.view(state, side), events, expect, not steps)
        steps.append({"view": engine.view(state, side), "legal": legal, "events": events,
                      "expect": expect, "say": say, "vars": values})
        played.append(expect)
        state, new = engine.apply(state, expect)
        seen += new
        stop = any(e.type == plan["until"] for e in new)
    else:
        raise RuntimeError(f"the {kind} tutorial did not end within {MAX_STEPS} steps")
    return {"kind": kind, "side": side, "rules_version": engine.rules_version,
            "options": plan["options"], "steps": steps}


def short(kind: str) -> str:
    return "bob" if kind == "base-on-board" else "ninth"


def text(tutorial: JSON) -> str:
    return json.dumps(tutorial, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare with the committed files")
    args = parser.parse_args(argv)
    stale = []
    for kind in TUTORIALS:
        path = OUT / f"{kind}.json"
        fresh = text(build(kind))
        if args.check:
            if not path.exists() or path.read_text("utf-8") != fresh:
                stale.append(path)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(fresh, encoding="utf-8")
    for path in stale:
        print(f"{path.relative_to(ROOT)} is out of date: run scripts/build_tutorials.py",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
