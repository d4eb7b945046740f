"""Tiers, decks and hands (docs §1, §3, §8, D9, D10, D13)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engines.base_on_board import Engine
from app.engines.base_on_board.data import DEFENSE_CODES, OFFENSE_CODES, deck_for
from app.engines.dice import DiceExhausted, ScriptedDice, SeededDice
from tests.engines.base_on_board.helpers import situation

WHITE_OFFENSE = {"HBP": 2, "WP": 3, "BK": 2, "POE": 2, "E": 2, "1H1E": 1, "HRC": 2}
WHITE_DEFENSE = {"GDP": 3, "PO1": 3, "PO2": 2, "GBH": 3, "A2": 2, "A3H": 2, "AHH": 2, "A3F": 2,
                 "AHF": 2, "FFO": 2}
GREY_OFFENSE = {"SB2": 5, "SB3": 4, "SBH": 1, "SB": 4, "SQ1": 3, "SQ2": 2}
GREY_DEFENSE = {"CS2": 3, "CS3": 3, "CSH": 1, "BD": 3}
PRO_OFFENSE = {"HNR": 2, "RNH": 1, "SNO": 2, "CIB": 1, "IOB": 1}
PRO_DEFENSE = {"IFD": 1, "GTP": 1, "LDP": 1, "RHB": 1, "CO1": 2, "CO3": 1}
# §5 and §6 "count" columns of the 40-card decks.
TABLE_OFFENSE = {"HBP": 2, "WP": 3, "BK": 2, "POE": 2, "SB2": 5, "SB3": 4, "SBH": 1, "SB": 4,
                 "SQ1": 3, "SQ2": 2, "E": 2, "1H1E": 1, "HRC": 2, "HNR": 2, "RNH": 1, "SNO": 2,
                 "CIB": 1, "IOB": 1}
TABLE_DEFENSE = {"CS2": 3, "CS3": 3, "CSH": 1, "GDP": 3, "PO1": 3, "PO2": 2, "BD": 3, "GBH": 3,
                 "GTP": 1, "LDP": 1, "A2": 2, "A3H": 2, "AHH": 2, "A3F": 2, "AHF": 2, "IFD": 1,
                 "CO1": 2, "CO3": 1, "FFO": 2, "RHB": 1}
TIERS = {
    "lite": (WHITE_OFFENSE, WHITE_DEFENSE),
    "lite-extended": ({**WHITE_OFFENSE, **GREY_OFFENSE}, {**WHITE_DEFENSE, **GREY_DEFENSE}),
    "pro": (TABLE_OFFENSE, TABLE_DEFENSE),
}


def test_codes_are_the_documented_18_and_20() -> None:
    assert sorted(OFFENSE_CODES) == sorted(TABLE_OFFENSE)
    assert sorted(DEFENSE_CODES) == sorted(TABLE_DEFENSE)
    assert sum(TABLE_OFFENSE.values()) == sum(TABLE_DEFENSE.values()) == 40


def test_pro_is_white_plus_grey_plus_pro() -> None:
    assert {**WHITE_OFFENSE, **GREY_OFFENSE, **PRO_OFFENSE} == TABLE_OFFENSE
    assert {**WHITE_DEFENSE, **GREY_DEFENSE, **PRO_DEFENSE} == TABLE_DEFENSE


@pytest.mark.parametrize(("tier", "sizes"),
                         [("lite", (14, 23)), ("lite-extended", (33, 33)), ("pro", (40, 40))])
def test_tier_decks(tier: str, sizes: tuple[int, int]) -> None:
    offense, defense = TIERS[tier]
    assert Counter(deck_for(tier, offense=True)) == Counter(offense)  # type: ignore[arg-type]
    assert Counter(deck_for(tier, offense=False)) == Counter(defense)  # type: ignore[arg-type]
    assert (sum(offense.values()), sum(defense.values())) == sizes
    state = Engine(SeededDice(5)).new_game({"tier": tier})
    in_play = Counter(state.decks["offense"]) + Counter(state.hands[state.offense])
    assert in_play == Counter(offense)
    in_play = Counter(state.decks["defense"]) + Counter(state.hands[state.defense])
    assert in_play == Counter(defense)
    assert state.ifl == ({"home": 1, "away": 1} if tier == "pro" else {"home": 0, "away": 0})


def test_decks_are_shuffled_from_the_dice_stream() -> None:
    a = Engine(SeededDice(1)).new_game({})
    b = Engine(SeededDice(1)).new_game({})
    c = Engine(SeededDice(2)).new_game({})
    assert a.decks == b.decks
    assert a.decks != c.decks


@pytest.mark.parametrize(("tier", "opens"), [("lite", False), ("lite-extended", True),
                                             ("pro", True)])
def test_steal_window_only_in_tiers_with_steals(tier: str, opens: bool) -> None:
    # D31: a window opens when the situation lets some card *of the tier* be played.
    table = situation(bases="100", tier=tier).settle()
    table.roll("S")
    assert (table.head() == (table.offense, "cards")) is opens
    if opens:
        assert table.legal() == [{"side": table.offense, "type": "pass"}]
    else:
        assert len(table.records()) == 1


# ---------------------------------------------------------------------------- hands (D10)


@pytest.mark.parametrize("tier", ["lite", "lite-extended", "pro"])
def test_first_hands(tier: str) -> None:
    engine = Engine(SeededDice(9))
    state, events = engine.start({"tier": tier})
    offense, defense = TIERS[tier]
    assert state.offense == "away"
    assert len(state.hands["away"]) == len(state.hands["home"]) == 4
    assert all(code in offense for code in state.hands["away"])
    assert all(code in defense for code in state.hands["home"])
    draws = [e for e in events if e.type == "draw"]
    assert {(e.data["side"], e.data["deck"], e.data["count"]) for e in draws} == {
        ("away", "offense", 4), ("home", "defense", 4)
    }
    for event in draws:
        side = event.data["side"]
        other = "home" if side == "away" else "away"
        assert "cards" not in event.for_viewer(None)
        assert "cards" not in event.for_viewer(other)
        assert event.for_viewer(side)["cards"] == state.hands[side]


def test_draw_after_a_card_is_played() -> None:
    table = situation(bases="100", offense_hand=["SB2", "WP", "HBP", "E"])
    deck = list(table.state.decks["offense"])
    table.roll("B")
    events = table.play("SB2")
    hand = table.state.hands[table.offense]
    assert len(hand) == 4
    assert hand[:3] == ["WP", "HBP", "E"] and hand[3] == deck[-1]  # the top of the deck
    assert table.state.decks["offense"] == deck[:-1]
    assert table.state.discards["offense"] == ["SB2"]
    draw = next(e for e in events if e.type == "draw")
    assert draw.data == {"side": table.offense, "deck": "offense", "count": 1}
    assert draw.for_viewer(table.offense)["cards"] == [deck[-1]]
    assert "cards" not in draw.for_viewer(None)


def test_hands_are_discarded_and_redealt_at_the_half() -> None:
    table = situation(outs=2, strikes=2, offense_hand=["SB2", "WP", "HBP", "E"],
                      defense_hand=["GDP", "PO1", "A2", "FFO"])
    away, home = table.offense, table.defense
    offense_deck = list(table.state.decks["offense"])
    defense_deck = list(table.state.decks["defense"])
    table.run("S")
    assert (table.state.half, table.state.offense) == ("bottom", home)
    assert table.state.discards["offense"] == ["SB2", "WP", "HBP", "E"]
    assert table.state.discards["defense"] == ["GDP", "PO1", "A2", "FFO"]
    # The roles change: home now bats and holds offense cards, away fields with defense cards.
    assert table.state.hands[home] == list(reversed(offense_deck[-4:]))
    assert table.state.hands[away] == list(reversed(defense_deck[-4:]))
    starts = table.of_type("half_start")
    assert starts == [{"inning": 1, "half": "bottom", "offense": home}]


def test_a_deck_that_runs_out_is_refilled_from_its_discards() -> None:
    table = situation(bases="100", offense_hand=["SB2", "WP", "HBP", "E"])
    table.state.discards["offense"] = ["BK", "POE", "SB", "SQ1"]
    table.state.decks["offense"] = []
    table.roll("B")
    table.dice.push(0, 0, 0, 0)  # Fisher-Yates of 5 cards: 4 draws
    table.play("SB2")
    assert table.of_type("reshuffle") == [{"deck": "offense", "size": 5}]
    assert table.state.discards["offense"] == []
    assert len(table.state.decks["offense"]) == 4
    assert len(table.state.hands[table.offense]) == 4
    everything = table.state.decks["offense"] + table.state.hands[table.offense]
    assert sorted(everything) == sorted(["BK", "POE", "SB", "SQ1", "SB2", "WP", "HBP", "E"])


def test_the_next_half_deals_from_a_refilled_deck() -> None:
    table = situation(outs=2, strikes=2)
    table.state.discards["offense"] = table.state.decks["offense"][2:]
    table.state.decks["offense"] = table.state.decks["offense"][:2]
    table.dice.push(*[0] * 50)  # the pitch die (face 0 is S), then the shuffle
    table.run("S")
    assert table.of_type("reshuffle")[0]["deck"] == "offense"
    assert len(table.state.hands[table.offense]) == 4


@pytest.mark.parametrize(("tier", "draws"), [("lite", 13 + 22 + 19),
                                             ("lite-extended", 32 + 32 + 19),
                                             ("pro", 39 + 39 + 19)])
def test_game_start_shuffles_three_decks_from_the_dice(tier: str, draws: int) -> None:
    # Fisher-Yates over n cards takes n - 1 draws: offense, defense, then the 20 challenges.
    dice = ScriptedDice([0] * draws)
    state = Engine(dice).new_game({"tier": tier})
    assert dice.used == state.draw == draws
    with pytest.raises(DiceExhausted):
        Engine(ScriptedDice([0] * (draws - 1))).new_game({"tier": tier})
