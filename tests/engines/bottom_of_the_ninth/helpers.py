"""Shared set-ups for the Bottom of the 9th tests: a fixed lineup and scripted dice."""

from __future__ import annotations

from typing import Any

from app.engines.bottom_of_the_ninth import Engine, State
from app.engines.bottom_of_the_ninth.rules import PITCH_DIE
from app.engines.dice import ScriptedDice
from app.engines.interface import Event

LINEUP = ["B09", "B01", "B03", "B04", "B05", "B06"]
"""B09 first: against P01 thrown outside-low and guessed outside-high, no ability fires."""


def face(name: str) -> int:
    """The scripted value that makes the pitch die show ``name``."""
    return PITCH_DIE.index(name)


def make(
    lineup: list[str] | None = None,
    starter: str = "P01",
    reliever: str = "P07",
    race: str = "turns",
) -> tuple[Engine, ScriptedDice, State]:
    dice = ScriptedDice()
    engine = Engine(dice)
    state = engine.new_game(
        {
            "setup": "given",
            "lineup": lineup or list(LINEUP),
            "starter": starter,
            "reliever": reliever,
            "race": race,
        }
    )
    return engine, dice, state


def act(
    engine: Engine, state: State, side: str, kind: str, **choices: Any
) -> tuple[State, list[Event]]:
    return engine.apply(state, {"side": side, "type": kind, **choices})


def stare(
    engine: Engine, state: State, pitch: tuple[str, str], guess: tuple[str, str]
) -> tuple[State, list[Event]]:
    state, first = act(engine, state, "away", "stare", direction=pitch[0], location=pitch[1])
    state, second = act(engine, state, "home", "stare", direction=guess[0], location=guess[1])
    return state, first + second


NEUTRAL = (("outside", "low"), ("outside", "high"))


def pitch(
    engine: Engine,
    dice: ScriptedDice,
    state: State,
    control: int,
    pitch_face: str,
    swing: int,
    *extra: int,
    stare_pair: tuple[tuple[str, str], tuple[str, str]] = NEUTRAL,
) -> tuple[State, list[Event]]:
    """One whole pitch: stare-down, the pitcher's roll, the batter's roll (``extra`` values go
    to the dice after the swing: re-rolls, crush bonus...)."""
    state, events = stare(engine, state, stare_pair[0], stare_pair[1])
    dice.push(control - 1, face(pitch_face))
    state, more = act(engine, state, "away", "pitch_roll")
    events += more
    dice.push(swing - 1, *extra)
    state, more = act(engine, state, "home", "swing_roll")
    return state, events + more


def pitch_record(events: list[Event]) -> dict[str, Any]:
    records = [e.data for e in events if e.type == "pitch"]
    assert len(records) == 1, records
    return records[0]
