"""Game flow: half-innings, the end of the game, extra innings and ties, options, and the
timing windows with and without fast_play (docs §2, §4, D10, D29-D32)."""

from __future__ import annotations

from typing import Any

import pytest

from app.engines.base_on_board import Engine
from app.engines.dice import SeededDice
from app.engines.interface import IllegalAction, InvalidOptions, Outcome
from tests.engines.base_on_board.helpers import Table, situation, text


def strikeout(table: Table) -> None:
    table.state.strikes = 2
    table.run("S")


def third_out(table: Table) -> None:
    table.state.outs = 2
    strikeout(table)


# ---------------------------------------------------------------------------- half-innings


def test_three_outs_change_the_half() -> None:
    table = situation(bases="011", outs=1, balls=2, score=(3, 0))
    strikeout(table)
    assert (table.state.half, table.state.outs) == ("top", 2)
    table.state.strikes = 2
    table.run("SM")
    state = table.state
    assert (state.inning, state.half, state.offense, state.defense) == (1, "bottom", "home", "away")
    assert (state.outs, state.balls, state.strikes, state.bases) == (0, 0, 0, 0)
    assert table.of_type("half_end") == [{"inning": 1, "half": "top", "runs": 3}]
    assert state.line == {"away": [3], "home": [0]}
    third_out(table)
    assert (table.state.inning, table.state.half, table.state.offense) == (2, "top", "away")
    assert table.state.line == {"away": [3, 0], "home": [0]}


def test_batter_numbers_count_plate_appearances_per_side() -> None:
    table = situation()
    table.run("C", "FO")
    table.run("C", "HT", "L1")
    assert [r["batter"] for r in table.records()] == [1, 2]
    assert table.state.batters == {"away": 3, "home": 0}
    third_out(table)
    assert table.state.batters == {"away": 3, "home": 1}


def test_runs_scored_go_to_the_line_score() -> None:
    table = situation(bases="111", inning=2, half="bottom")
    table.run("C", "HR")
    assert table.state.line["home"] == [0, 4]
    assert table.state.score == {"home": 4, "away": 0}


# ---------------------------------------------------------------------------- the end (D30)


def test_last_bottom_half_is_skipped_when_the_second_side_leads() -> None:
    table = situation(inning=3, half="top", score=(1, 2))
    third_out(table)
    assert table.state.result == {"winner": "home", "reason": "leads after the top half"}
    assert table.engine.outcome(table.state) == Outcome("home", {"away": 1, "home": 2},
                                                        "leads after the top half")
    assert table.state.line["home"] == [2, 0]  # no bottom of the 3rd
    assert table.of_type("game_over")[0]["winner"] == "home"
    assert table.engine.legal_actions(table.state, "home") == []
    assert table.engine.legal_actions(table.state, "away") == []


def test_last_bottom_half_is_played_when_tied_or_behind() -> None:
    for score in ((2, 2), (3, 2)):
        table = situation(inning=3, half="top", score=score)
        third_out(table)
        assert table.state.result is None
        assert (table.state.inning, table.state.half) == (3, "bottom")


def test_first_side_wins_after_the_last_bottom_half() -> None:
    table = situation(inning=3, half="bottom", score=(3, 2))
    third_out(table)
    assert table.state.result == {"winner": "away", "reason": "final"}


@pytest.mark.parametrize(("bases", "face", "hit", "runs"),
                         [("001", "HT", "L1", 1), ("111", "HR", None, 4), ("011", "HT", "L2", 2)])
def test_walk_off(bases: str, face: str, hit: str | None, runs: int) -> None:
    # D30: the side batting second wins the moment it leads; all runs of that play count.
    table = situation(bases=bases, outs=2, inning=3, half="bottom", score=(2, 2))
    table.run("C", face, *([hit] if hit else []))
    assert table.state.result == {"winner": "home", "reason": "walk-off"}
    assert table.state.score == {"away": 2, "home": 2 + runs}
    assert table.record()["runs"] == runs
    assert table.head() is None


