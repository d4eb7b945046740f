"""The game kinds the server hosts, by their stable API names."""

from __future__ import annotations

from typing import Any

from app.engines.interface import (
    Action,
    ComputerPolicy,
    DiceSource,
    GameEngine,
    InvalidOptions,
    Pick,
    Side,
    TimedPolicy,
)

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


def random_legal(engine: GameEngine[Any], state: Any, side: Side, pick: Pick) -> Action:
    """The easy computer of any kind: one of its legal actions, uniformly at random."""
    legal = engine.legal_actions(state, side)
    return legal[pick(len(legal))]


def computer_policies(kind: str) -> dict[str, ComputerPolicy]:
    """The computer players that live beside ``kind``'s engine, by level (``easy`` is a
    uniformly random legal move for a kind without one of its own)."""
    if kind == "bottom-of-the-9th":
        from app.engines.bottom_of_the_ninth.policy import choose_action

        return {"easy": random_legal, "normal": choose_action}
    if kind == "base-on-board":
        from app.engines.base_on_board.policy import POLICIES

        return dict(POLICIES)
    return {"easy": random_legal}


def timed_policies(kind: str) -> dict[str, TimedPolicy]:
    """The levels of ``kind`` that think for a time the server gives them (its stop check)."""
    if kind == "base-on-board":
        from app.engines.base_on_board.reading import TIMED_POLICIES

        return dict(TIMED_POLICIES)
    return {}
