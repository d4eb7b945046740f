"""Challenges (docs §7, D11, D12, D15, D25): every call in both tables, confirmed and reversed.

The challenge deck is scripted with ``challenge_deck``: its top card (the end of the list) is the
one a challenge draws.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engines.base_on_board import Engine, Options
from app.engines.base_on_board.data import CHALLENGE_DECK
from app.engines.dice import SeededDice
from app.engines.interface import InvalidOptions
from tests.engines.base_on_board.helpers import Table, challenge_deck, situation, text

CHALLENGE = {"type": "challenge"}


def challenged(table: Table, result: str, *steps: str | dict[str, Any]) -> dict[str, Any]:
    """Scripts the next challenge card, plays ``steps`` (which include the challenge) and checks
    the bookkeeping every challenge shares; returns the pitch record."""
    challenge_deck(table, result)
    before = dict(table.state.challenges)
    table.run(*steps)
    challenges = table.of_type("challenge")
    assert len(challenges) == 1
    side = challenges[0]["side"]
    # D12: a challenge is spent whether it confirms or reverses.
    assert table.state.challenges[side] == before[side] - 1
    assert table.state.discards["challenge"] == [result]
    rec = table.records()[0]
    assert rec["challenge"] == challenges[0]
    assert rec["challenge"]["result"] == result
    return rec


def test_challenge_deck_is_ten_confirm_ten_reverse() -> None:
    assert sorted(CHALLENGE_DECK) == ["confirm"] * 10 + ["reverse"] * 10
    state = Engine(SeededDice(3)).new_game({})
    assert sorted(state.decks["challenge"]) == sorted(CHALLENGE_DECK)


# ---------------------------------------------------------------------------- defense table


@pytest.mark.parametrize(("result", "balls", "strikes"), [("confirm", 2, 1), ("reverse", 1, 2)])
def test_ball(result: str, balls: int, strikes: int) -> None:
    table = situation(balls=1, strikes=1, challenges=1)
    rec = challenged(table, result, "B", CHALLENGE)
    assert rec["challenge"] == {"side": table.defense, "call": "B", "result": result}
    assert (rec["balls_after"], rec["strikes_after"]) == (balls, strikes)
    assert rec["result"] == ("B" if result == "confirm" else "SM")


def test_ball_four_reversed_with_two_strikes_is_a_strikeout() -> None:
    table = situation(bases="100", balls=3, strikes=2, challenges=1)
    rec = challenged(table, "reverse", "B", CHALLENGE)
    assert (rec["pa_result"], rec["outs_after"], rec["bases_after"]) == ("K", 1, "100")


@pytest.mark.parametrize(("result", "after", "outs", "runs"),
                         [("confirm", "111", 0, 1), ("reverse", "011", 1, 1)])
def test_infield_hit(result: str, after: str, outs: int, runs: int) -> None:
    # D25: iH reversed: the batter is out, the runners advance one.
    table = situation(bases="111", challenges=1)
    rec = challenged(table, result, "C", "HT", "iH", CHALLENGE)
    assert rec["challenge"]["call"] == "iH"
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs, runs)
    assert rec["pa_result"] == ("1B" if result == "confirm" else "OUT")


@pytest.mark.parametrize("strikes", [1, 2])
@pytest.mark.parametrize("result", ["confirm", "reverse"])
def test_home_run(result: str, strikes: int) -> None:
    # D25: HR reversed is a foul: a strike unless two strikes.
    table = situation(bases="010", strikes=strikes, challenges=1)
    rec = challenged(table, result, "C", "HR", CHALLENGE)
    if result == "confirm":
        assert (rec["runs"], rec["pa_result"], rec["bases_after"]) == (2, "HR", "000")
    else:
        assert (rec["runs"], rec["pa_result"], rec["bases_after"]) == (0, None, "010")
        assert rec["strikes_after"] == 2
        assert table.state.batters[table.offense] == 1


@pytest.mark.parametrize(("result", "after", "outs", "runs"),
                         [("confirm", "101", 0, 1), ("reverse", "001", 1, 1)])
def test_squeeze_two(result: str, after: str, outs: int, runs: int) -> None:
    # D25: SQ2 reversed: the batter is out, the runners advance.
    table = situation(bases="011", challenges=1, offense_hand=["SQ2"], defense_hand=["BD"])
    rec = challenged(table, result, "C", {"type": "play", "card": "SQ2"}, CHALLENGE)
    assert rec["challenge"] == {"side": table.defense, "call": "SQ2", "result": result}
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs, runs)


@pytest.mark.parametrize(("card", "bases", "safe", "out", "runs"),
                         [("SB2", "100", "010", "000", 0), ("SB3", "010", "001", "000", 0),
                          ("SBH", "001", "000", "000", 1)])
@pytest.mark.parametrize("result", ["confirm", "reverse"])
def test_steals(card: str, bases: str, safe: str, out: str, runs: int, result: str) -> None:
    table = situation(bases=bases, challenges=1, offense_hand=[card])
    rec = challenged(table, result, "B", {"type": "play", "card": card}, CHALLENGE)
    assert rec["challenge"] == {"side": table.defense, "call": card, "result": result}
    if result == "confirm":
        assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (safe, 0, runs)
    else:
        assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (out, 1, 0)
    assert rec["balls_after"] == 1


@pytest.mark.parametrize("result", ["confirm", "reverse"])
def test_uncaught_third_strike(result: str) -> None:
    table = situation(bases="010", strikes=2, challenges=1, offense_hand=["SNO"])
    rec = challenged(table, result, "SM", {"type": "play", "card": "SNO"}, CHALLENGE)
    if result == "confirm":
        assert (rec["pa_result"], rec["bases_after"], rec["outs_after"]) == ("SNO", "101", 0)
    else:  # D25: the strikeout stands
        assert (rec["pa_result"], rec["bases_after"], rec["outs_after"]) == ("K", "010", 1)


@pytest.mark.parametrize(("result", "after", "outs", "runs"),
                         [("confirm", "110", 0, 1), ("reverse", "110", 1, 0)])
def test_obstruction(result: str, after: str, outs: int, runs: int) -> None:
    # D26: batter to first, every runner one base. D25: IOB reversed is interference: the lead
    # runner (here the runner on 3rd) is out and the batter awarded first, forcing the runner.
    table = situation(bases="101", challenges=1, offense_hand=["IOB"])
    rec = challenged(table, result, "C", "GA", {"type": "play", "card": "IOB"}, CHALLENGE)
    assert rec["challenge"] == {"side": table.defense, "call": "IOB", "result": result}
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs, runs)


# ---------------------------------------------------------------------------- offense table


@pytest.mark.parametrize(("result", "balls", "strikes"), [("confirm", 1, 2), ("reverse", 2, 1)])
def test_swinging_strike(result: str, balls: int, strikes: int) -> None:
    table = situation(balls=1, strikes=1, challenges=1)
    rec = challenged(table, result, "SM", CHALLENGE)
    assert rec["challenge"] == {"side": table.offense, "call": "SM", "result": result}
    assert (rec["balls_after"], rec["strikes_after"]) == (balls, strikes)


def test_swinging_third_strike_reversed_to_ball_four_is_a_walk() -> None:
    table = situation(bases="100", balls=3, strikes=2, challenges=1)
    rec = challenged(table, "reverse", "SM", CHALLENGE)
    assert (rec["pa_result"], rec["bases_after"], rec["outs_after"]) == ("BB", "110", 0)


@pytest.mark.parametrize(("card", "bases", "out"), [("PO1", "100", "000"),
                                                    ("PO2", "010", "000")])
@pytest.mark.parametrize("result", ["confirm", "reverse"])
def test_pickoffs(card: str, bases: str, out: str, result: str) -> None:
    table = situation(bases=bases, challenges=1, defense_hand=[card])
    challenge_deck(table, result)
    table.play(card)
    table.act("challenge")
    table.settle()
    assert table.of_type("challenge") == [{"side": table.offense, "call": card,
                                           "result": result}]
    safe = result == "reverse"
    assert (text(table.state.bases), table.state.outs) == ((bases, 0) if safe else (out, 1))
    assert table.state.challenges[table.offense] == 0
    table.run("S")
    assert table.record()["challenge"]["call"] == card


@pytest.mark.parametrize(("result", "after", "outs", "runs", "pa"),
                         [("confirm", "011", 1, 1, "OUT"), ("reverse", "111", 0, 1, "1B")])
def test_groundout(result: str, after: str, outs: int, runs: int, pa: str) -> None:
    # D25: GA reversed: the batter is safe at first, the runners as on GA.
    table = situation(bases="111", challenges=1)
    rec = challenged(table, result, "C", "GA", CHALLENGE)
    assert rec["challenge"] == {"side": table.offense, "call": "GA", "result": result}
    assert (rec["bases_after"], rec["outs_after"], rec["runs"], rec["pa_result"]) == (
        after, outs, runs, pa
    )


@pytest.mark.parametrize(("result", "after", "outs", "runs"),
                         [("confirm", "110", 1, 0), ("reverse", "111", 0, 0)])
def test_bunt_defense(result: str, after: str, outs: int, runs: int) -> None:
    # D25: BD reversed: everyone safe, the batter on first and every runner one base.
    table = situation(bases="110", challenges=1, offense_hand=["SB"], defense_hand=["BD"])
    rec = challenged(table, result, "C", {"type": "play", "card": "SB"},
                     {"type": "play", "card": "BD"}, CHALLENGE)
    assert rec["challenge"] == {"side": table.offense, "call": "BD", "result": result}
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs, runs)


@pytest.mark.parametrize(("steal", "catch", "bases", "safe", "out", "runs"),
                         [("SB2", "CS2", "100", "010", "000", 0),
                          ("SB3", "CS3", "010", "001", "000", 0),
                          ("SBH", "CSH", "101", "100", "100", 1)])
@pytest.mark.parametrize("result", ["confirm", "reverse"])
def test_caught_stealing(
    steal: str, catch: str, bases: str, safe: str, out: str, runs: int, result: str
) -> None:
    # D25: CS2/CS3 reversed: safe on the base stolen; CSH reversed: safe and scores.
    table = situation(bases=bases, challenges=(1, 0), offense_hand=[steal],
                      defense_hand=[catch])
    rec = challenged(table, result, "S", {"type": "play", "card": steal},
                     {"type": "play", "card": catch}, CHALLENGE)
    assert rec["challenge"] == {"side": table.offense, "call": catch, "result": result}
    if result == "reverse":
        assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (safe, 0, runs)
    else:
        assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (out, 1, 0)


@pytest.mark.parametrize(("result", "after", "outs", "runs"),
                         [("confirm", "100", 1, 0), ("reverse", "100", 0, 1)])
def test_assist_at_home_on_a_hit(result: str, after: str, outs: int, runs: int) -> None:
    # D25: AHH reversed: the runner is safe and scores.
    table = situation(bases="010", challenges=1, defense_hand=["AHH"])
    rec = challenged(table, result, "C", "HT", "L2", {"type": "play", "card": "AHH"}, CHALLENGE)
    assert rec["challenge"] == {"side": table.offense, "call": "AHH", "result": result}
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs, runs)


# ---------------------------------------------------------------------------- not challengeable


@pytest.mark.parametrize("face", ["S", "F"])
def test_no_challenge_of_other_pitch_calls(face: str) -> None:
    table = situation(bases="100", challenges=3).run(face)
    assert not any(a["type"] == "challenge" for a in table.seen)


@pytest.mark.parametrize(("bat", "hit"), [("GF", None), ("FO", None), ("HT", "L1"),
                                          ("HT", "D2"), ("G3", None)])
def test_no_challenge_of_other_batted_calls(bat: str, hit: str | None) -> None:
    table = situation(bases="100", challenges=3)
    table.run("C", bat, *([hit] if hit else []))
    assert not any(a["type"] == "challenge" for a in table.seen)


@pytest.mark.parametrize(("card", "bases", "steps"),
                         [("CO1", "100", ("S",)), ("GDP", "100", ("C", "GF")),
                          ("A3H", "100", ("C", "HT", "L2")), ("A2", "000", ("C", "HT", "D2"))])
def test_no_challenge_of_other_defense_cards(card: str, bases: str, steps: tuple[str]) -> None:
    # §7 note: CO1, CO3, A3H, A2, GDP cannot be challenged.
    table = situation(bases=bases, challenges=3, defense_hand=[card])
    table.run(*steps, {"type": "play", "card": card})
    assert not any(a["type"] == "challenge" for a in table.seen)


@pytest.mark.parametrize("card", ["HBP", "WP"])
def test_no_challenge_of_other_offense_cards(card: str) -> None:
    table = situation(bases="100", challenges=(0, 3), offense_hand=[card])
    table.run("B", {"type": "pass"}, {"type": "play", "card": card})
    assert [a for a in table.seen if a["type"] == "challenge"] == [
        {"side": table.defense, "type": "challenge"}
    ]  # only the B call itself, before the card


def test_no_challenge_without_challenges_left() -> None:
    table = situation(bases="111", challenges=0).run("B")
    table.run("SM")
    table.run("C", "GA")
    assert not any(a["type"] == "challenge" for a in table.seen)


# ---------------------------------------------------------------------------- counts (D12)


@pytest.mark.parametrize("count", [0, 1, 3, 5])
def test_challenges_at_the_start(count: int) -> None:
    state = Engine(SeededDice(1)).new_game({"challenges": count})
    assert state.challenges == {"home": count, "away": count}


@pytest.mark.parametrize("count", [-1, 6, True, "1", 1.5])
def test_challenges_option_is_validated(count: object) -> None:
    with pytest.raises(InvalidOptions):
        Engine(SeededDice(1)).new_game({"challenges": count})


def end_half(table: Table) -> None:
    table.state.outs = 2
    table.state.strikes = 2
    table.run("S")


@pytest.mark.parametrize("count", [1, 2])
def test_challenges_come_every_three_innings_and_carry_over(count: int) -> None:
    table = situation(innings=9, challenges=(count, 0))
    table.state.options = Options(innings=9, challenges=count)  # the game option, per D12
    held = {table.offense: count, table.defense: 0}
    first, second = table.offense, table.defense
    for _ in range(5):
        end_half(table)
        assert table.state.challenges == held
    end_half(table)
    # D12: innings 1, 4, 7, 10: at the start of the 4th each side receives ``count`` more.
    assert (table.state.inning, table.state.half) == (4, "top")
    assert table.state.challenges == {first: 2 * count, second: count}


def test_challenge_deck_reshuffles_when_empty() -> None:
    table = situation(balls=1, challenges=1)
    table.state.discards["challenge"] = table.state.decks["challenge"]
    table.state.decks["challenge"] = []
    table.roll("B")
    table.dice.push(*[0] * 19)
    table.run(CHALLENGE)
    assert table.of_type("reshuffle") == [{"deck": "challenge", "size": 20}]
    assert len(table.state.decks["challenge"]) == 19
    assert len(table.state.discards["challenge"]) == 1


def test_reversed_infield_hit_for_the_third_out_scores_no_run() -> None:
    # D25 with D7: the batter out is the third out, so the runner from third does not score.
    table = situation(bases="101", outs=2, challenges=1)
    rec = challenged(table, "reverse", "C", "HT", "iH", CHALLENGE)
    assert (rec["outs_after"], rec["runs"]) == (3, 0)
    assert table.state.score == {"home": 0, "away": 0}


def test_reversed_squeeze_for_the_third_out_scores_no_run() -> None:
    table = situation(bases="001", outs=2, challenges=1, offense_hand=["SQ2"])
    rec = challenged(table, "reverse", "C", {"type": "play", "card": "SQ2"}, CHALLENGE)
    assert (rec["outs_after"], rec["runs"]) == (3, 0)
    assert table.state.half == "bottom"
