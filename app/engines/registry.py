"""The game kinds the server hosts, by their stable API names."""

from __future__ import annotations

from typing import Any

from app.engines.interface import ComputerPolicy, DiceSource, GameEngine, InvalidOptions

GAME_KINDS: tuple[str, ...] = ("base-on-board", "bottom-of-the-9th")


def make_engine(kind: str, dice: DiceSource) -> GameEngine[Any]:
    """An engine for ``kind`` drawing from ``dice``; imports lazily so one game never loads both."""
    if kind == "base-on-board":
        from app.engines.base_on_board import Engine as BaseOnBoard

        return BaseOnBoard(dice)
    if kind == "bottom-of-the-9th":
        from app.engines.bottom_of_the_ninth import Engine as BottomOfTheNinth

        return BottomOfTheNinth(dice)
    raise InvalidOptions(f"unknown game kind {kind!r}; expected one of {GAME_KINDS}")


def computer_policy(kind: str) -> ComputerPolicy | None:
    """The computer player that lives beside ``kind``'s engine, or ``None`` (the server then
    plays the engine's timeout action for the computer's side)."""
    if kind == "bottom-of-the-9th":
        from app.engines.bottom_of_the_ninth.policy import choose_action

        return choose_action
    if kind == "base-on-board":
        from app.engines.base_on_board.policy import choose_normal

        return choose_normal
    return None
