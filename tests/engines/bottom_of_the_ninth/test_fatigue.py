"""Fatigue tokens, their lock at the bottom row, recovery per empty base, and the bench."""

from __future__ import annotations

from app.engines.bottom_of_the_ninth import Engine, State
from app.engines.dice import ScriptedDice
from tests.engines.bottom_of_the_ninth.helpers import act, make, pitch

ACE = (("inside", "high"), ("outside", "low"))  # P01's ace, guessed wrong on both parts


def strike_out(engine: Engine, dice: ScriptedDice, state: State) -> State:
    """Three called strikes on neutral pitches (fatigue untouched)."""
    for _ in range(3):
        state, _ = pitch(engine, dice, state, 4, "C", 5)
    return state


def test_throwing_the_ace_moves_both_tokens_down() -> None:
    engine, dice, state = make()
    assert state.fatigue == [0, 0]
    state, events = pitch(engine, dice, state, 4, "B", 2, stare_pair=ACE)
    assert state.fatigue == [1, 1]
    reveal = next(e for e in events if e.type == "reveal")
    assert reveal.data["ace"] is True and reveal.data["fatigue"] == [1, 1]


def test_one_part_of_the_ace_moves_one_token_even_when_read() -> None:
    engine, dice, state = make()
    state, _ = pitch(
        engine, dice, state, 4, "B", 2, stare_pair=(("inside", "low"), ("inside", "low"))
    )
    assert state.fatigue == [1, 0]


def test_a_token_on_the_bottom_row_locks_its_part() -> None:
    engine, dice, state = make()
    state.fatigue = [2, 0]
    state, _ = pitch(
        engine, dice, state, 4, "B", 2, stare_pair=(("inside", "low"), ("outside", "low"))
    )
    assert state.fatigue == [3, 0]
    pitches = [
        (a["direction"], a["location"])
        for a in engine.legal_actions(state, "away")
        if a["type"] == "stare"
    ]
    assert pitches == [("outside", "high"), ("outside", "low")]
    state.fatigue = [3, 3]
    assert engine.pitch_options(state) == [("outside", "low")]


def test_a_fully_locked_pitcher_throws_its_only_pitch_by_itself() -> None:
    engine, dice, state = make()
    state.fatigue = [3, 2]
    # The pitch below sends the location token to the bottom too.
    state, events = pitch(
        engine, dice, state, 4, "B", 2, stare_pair=(("outside", "high"), ("outside", "low"))
    )
    assert state.fatigue == [3, 3]
    assert state.away_choice == ["outside", "low"]
    assert engine.legal_actions(state, "away") == []
    auto = [e for e in events if e.type == "stare_chosen"][-1]
    assert auto.data == {"side": "away"}
    assert auto.private == {"away": {"direction": "outside", "location": "low"}}


def test_recovery_is_one_row_per_empty_base_split_as_the_pitcher_likes() -> None:
    engine, dice, state = make()
    state.fatigue = [3, 2]
    state = strike_out(engine, dice, state)
    assert state.phase == "cleanup"
    actions = engine.legal_actions(state, "away")
    recovers = [(a["direction"], a["location"]) for a in actions if a["type"] == "recover"]
    assert sorted(recovers) == [(1, 2), (2, 1), (3, 0)]
    assert {"side": "away", "type": "bench"} in actions
    assert engine.legal_actions(state, "home") == []
    state, events = act(engine, state, "away", "recover", direction=2, location=1)
    assert state.fatigue == [1, 1]
    assert state.phase == "stare"
    assert [e.type for e in events] == ["relief"]


def test_recovery_is_capped_by_runners_and_the_top_row() -> None:
    engine, dice, state = make()
    state.fatigue = [1, 3]
    state.bases = [True, True, False]
    state = strike_out(engine, dice, state)
    recovers = [
        (a["direction"], a["location"])
        for a in engine.legal_actions(state, "away")
        if a["type"] == "recover"
    ]
    assert sorted(recovers) == [(0, 1), (1, 0)]


def test_bench_brings_the_reliever_at_row_one_for_good() -> None:
    engine, dice, state = make()
    state.fatigue = [2, 2]
    state = strike_out(engine, dice, state)
    state, events = act(engine, state, "away", "bench")
    assert (state.pitcher, state.benched, state.fatigue, state.ceiling) == ("P07", True, [1, 1], 1)
    bench = next(e for e in events if e.type == "bench")
    assert bench.data["out"] == "P01" and bench.data["in"] == "P07"
    # The reliever's ace (inside low) now drives the tokens.
    state, _ = pitch(
        engine, dice, state, 4, "B", 2, stare_pair=(("inside", "low"), ("outside", "high"))
    )
    assert state.fatigue == [2, 2]
    # At the next clean-up, three empty bases may bring each token back to row 1, no higher,
    # and there is no second bench.
    state.fatigue = [3, 2]
    state.phase = "cleanup"
    actions = engine.legal_actions(state, "away")
    assert actions == [{"side": "away", "type": "recover", "direction": 2, "location": 1}]


def test_clean_up_with_one_choice_goes_on_by_itself() -> None:
    engine, dice, state = make()
    state.benched = True
    state.ceiling = 1
    state.fatigue = [1, 1]
    state = strike_out(engine, dice, state)
    assert state.phase == "stare"
    assert state.batter_index == 1
