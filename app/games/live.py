"""The games this process played lately, held parsed, so a command need not read its game back.

A command on a game held here validates against the held state and writes with
``UPDATE ... WHERE version = :held``. If another process moved the game meanwhile, that update
matches no row, the entry is dropped and the command runs again from a fresh read: the entry
saves a read, it never decides anything by itself. A refusal (an illegal action, a stale
sequence number...) is confirmed the same way, against a fresh read, before it is sent, because
a stale entry could refuse a move that is legal by now.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from app.games.hold import Hold


@dataclass(slots=True)
class LiveGame:
    """What the command path needs of a game row, with the engine state already parsed.

    It carries the attributes :func:`app.games.service.game_header` reads, so headers and
    broadcasts are built from it directly.
    """

    id: str
    room_id: str
    kind: str
    number: int
    options: dict[str, Any]
    seed: str
    seed_hash: str
    status: str
    version: int
    seq: int
    draw_count: int
    deadlines: dict[str, Any]
    result: dict[str, Any] | None
    timers: dict[str, Any]
    """The room's timers (fixed when the room is created)."""
    state: Any
    """The engine's state object. Engines never mutate a state (``apply`` returns a new one),
    so the held object is shared safely."""
    pitch_count: int
    """The game's pitch rows so far: the next one's number."""
    computer: dict[str, Any] | None = None
    """The computer's seat from the start (see ``Game.computer``)."""
    stand_in: str | None = None
    """The side the computer took over (see ``Game.stand_in``)."""
    legal: dict[str, list[dict[str, Any]]] | None = None
    """Each side's legal actions in ``state``, when the commit that made it computed them."""
    hold: Hold | None = None
    """What viewers see while a pass written with the last commit is held
    (:mod:`app.games.hold`); ``state``, ``seq`` and ``deadlines`` are the game as written."""


class LiveGames:
    """A least-recently-used map of game id to :class:`LiveGame`, at most ``capacity`` long."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, LiveGame] = OrderedDict()

    def get(self, game_id: str) -> LiveGame | None:
        game = self._games.get(game_id)
        if game is not None:
            self._games.move_to_end(game_id)
        return game

    def put(self, game: LiveGame) -> None:
        if game.status != "live" or self.capacity == 0:
            self._games.pop(game.id, None)
            return
        self._games[game.id] = game
        self._games.move_to_end(game.id)
        while len(self._games) > self.capacity:
            self._games.popitem(last=False)

    def drop(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)