def test_walk_off_on_a_walk_and_in_an_extra_inning() -> None:
    table = situation(bases="111", balls=3, inning=5, half="bottom", score=(4, 4))
    table.run("B")
    assert table.state.result == {"winner": "home", "reason": "walk-off"}
    assert table.state.score["home"] == 5


def test_walk_off_on_a_pre_pitch_balk() -> None:
    table = situation(bases="001", inning=3, half="bottom", score=(0, 0), offense_hand=["BK"])
    table.play("BK")
    assert table.state.result == {"winner": "home", "reason": "walk-off"}
    assert table.record()["dice"] == []


def test_no_walk_off_before_the_last_inning() -> None:
    table = situation(bases="001", inning=2, half="bottom", score=(2, 2))
    table.run("C", "HT", "L1")
    assert table.state.result is None
    assert table.state.score == {"away": 2, "home": 3}


def test_extra_innings_after_a_tie() -> None:
    table = situation(inning=3, half="bottom", score=(1, 1))
    third_out(table)
    assert table.state.result is None
    assert (table.state.inning, table.state.half) == (4, "top")


@pytest.mark.parametrize(("extra", "last"), [(0, 3), (1, 4), (3, 6)])
def test_tie_after_the_extra_innings(extra: int, last: int) -> None:
    table = situation(inning=last, half="bottom", score=(1, 1), extra_innings=extra)
    third_out(table)
    assert table.state.result == {"winner": None, "reason": "tie after extra innings"}
    assert table.engine.outcome(table.state) == Outcome(None, {"away": 1, "home": 1},
                                                        "tie after extra innings")


def test_extra_inning_with_a_lead_after_the_bottom() -> None:
    table = situation(inning=5, half="bottom", score=(2, 1))
    third_out(table)
    assert table.state.result == {"winner": "away", "reason": "final"}


def test_game_continues_before_the_last_extra_inning() -> None:
    table = situation(inning=5, half="bottom", score=(1, 1), extra_innings=3)
    third_out(table)
    assert (table.state.result, table.state.inning) == (None, 6)


def test_home_may_bat_first() -> None:
    engine = Engine(SeededDice(4))
    state = engine.new_game({"bats_first": "home"})
    assert (state.offense, state.defense) == ("home", "away")
    assert state.queue[0] == ["away", "pitch"]  # D32: the defense pitches
    assert len(state.hands["home"]) == 4
    table = situation(inning=3, half="top", score=(0, 1), bats_first="home")
    assert table.offense == "home"
    third_out(table)
    # the side batting second (away) leads: the bottom of the last inning is not played
    assert table.state.result == {"winner": "away", "reason": "leads after the top half"}


def test_a_finished_game_refuses_every_action() -> None:
    table = situation(inning=3, half="top", score=(0, 1))
    third_out(table)
    before = table.engine.to_json(table.state)
    for side in ("home", "away"):
        for action in ({"side": side, "type": "pass"}, {"side": side, "type": "roll"}):
            with pytest.raises(IllegalAction):
                table.engine.apply(table.state, action)
    assert table.engine.to_json(table.state) == before
    assert table.engine.timeout_action(table.state, "home") is None


# ---------------------------------------------------------------------------- options


@pytest.mark.parametrize("innings", [3, 5, 7, 9])
def test_innings_options(innings: int) -> None:
    table = situation(inning=innings, half="top", score=(0, 1), innings=innings)
    third_out(table)
    assert table.state.result is not None
    if innings > 3:
        table = situation(inning=3, half="top", score=(0, 1), innings=innings)
        third_out(table)
        assert table.state.result is None


def test_default_options() -> None:
    state = Engine(SeededDice(1)).new_game({})
    assert state.options.to_json() == {"innings": 9, "tier": "pro", "challenges": 1,
                                       "bats_first": "away", "fast_play": False,
                                       "extra_innings": 3}


