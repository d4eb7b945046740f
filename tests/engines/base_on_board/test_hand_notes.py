"""Why a card in hand cannot be played now: the own view's ``hand_notes`` (a greyed card in the
browser says it), and that no other view has them."""

from __future__ import annotations

from typing import Any

from tests.engines.base_on_board.helpers import Table, situation


def notes(table: Table, side: str) -> dict[str, dict[str, Any]]:
    view = table.engine.view(table.state, side)  # type: ignore[arg-type]
    return {n["code"]: n for n in view["hand_notes"]}


def test_a_card_waits_for_its_moment_then_for_its_situation() -> None:
    table = situation(bases="110", offense_hand=["SB2", "SB3", "HBP", "BK"],
                      defense_hand=["CS2", "PO1"])
    offense, defense = table.offense, table.defense
    # Before the pitch the offense may balk (runners on): BK is playable, so it has no note.
    before = notes(table, offense)
    assert "BK" not in before
    assert before["SB2"] == {"code": "SB2", "why": "moment", "when": ["pitch"], "answers": []}
    assert before["HBP"]["why"] == "moment"
    # The defense waits while the offense decides; CS2 only ever answers a steal.
    assert notes(table, defense)["CS2"] == {
        "code": "CS2", "why": "wait", "when": [], "answers": ["SB2", "RNH"]}
    table.roll("B")
    while (head := table.head()) is not None and head[0] != offense:
        table.apply({"side": head[0], "type": "pass"})
    assert table.head() == (offense, "cards")
    after = notes(table, offense)
    # A ball with runners on first and second: SB3 steals third (playable), SB2 cannot (second
    # is taken) and HBP can; so only SB2 has a note, and this is its moment.
    assert "SB3" not in after and "HBP" not in after
    assert after["SB2"]["why"] == "situation"


def test_spectators_and_the_other_side_never_see_a_hand_or_its_notes() -> None:
    table = situation(bases="100", offense_hand=["SB2"], defense_hand=["CS2"])
    assert "hand_notes" not in table.engine.view(table.state, None)
    assert list(notes(table, table.defense)) == ["CS2"]
    assert list(notes(table, table.offense)) == ["SB2"]


def test_after_the_game_every_card_says_the_game_is_over() -> None:
    table = situation(bases="000", offense_hand=["SB2"], defense_hand=["CS2"])
    table.state.result = {"winner": "home", "reason": "innings"}
    for side in ("home", "away"):
        assert {n["why"] for n in notes(table, side).values()} == {"over"}


def test_every_cards_moments_are_the_tables_own() -> None:
    """``card_moments`` reads a table worked out once; for every card of every deck it says
    what a search of the window and answer tables says, and a fresh list each call (a view's
    note may be changed by whoever holds it)."""
    from app.engines.base_on_board.data import DEFENSE_CODES, OFFENSE_CODES
    from app.engines.base_on_board.windows import (
        ANSWERS,
        DEFENSE_WINDOW,
        OFFENSE_WINDOW,
        card_moments,
    )

    for code in (*OFFENSE_CODES, *DEFENSE_CODES, "nothing-such"):
        phases = [p for table in (OFFENSE_WINDOW, DEFENSE_WINDOW) for p, cs in table.items()
                  if code in cs]
        answers = [card for card, cs in ANSWERS.items() if code in cs]
        assert card_moments(code) == (phases, answers)
    assert card_moments("CS2") == ([], ["SB2", "RNH"])
    card_moments("SB2")[0].append("changed")
    assert card_moments("SB2") == (["pitch"], [])
