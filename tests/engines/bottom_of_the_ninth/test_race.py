"""The run phase: turn-based and real-time races, the closing window, ties, unopposed rolls
and the +1 traits."""

from __future__ import annotations

from app.engines.bottom_of_the_ninth import Engine, State
from app.engines.dice import ScriptedDice
from tests.engines.bottom_of_the_ninth.helpers import act, make, pitch, pitch_record

HOME_ROLL = {"side": "home", "type": "race_roll"}
AWAY_ROLL = {"side": "away", "type": "race_roll"}
CLOSE = {"side": "home", "type": "close_race"}


def contact(
    lineup: list[str] | None = None, starter: str = "P01", race: str = "turns", **kw: object
) -> tuple[Engine, ScriptedDice, State]:
    engine, dice, state = make(lineup, starter=starter, race=race)
    state, _ = pitch(engine, dice, state, 4, "S", 5, **kw)  # type: ignore[arg-type]
    assert state.phase == "race"
    return engine, dice, state


def roll(engine: Engine, dice: ScriptedDice, state: State, side: str, face: int) -> tuple:
    dice.push(face - 1)
    return act(engine, state, side, "race_roll")


def test_turns_batter_rolls_first_and_wins_on_five() -> None:
    engine, dice, state = contact()
    assert engine.legal_actions(state, "away") == []
    state, events = roll(engine, dice, state, "home", 5)
    record = pitch_record(events)
    assert (record["result"], record["pa_result"], record["bases_after"]) == ("X", "RS", "100")
    assert record["race"] == {"rolls": [["home", 5, "open"]], "winner": "home"}


def test_turns_alternate_and_pitcher_wins_on_five() -> None:
    engine, dice, state = contact()
    state, _ = roll(engine, dice, state, "home", 4)
    assert engine.legal_actions(state, "home") == []
    assert engine.legal_actions(state, "away") == [AWAY_ROLL]
    state, _ = roll(engine, dice, state, "away", 3)
    assert engine.legal_actions(state, "home") == [HOME_ROLL]
    state, _ = roll(engine, dice, state, "home", 1)
    state, events = roll(engine, dice, state, "away", 6)
    record = pitch_record(events)
    assert (record["pa_result"], record["outs_after"], record["bases_after"]) == ("RO", 1, "000")


def test_realtime_both_may_roll_in_any_order() -> None:
    engine, dice, state = contact(race="realtime")
    assert engine.legal_actions(state, "home") == [HOME_ROLL]
    assert engine.legal_actions(state, "away") == [AWAY_ROLL]
    state, _ = roll(engine, dice, state, "away", 2)
    state, _ = roll(engine, dice, state, "away", 3)
    assert engine.legal_actions(state, "away") == [AWAY_ROLL]
    state, events = roll(engine, dice, state, "home", 6)
    assert pitch_record(events)["race"]["winner"] == "home"


def test_decisive_pitcher_roll_opens_a_closing_window() -> None:
    engine, dice, state = contact(race="realtime")
    state, events = roll(engine, dice, state, "away", 5)
    assert state.race_stage == "closing"
    assert [e.type for e in events][-1] == "race_closing"
    assert not [e for e in events if e.type == "pitch"]
    assert engine.legal_actions(state, "away") == []
    assert engine.legal_actions(state, "home") == [HOME_ROLL, CLOSE]
    assert engine.timeout_action(state, "home") == CLOSE
    assert engine.timeout_action(state, "away") is None


def test_batter_decisive_roll_inside_the_window_is_a_tie_the_batter_wins() -> None:
    engine, dice, state = contact(race="realtime")
    state, _ = roll(engine, dice, state, "away", 6)
    state, _ = roll(engine, dice, state, "home", 2)  # too low: the window stays open
    assert state.race_stage == "closing"
    state, events = roll(engine, dice, state, "home", 5)
    record = pitch_record(events)
    assert record["race"]["winner"] == "home"
    assert record["pa_result"] == "RS"


def test_closing_the_window_gives_the_pitcher_the_out() -> None:
    engine, dice, state = contact(race="realtime")
    state, _ = roll(engine, dice, state, "away", 5)
    state, events = engine.apply(state, CLOSE)
    record = pitch_record(events)
    assert (record["race"]["winner"], record["outs_after"]) == ("away", 1)


def test_speed_plus_one_wins_on_four() -> None:
    lineup = ["B04", "B09", "B01", "B03", "B05", "B06"]
    engine, dice, state = contact(lineup)
    state, events = roll(engine, dice, state, "home", 4)
    record = pitch_record(events)
    assert record["race"]["winner"] == "home"
    assert {"card": "B04", "index": 0, "kind": "speed", "side": "home"} in record["abilities"]


def test_defense_plus_one_wins_on_four() -> None:
    engine, dice, state = contact(
        starter="P03", stare_pair=(("outside", "high"), ("outside", "low"))
    )
    state, _ = roll(engine, dice, state, "home", 4)
    state, events = roll(engine, dice, state, "away", 4)
    record = pitch_record(events)
    assert record["race"]["winner"] == "away"
    assert {"card": "P03", "index": 0, "kind": "defense", "side": "away"} in record["abilities"]


def test_unopposed_batter_rolls_alone_first() -> None:
    lineup = ["B05", "B09", "B01", "B03", "B04", "B06"]
    engine, dice, state = contact(lineup, race="realtime", stare_pair=(("outside", "low"),) * 2)
    assert state.race_stage == "unopposed_home"
    assert engine.legal_actions(state, "away") == []
    state, events = roll(engine, dice, state, "home", 6)
    record = pitch_record(events)
    assert record["race"]["rolls"] == [["home", 6, "unopposed_home"]]
    assert record["race"]["winner"] == "home"
    assert {"card": "B05", "index": 0, "kind": "unopposed", "side": "home"} in record["abilities"]


def test_both_unopposed_batter_first_then_pitcher_then_the_race() -> None:
    lineup = ["B05", "B09", "B01", "B03", "B04", "B06"]
    engine, dice, state = contact(
        lineup, starter="P04", race="realtime", stare_pair=(("inside", "low"), ("inside", "low"))
    )
    assert state.race_stage == "unopposed_home"
    state, _ = roll(engine, dice, state, "home", 3)
    assert state.race_stage == "unopposed_away"
    assert engine.legal_actions(state, "home") == []
    assert engine.legal_actions(state, "away") == [AWAY_ROLL]
    state, _ = roll(engine, dice, state, "away", 1)
    assert state.race_stage == "open"
    assert engine.legal_actions(state, "home") == [HOME_ROLL]
    assert engine.legal_actions(state, "away") == [AWAY_ROLL]


def test_decisive_unopposed_pitcher_roll_wins_at_once() -> None:
    lineup = ["B05", "B09", "B01", "B03", "B04", "B06"]
    engine, dice, state = contact(
        lineup, starter="P04", race="realtime", stare_pair=(("inside", "low"), ("inside", "low"))
    )
    state, _ = roll(engine, dice, state, "home", 3)
    state, events = roll(engine, dice, state, "away", 5)
    record = pitch_record(events)
    assert record["race"]["winner"] == "away"
    assert state.outs == 1


def test_race_win_scores_a_runner_from_third() -> None:
    engine, dice, state = make()
    state.bases = [False, False, True]
    state, _ = pitch(engine, dice, state, 4, "S", 5)
    state, events = roll(engine, dice, state, "home", 6)
    assert engine.outcome(state) is not None
    assert pitch_record(events)["runs"] == 1