@pytest.mark.parametrize("options", [
    {"innings": 0}, {"innings": 1}, {"innings": 4}, {"innings": 6}, {"innings": 10},
    {"innings": True}, {"innings": "9"}, {"innings": None},
    {"tier": "expert"}, {"tier": None}, {"bats_first": "visitors"}, {"fast_play": "yes"},
    {"fast_play": 1}, {"extra_innings": -1}, {"extra_innings": 10}, {"extra_innings": False},
    {"colour": "blue"},
])
def test_invalid_options(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        Engine(SeededDice(1)).new_game(options)


# ---------------------------------------------------------------------------- windows (D31)


def test_window_opens_by_situation_not_by_hand() -> None:
    table = situation(bases="000").settle()
    table.roll("B")
    # HBP may be played on a ball: the offense's window opens with an empty hand.
    assert table.head() == (table.offense, "cards")
    assert table.state.hands[table.offense] == []
    assert table.legal() == [{"side": table.offense, "type": "pass"}]
    assert table.legal(table.defense) == []


def passes(table: Table, since: int = 0) -> list[dict[str, Any]]:
    return [e.data for e in table.events[since:] if e.type == "pass"]


def test_window_stays_shut_when_no_card_of_the_tier_fits() -> None:
    table = situation(bases="000", offense_hand=["SB2"], defense_hand=["CO1"]).settle()
    start = len(table.events)
    table.roll("S")  # no steal (no runner), no HBP; no CO1 (no runner); no challenge of S
    assert len(table.records()) == 1
    assert table.head() == (table.defense, "pitch")
    assert passes(table, start) == []


def single(fast_play: bool) -> Table:
    """Bases empty, empty hands, no challenges: the batter singles."""
    table = situation(challenges=0, fast_play=fast_play).settle()
    start = len(table.events)
    table.roll("C")
    table.roll("HT")
    if fast_play:
        table.roll("L1")
    else:
        table.roll("L1")
        # D31: the offense's 1H1E window opens on a hit whether or not it holds 1H1E.
        assert table.head() == (table.offense, "cards")
        assert table.legal() == [{"side": table.offense, "type": "pass"}]
        table.pass_until_pitch_ends()
        assert passes(table, start) == [{"side": table.offense, "window": "cards"}]
    return table


def test_pre_pitch_window_opens_with_a_runner() -> None:
    table = single(fast_play=False)
    # a runner on first: BK and HNR are possible, so the offense's pre-pitch window opens.
    assert table.head() == (table.offense, "pre")
    assert table.legal() == [{"side": table.offense, "type": "pass"}]


def test_fast_play_skips_windows_for_an_empty_hand() -> None:
    table = single(fast_play=True)
    assert passes(table) == [{"side": table.offense, "window": "pre"}]  # the helper's own
    assert table.head() == (table.defense, "pitch")
    assert table.records()[0]["bases_after"] == "100"
    table.roll("B")
    assert table.head() == (table.defense, "pitch")
    assert len(table.records()) == 2


def test_fast_play_opens_a_window_for_a_playable_card() -> None:
    table = situation(fast_play=True, offense_hand=["HBP", "SB3"]).settle()
    assert table.head() == (table.defense, "pitch")
    table.roll("B")
    assert table.head() == (table.offense, "cards")
    assert table.legal() == [{"side": table.offense, "type": "play", "card": "HBP"},
                             {"side": table.offense, "type": "pass"}]


def test_fast_play_ignores_an_unplayable_card() -> None:
    table = situation(fast_play=True, offense_hand=["SB3", "SQ1", "1H1E"]).settle()
    table.roll("B")
    assert len(table.records()) == 1


def test_fast_play_still_opens_challenge_and_infield_fly_windows() -> None:
    table = situation(bases="110", fast_play=True, challenges=1).settle()
    table.roll("B")
    assert table.legal() == [{"side": table.defense, "type": "challenge"},
                             {"side": table.defense, "type": "pass"}]
    table.run({"type": "pass"}, "C", "PO")
    assert {"side": table.offense, "type": "ifl"} in table.seen


def test_the_roll_is_never_automatic_and_cannot_be_passed() -> None:
    table = situation().settle()
    assert table.legal() == [{"side": table.defense, "type": "roll"}]
    with pytest.raises(IllegalAction):
        table.apply({"side": table.defense, "type": "pass"})
    assert table.engine.timeout_action(table.state, table.defense) == {
        "side": table.defense, "type": "roll"
    }


def test_timeout_passes_an_open_window() -> None:
    table = situation(bases="100", offense_hand=["BK"])
    assert table.engine.timeout_action(table.state, table.offense) == {
        "side": table.offense, "type": "pass"
    }
    assert table.engine.timeout_action(table.state, table.defense) is None


@pytest.mark.parametrize("action", [None, "roll", ["away", "roll"], {"type": "roll"},
                                    {"side": "umpire", "type": "roll"}])
def test_malformed_actions_are_refused(action: Any) -> None:
    table = situation().settle()
    before = table.engine.to_json(table.state)
    with pytest.raises(IllegalAction):
        table.engine.apply(table.state, action)
    assert table.engine.to_json(table.state) == before


def test_only_the_side_to_move_has_actions() -> None:
    table = situation(bases="100", offense_hand=["BK"])
    assert table.legal(table.defense) == []
    with pytest.raises(IllegalAction):
        table.apply({"side": table.defense, "type": "roll"})
    assert text(table.state.bases) == "100"


# ---------------------------------------------------------------------------- order (D15)


def heads_until_pitch_ends(table: Table) -> list[tuple[str, str]]:
    """(side, window) of every decision met until the pitch record, passing each one."""
    order: list[tuple[str, str]] = []
    start = len(table.records())
    while len(table.records()) == start:
        head = table.head()
        assert head is not None
        side, kind = head
        order.append(("offense" if side == table.offense else "defense", kind))
        table.apply({"side": side, "type": "pass"})
    return order


def test_order_after_a_ball() -> None:
    table = situation(bases="100", challenges=1).settle()
    table.roll("B")
    assert heads_until_pitch_ends(table) == [
        ("defense", "challenge"), ("offense", "cards"), ("defense", "cards")
    ]


def test_order_after_a_swinging_strike() -> None:
    table = situation(bases="100", challenges=1).settle()
    table.roll("SM")
    assert heads_until_pitch_ends(table) == [
        ("offense", "challenge"), ("offense", "cards"), ("defense", "cards")
    ]


def test_order_after_a_groundout() -> None:
    table = situation(bases="110", challenges=1).settle()
    table.roll("C")
    table.roll("GA")
    assert heads_until_pitch_ends(table) == [
        ("offense", "challenge"), ("defense", "cards"), ("offense", "cards")
    ]


def test_order_after_an_infield_popup() -> None:
    table = situation(bases="110", challenges=1).settle()
    table.roll("C")
    table.roll("PO")
    assert heads_until_pitch_ends(table) == [
        ("offense", "ifl"), ("defense", "cards"), ("offense", "cards")
    ]


def test_order_on_an_infield_hit() -> None:
    table = situation(bases="110", challenges=1).settle()
    table.roll("C")
    table.roll("HT")
    assert table.head() == (table.defense, "cards")  # LDP before the hit die
    table.apply({"side": table.defense, "type": "pass"})
    table.roll("iH")
    # no assist fits an infield single, so the defense's card window stays shut (D31)
    assert heads_until_pitch_ends(table) == [("defense", "challenge"), ("offense", "cards")]


def test_order_on_a_two_run_single() -> None:
    table = situation(bases="110", challenges=1).settle()
    table.roll("C")
    table.roll("HT")
    table.apply({"side": table.defense, "type": "pass"})
    table.roll("L2")
    assert heads_until_pitch_ends(table) == [("defense", "cards"), ("offense", "cards")]


def test_order_on_a_home_run() -> None:
    table = situation(bases="110", challenges=1).settle()
    table.roll("C")
    table.roll("HR")
    assert heads_until_pitch_ends(table) == [("offense", "cards"), ("defense", "challenge")]


def test_order_before_the_pitch() -> None:
    table = situation(bases="100", defense_hand=["PO1"])
    assert table.head() == (table.offense, "pre")
    table.apply({"side": table.offense, "type": "pass"})
    assert table.head() == (table.defense, "pitch")
    assert sorted(table.legal(), key=str) == sorted(
        [{"side": table.defense, "type": "roll"},
         {"side": table.defense, "type": "play", "card": "PO1"}], key=str
    )


def test_infield_fly_declaration_draws_no_card() -> None:
    table = situation(bases="110", offense_hand=["SB2", "WP", "HBP", "E"])
    table.run("C", "PO", {"type": "ifl"})
    assert table.state.hands[table.offense] == ["SB2", "WP", "HBP", "E"]
    assert table.of_type("draw") == []


def test_run_and_hit_card_is_discarded_when_a_caught_stealing_ends_the_half() -> None:
    table = situation(bases="100", outs=2, balls=3,
                      offense_hand=["RNH", "WP", "HBP", "E"], defense_hand=["CS2"])
    table.play("RNH")
    table.roll("S")
    table.play("CS2")
    table.settle()
    rec = table.record()
    assert (rec["outs_after"], rec["pa_result"]) == (3, None)
    assert table.state.half == "bottom"
    assert "RNH" in table.state.discards["offense"]
    assert "CS2" in table.state.discards["defense"]


# ---------------------------------------------------------------------------- stored states


@pytest.mark.parametrize("mutate", [
    lambda raw: raw.update(game="bottom-of-the-9th"),
    lambda raw: raw.pop("bases"),
    lambda raw: raw.update(bases=8),
    lambda raw: raw.update(outs=4),
    lambda raw: raw.update(balls=4),
    lambda raw: raw.update(half="middle"),
    lambda raw: raw.update(options={"innings": 4}),
    lambda raw: raw.update(score="lots"),
    lambda raw: raw["hands"].pop("home"),
    lambda raw: raw["score"].pop("away"),
    lambda raw: raw["decks"].pop("challenge"),
    lambda raw: raw.update(queue=[["umpire", "pitch"]]),
    lambda raw: raw.update(queue=[["home", "dance"]]),
    lambda raw: raw.update(inning=0),
])
def test_malformed_states_are_refused(mutate: Any) -> None:
    from app.engines.interface import InvalidState

    engine = Engine(SeededDice(1))
    raw = engine.to_json(engine.new_game({}))
    mutate(raw)
    with pytest.raises(InvalidState):
        engine.from_json(raw)


def test_state_json_round_trip() -> None:
    table = situation(bases="101", outs=1, balls=2, offense_hand=["RNH", "SB2"]).settle()
    raw = table.engine.to_json(table.state)
    again = table.engine.from_json(raw)
    assert table.engine.to_json(again) == raw


def test_walk_off_when_home_bats_first() -> None:
    table = situation(bases="001", inning=3, half="bottom", score=(1, 1), bats_first="home")
    assert table.offense == "away"
    table.run("C", "F3")
    assert table.state.result == {"winner": "away", "reason": "walk-off"}
    assert table.state.score == {"home": 1, "away": 2}


@pytest.mark.parametrize("innings", [3.0, 9.0])
def test_innings_must_be_an_integer(innings: float) -> None:
    with pytest.raises(InvalidOptions):
        Engine(SeededDice(1)).new_game({"innings": innings})
