"""The rooms this process has sockets for: their latest sequence numbers, and the heartbeat.

Every ``WS_HEARTBEAT_SECONDS`` one query reads the current game and its ``seq`` for every room
with a socket here, and each socket is sent a ``heartbeat`` carrying them (``pong`` carries
them too). A socket whose stream is behind catches up from the database by itself, and a client
that sees a larger number than it holds asks for a sync: a notification lost after a commit
(Redis down, a dropped message) is repaired within one heartbeat even when nothing else happens
in the room (design note 7).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Protocol

from sqlalchemy import select

from app.db import Database
from app.games.models import Game
from app.games.ownership import Ownership
from app.metrics import Metrics
from app.rooms.models import Room

log = logging.getLogger(__name__)
CHUNK = 500


class Watcher(Protocol):
    @property
    def viewer(self) -> str: ...

    def heartbeat(self, game_id: str, seq: int) -> None: ...


class RoomWatch:
    def __init__(self, db: Database, ownership: Ownership, metrics: Metrics,
                 heartbeat_seconds: float) -> None:
        self.db = db
        self.ownership = ownership
        self.metrics = metrics
        self.heartbeat_seconds = heartbeat_seconds
        self.rooms: defaultdict[str, set[Watcher]] = defaultdict(set)
        self._latest: dict[str, tuple[str, int]] = {}

    async def add(self, room_id: str, socket: Watcher) -> None:
        self.rooms[room_id].add(socket)
        self.metrics.sockets.labels(_kind(socket)).inc()
        await self.ownership.want(room_id)

    def remove(self, room_id: str, socket: Watcher) -> None:
        sockets = self.rooms.get(room_id)
        if sockets is None or socket not in sockets:
            return
        sockets.discard(socket)
        self.metrics.sockets.labels(_kind(socket)).dec()
        self.ownership.unwant(room_id)
        if not sockets:
            del self.rooms[room_id]
            self._latest.pop(room_id, None)

    def saw(self, room_id: str, game_id: str, seq: int) -> None:
        """A commit of the room reached this process."""
        known = self._latest.get(room_id)
        if known is None or known[0] != game_id or known[1] < seq:
            self._latest[room_id] = (game_id, seq)

    def latest(self, room_id: str) -> tuple[str, int] | None:
        return self._latest.get(room_id)

    async def beat(self) -> None:
        """Reads every watched room's current game and seq, and sends each socket its beat."""
        rooms = list(self.rooms)
        async with self.db.session() as db:
            for start in range(0, len(rooms), CHUNK):
                rows = await db.execute(
                    select(Room.id, Game.id, Game.seq)
                    .join(Game, Game.id == Room.current_game_id)
                    .where(Room.id.in_(rooms[start:start + CHUNK]))
                )
                for room_id, game_id, seq in rows:
                    self._latest[room_id] = (game_id, seq)
        for room_id, sockets in list(self.rooms.items()):
            found = self._latest.get(room_id)
            if found is not None:
                for socket in list(sockets):
                    socket.heartbeat(*found)

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            if self.rooms:
                with contextlib.suppress(Exception):
                    await self.beat()


def _kind(socket: Watcher) -> str:
    return "spectator" if socket.viewer == "spectator" else "player"
