"""What other parts of the server do in the transaction that ends a game, named and registered
by ``main.py``.

The command path writes a game's last command and its result; the rooms mark the room
finished and the stats rate the players, in the same transaction, so a result is never
committed without its ratings. They are registered here rather than imported by the command
path so that ``games`` depends on neither ``rooms`` nor ``stats`` (both depend on it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession


@dataclass(frozen=True)
class FinishedGame:
    game_id: str
    room_id: str
    kind: str
    options: dict[str, Any]
    result: dict[str, Any]
    finished_at: datetime


GameEndHook = Callable[[AsyncSession, FinishedGame], Awaitable[object]]
"""Runs inside the game-ending transaction (``db`` is bound to its connection); an exception
rolls the whole command back."""


@dataclass
class GameEndHooks:
    hooks: list[tuple[str, GameEndHook]] = field(default_factory=list)

    def register(self, name: str, hook: GameEndHook) -> None:
        if any(existing == name for existing, _ in self.hooks):
            raise ValueError(f"a game-end hook named {name!r} is already registered")
        self.hooks.append((name, hook))

    async def run(self, db: AsyncSession, game: FinishedGame) -> None:
        for _name, hook in self.hooks:
            await hook(db, game)
