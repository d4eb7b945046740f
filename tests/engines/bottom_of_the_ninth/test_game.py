"""Options, set-up, views, timeouts and the JSON round trip."""

from __future__ import annotations

from typing import Any

import pytest

from app.engines.bottom_of_the_ninth import Engine
from app.engines.dice import ScriptedDice, SeededDice
from app.engines.interface import IllegalAction, InvalidOptions, InvalidState
from app.engines.registry import make_engine
from tests.engines.bottom_of_the_ninth.helpers import act, make


def test_registry_builds_this_engine() -> None:
    engine = make_engine("bottom-of-the-9th", SeededDice(1))
    assert isinstance(engine, Engine)
    assert engine.name == "bottom-of-the-9th"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "party"}, "option 'mode'"),
        ({"race": "sprint"}, "option 'race'"),
        ({"race_window_ms": -5}, "option 'race_window_ms'"),
        ({"race_max_rolls_per_sec": 0}, "option 'race_max_rolls_per_sec'"),
        ({"setup": "draft"}, "option 'setup'"),
        ({"solo_side": "home"}, "only for mode 'solo'"),
        ({"mode": "solo", "challenge": "M99"}, "not a challenge card"),
        ({"mode": "solo", "solo_side": "umpire"}, "option 'solo_side'"),
        ({"lineup": ["B01"]}, "need setup 'given'"),
        ({"setup": "given", "lineup": ["B01"] * 6, "starter": "P01", "reliever": "P07"}, "six"),
        (
            {
                "setup": "given",
                "lineup": ["B01", "B02", "B03", "B04", "B05", "B06"],
                "starter": "P01",
                "reliever": "P07",
            },
            "cannot cover six different positions",
        ),
        (
            {
                "setup": "given",
                "lineup": ["B09", "B01", "B03", "B04", "B05", "B06"],
                "starter": "P07",
                "reliever": "P08",
            },
            "option 'starter'",
        ),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        Engine(ScriptedDice()).new_game(options)
    assert message in str(caught.value)


def test_options_are_recorded_with_defaults() -> None:
    state = Engine(ScriptedDice()).new_game({})
    assert state.options["race"] == "realtime"
    assert state.options["race_window_ms"] == 250
    assert state.options["race_max_rolls_per_sec"] == 4
    solo = Engine(ScriptedDice()).new_game({"mode": "solo", "challenge": "M03"})
    assert solo.options["race"] == "turns" and solo.options["solo_side"] == "home"


def test_choose_set_up_picks_batters_positions_and_pitchers() -> None:
    engine = Engine(ScriptedDice())
    state = engine.new_game({"setup": "choose"})
    assert state.phase == "setup"
    picks = engine.legal_actions(state, "home")
    assert {"side": "home", "type": "pick_batter", "card": "B10", "position": "SS"} in picks
    assert {"side": "home", "type": "pick_batter", "card": "B01", "position": "1B"} not in picks
    for card, position in [("B01", "C"), ("B02", "C")]:
        action = {"side": "home", "type": "pick_batter", "card": card, "position": position}
        if card == "B02":
            with pytest.raises(IllegalAction):
                engine.apply(state, action)
        else:
            state, _ = engine.apply(state, action)
    away = engine.legal_actions(state, "away")
    assert {"side": "away", "type": "pick_pitcher", "role": "starter", "card": "P07"} not in away
    state, _ = engine.apply(
        state, {"side": "away", "type": "pick_pitcher", "role": "starter", "card": "P01"}
    )
    state, _ = engine.apply(
        state, {"side": "away", "type": "pick_pitcher", "role": "reliever", "card": "P07"}
    )
    for card, position in [("B03", "1B"), ("B04", "2B"), ("B05", "SS"), ("B06", "3B")]:
        state, _ = engine.apply(
            state, {"side": "home", "type": "pick_batter", "card": card, "position": position}
        )
    assert state.phase == "setup"
    state, events = engine.apply(
        state, {"side": "home", "type": "pick_batter", "card": "B11", "position": "LF"}
    )
    assert state.phase == "stare"
    assert [e.type for e in events][-1] == "play_ball"
    assert state.positions == ["C", "1B", "2B", "SS", "3B", "LF"]


