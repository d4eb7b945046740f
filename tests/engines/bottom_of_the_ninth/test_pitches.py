"""Whole pitches through the engine with scripted dice: the table, counts, walks, strikeouts,
crushes, and the pitch record every pitch emits once."""

from __future__ import annotations

import pytest

from tests.engines.bottom_of_the_ninth.helpers import act, make, pitch, pitch_record


@pytest.mark.parametrize(
    ("face", "control", "swing", "code", "phase"),
    [
        ("B", 4, 3, "B", "stare"),
        ("B", 4, 4, "B", "stare"),
        ("B", 4, 5, "S", "stare"),
        ("S", 4, 3, "S", "stare"),
        ("S", 4, 4, "F", "stare"),
        ("S", 4, 5, "X", "race"),
        ("C", 4, 3, "S", "stare"),
        ("C", 4, 4, "X", "race"),
        ("C", 4, 5, "S", "stare"),
    ],
)
def test_each_comparison_through_the_engine(
    face: str, control: int, swing: int, code: str, phase: str
) -> None:
    engine, dice, state = make()
    state, events = pitch(engine, dice, state, control, face, swing)
    assert state.phase == phase
    if phase == "stare":
        record = pitch_record(events)
        assert record["result"] == code
        assert record["dice"] == [
            {"die": "control", "face": str(control)},
            {"die": "pitch", "face": face},
            {"die": "swing", "face": str(swing)},
        ]
        assert record["abilities"] == []
    else:
        assert not [e for e in events if e.type == "pitch"]
        assert engine.legal_actions(state, "home") == [{"side": "home", "type": "race_roll"}]


def test_four_balls_walk_and_reset_the_count() -> None:
    engine, dice, state = make()
    for _ in range(3):
        state, _ = pitch(engine, dice, state, 5, "B", 2)
    assert state.balls == 3
    state, events = pitch(engine, dice, state, 5, "B", 2)
    record = pitch_record(events)
    assert record["pa_result"] == "BB"
    assert record["bases_after"] == "100"
    assert (state.balls, state.strikes, state.batter_index) == (0, 0, 1)


def test_three_strikes_are_an_out_and_a_foul_is_never_the_third() -> None:
    engine, dice, state = make()
    state, _ = pitch(engine, dice, state, 4, "S", 2)
    state, _ = pitch(engine, dice, state, 4, "S", 4)  # foul: second strike
    assert state.strikes == 2
    state, events = pitch(engine, dice, state, 4, "S", 4)  # foul with two strikes
    assert pitch_record(events)["result"] == "F"
    assert (state.strikes, state.outs) == (2, 0)
    state, events = pitch(engine, dice, state, 4, "C", 5)
    record = pitch_record(events)
    assert record["pa_result"] == "K"
    assert (record["outs"], record["outs_after"]) == (0, 1)
    assert state.outs == 1 and state.strikes == 0


@pytest.mark.parametrize(
    ("bonus", "code", "bases_after"),
    [(3, "CR:1B", "100"), (4, "CR:1B", "100"), (5, "CR:2B", "010")],
)
def test_crush_bonus_hits_skip_the_run_phase(bonus: int, code: str, bases_after: str) -> None:
    engine, dice, state = make()
    state, events = pitch(engine, dice, state, 2, "B", 6, bonus - 1)
    record = pitch_record(events)
    assert record["result"] == code
    assert record["crush_bonus"] == bonus
    assert record["bases_after"] == bases_after
    # The swing event says what the crush did (the browser shows it as the roll lands).
    swing = next(e for e in events if e.type == "swing_roll")
    assert swing.data == {"swing": 6, "crush": bonus, "result": code}
    assert record["race"] is None
    assert state.phase in ("stare", "cleanup")


def test_crush_six_is_a_walk_off_home_run() -> None:
    engine, dice, state = make()
    state, events = pitch(engine, dice, state, 2, "C", 6, 5)
    record = pitch_record(events)
    assert (record["result"], record["pa_result"], record["runs"]) == ("CR:HR", "HR", 1)
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.winner == "home"
    assert outcome.reason == "walk-off"
    assert events[-1].type == "game_over"


@pytest.mark.parametrize("bonus", [1, 2])
def test_crush_one_or_two_is_ordinary_contact(bonus: int) -> None:
    engine, dice, state = make()
    state, events = pitch(engine, dice, state, 2, "B", 6, bonus - 1)
    assert state.phase == "race"
    dice.push(5)  # batter's race roll: 6
    state, events = act(engine, state, "home", "race_roll")
    record = pitch_record(events)
    assert record["result"] == "CR:X"
    assert record["pa_result"] == "RS"
    assert record["race"]["winner"] == "home"


def test_pitch_record_has_the_common_keys() -> None:
    engine, dice, state = make()
    state, events = pitch(engine, dice, state, 4, "S", 3)
    record = pitch_record(events)
    for key in (
        "inning",
        "half",
        "offense",
        "defense",
        "batter",
        "batter_card",
        "pitcher",
        "balls",
        "strikes",
        "outs",
        "bases",
        "balls_after",
        "strikes_after",
        "outs_after",
        "bases_after",
        "dice",
        "result",
        "pa_result",
        "runs",
        "rbi",
        "cards",
        "challenge",
    ):
        assert key in record
    assert (record["offense"], record["defense"], record["batter"]) == ("home", "away", 1)
    assert (record["batter_card"], record["pitcher"]) == ("B09", "P01")
    assert record["stare"]["pitch"] == {"direction": "outside", "location": "low"}


def test_every_die_comes_from_its_own_index() -> None:
    engine, dice, state = make()
    start = state.dice_index
    state, _ = pitch(engine, dice, state, 4, "S", 3)
    assert state.dice_index == start + 3 == dice.used