def test_random_set_up_is_legal_and_deterministic() -> None:
    a = Engine(SeededDice(3)).new_game({"setup": "random"})
    b = Engine(SeededDice(3)).new_game({"setup": "random"})
    assert a.lineup == b.lineup and a.starter == b.starter and a.reliever == b.reliever
    assert len(set(a.positions)) == 6
    engine = Engine(SeededDice(3))
    assert engine.cards[str(a.starter)].may_start()
    assert engine.cards[str(a.reliever)].may_relieve()


def test_hidden_choice_is_only_in_its_owners_view_and_event() -> None:
    engine, _dice, base = make()
    seen: dict[object, list[object]] = {"home": [], None: []}
    for direction in ("inside", "outside"):
        state, events = act(engine, base, "away", "stare", direction=direction, location="low")
        for viewer in ("home", None):
            view = engine.view(state, viewer)  # type: ignore[arg-type]
            assert view["stare"]["away"] == {"chosen": True}
            seen[viewer].append((view, events[0].for_viewer(viewer)))  # type: ignore[arg-type]
        assert engine.view(state, "away")["stare"]["away"]["direction"] == direction
        assert events[0].for_viewer("away")["direction"] == direction
    # What the batter and a spectator see does not depend on the pitch chosen.
    assert seen["home"][0] == seen["home"][1]
    assert seen[None][0] == seen[None][1]
    state, events = act(engine, state, "home", "stare", direction="outside", location="low")
    reveal = next(e for e in events if e.type == "reveal")
    assert reveal.for_viewer(None)["pitch"] == {"direction": "outside", "location": "low"}


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    engine, _dice, state = make()
    before = engine.to_json(state)
    for action in [
        {"side": "home", "type": "swing_roll"},
        {"side": "away", "type": "stare", "direction": "up", "location": "low"},
        {"side": "umpire", "type": "stare_random"},
        {"side": "home", "type": "stare", "direction": "inside", "location": "low", "x": 1},
        "stare",
    ]:
        with pytest.raises(IllegalAction):
            engine.apply(state, action)  # type: ignore[arg-type]
    assert engine.to_json(state) == before


def test_apply_never_changes_its_input() -> None:
    engine, dice, state = make()
    before = engine.to_json(state)
    dice.push(0)
    new, _ = engine.apply(state, {"side": "away", "type": "stare_random"})
    assert engine.to_json(state) == before
    assert new.away_choice is not None and state.away_choice is None


def test_timeouts_pick_from_the_dice_or_roll() -> None:
    engine, _dice, state = make()
    assert engine.timeout_action(state, "away") == {"side": "away", "type": "stare_random"}
    setup = Engine(ScriptedDice()).new_game({"setup": "choose"})
    assert Engine(ScriptedDice()).timeout_action(setup, "home") == {
        "side": "home",
        "type": "setup_random",
    }


def test_json_round_trip_and_garbage_refused() -> None:
    engine, _dice, state = make()
    state, _ = act(engine, state, "away", "stare", direction="inside", location="low")
    data = engine.to_json(state)
    assert engine.to_json(engine.from_json(data)) == data
    for bad in [
        {},
        {**data, "phase": "seventh-inning-stretch"},
        {**data, "balls": 9},
        {**data, "lineup": ["Z99"]},
        {**data, "fatigue": [0]},
        {**data, "options": {**data["options"], "race": "sprint"}},
        {**data, "extra": 1},
        {**data, "benched": "yes"},
        {**data, "phase": "swing"},
        {**data, "phase": "race"},
        {**data, "winner": "home"},
    ]:
        with pytest.raises(InvalidState):
            engine.from_json(bad)
