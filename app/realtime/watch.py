"""The rooms this process has sockets for: their latest sequence numbers, and the heartbeat.

Every ``WS_HEARTBEAT_SECONDS`` one query reads the current game and its ``seq`` for every room
with a socket here, and each socket is sent a ``heartbeat`` carrying them (``pong`` carries
them too), the room's spectator count (``app.realtime.headcount``) and who of each side is
connected (the seats' ``last_seen_at``, so the browser needs no presence poll). A socket
whose stream is behind catches up from the database by itself, and a client that sees a
larger number than it holds asks for a sync: a notification lost after a commit (Redis down,
a dropped message) is repaired within one heartbeat even when nothing else happens in the room
(design note 7).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from typing import Any, Protocol

from sqlalchemy import select

from app.accounts.models import Account
from app.db import Database, utcnow
from app.games.hold import seen_seq
from app.games.models import Game
from app.games.ownership import Ownership
from app.metrics import Metrics
from app.realtime.headcount import Headcount, LocalHeadcount
from app.rooms.models import Room
from app.rooms.presence import seat_connected
from app.seats.models import Seat

log = logging.getLogger(__name__)
CHUNK = 500
SLICE_SOCKETS = 100
"""Heartbeats handed to the sockets' writers at once. Sent all together, 500 human-paced games'
2,500 sockets made one burst of frames every beat that held each command arriving meanwhile
behind it for a quarter of a second (the p99 of a human-pace run)."""
SPREAD = 0.5
"""The share of the heartbeat period the slices are spread over."""
TELL_ANYWAY_EVERY = 3
"""Every this many beats a socket is sent its heartbeat even when it would tell the client
nothing new. In between, a socket already sent the room's seq and the same spectator count
and seats is sent nothing: at human pace the beats were a third of all frames (a thousand a
second for a thousand games), and each one costs a write and a wake-up of its writer. The
beat still checks every socket's stream each time; only the frame waits. A client that lost
frames on their way (the case the heartbeat's ``seq`` is for) is told within this many beats."""


class Watcher(Protocol):
    @property
    def viewer(self) -> str: ...

    def heartbeat(self, game_id: str, seq: int, room: dict[str, Any],
                  tell_anyway: bool = True) -> None:
        """``room``: ``spectators`` (the count) and ``seats`` (who sits where, connected or
        not), shared by the room's sockets. Without ``tell_anyway`` the socket may send
        nothing if its client already knows all of it (see :data:`TELL_ANYWAY_EVERY`)."""
        ...


class RoomWatch:
    def __init__(self, db: Database, ownership: Ownership, metrics: Metrics,
                 heartbeat_seconds: float, headcount: Headcount | None = None,
                 presence_seconds: float = 2.0) -> None:
        self.db = db
        self.presence_seconds = presence_seconds
        self.headcount = headcount or LocalHeadcount()
        self.ownership = ownership
        self.metrics = metrics
        self.heartbeat_seconds = heartbeat_seconds
        self.rooms: defaultdict[str, set[Watcher]] = defaultdict(set)
        self._latest: dict[str, tuple[str, int]] = {}
        self._beats = 0

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
        """Reads every watched room's current game and seq, and sends each socket its beat, in
        slices of :data:`SLICE_SOCKETS` spread over part of the period."""
        rooms = list(self.rooms)
        seats: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
        now = utcnow()
        async with self.db.session() as db:
            for start in range(0, len(rooms), CHUNK):
                chunk = rooms[start:start + CHUNK]
                rows = await db.execute(
                    select(Room.id, Game.id, Game.seq, Game.hold)
                    .join(Game, Game.id == Room.current_game_id)
                    .where(Room.id.in_(chunk))
                )
                for room_id, game_id, seq, hold in rows:
                    # A pass held until its time is not there yet.
                    self._latest[room_id] = (game_id, seen_seq(seq, hold, now))
                seated = await db.execute(
                    select(Seat.room_id, Account.name, Seat.side, Seat.last_seen_at)
                    .join(Account, Account.id == Seat.account_id)
                    .where(Seat.room_id.in_(chunk), Seat.left_at.is_(None))
                    .order_by(Seat.room_id, Seat.id)
                )
                for room_id, name, side, seen in seated:
                    seats[room_id].append({"name": name, "side": side, "connected":
                                           seat_connected(seen, now, self.presence_seconds)})
        local = {room_id: sum(1 for s in sockets if s.viewer == "spectator")
                 for room_id, sockets in self.rooms.items()}
        try:
            watching = await self.headcount.exchange(local)
        except Exception:  # Redis away: this process's own count is the best known
            watching = local
        self._beats += 1
        tell_anyway = (self._beats - 1) % TELL_ANYWAY_EVERY == 0  # the first beat, then every Nth
        total = sum(len(sockets) for sockets in self.rooms.values())
        pause = self.heartbeat_seconds * SPREAD / max(1, -(-total // SLICE_SOCKETS))
        handed = 0
        for room_id, sockets in list(self.rooms.items()):
            found = self._latest.get(room_id)
            if found is not None:
                if handed >= SLICE_SOCKETS:  # between slices only: none after the last
                    handed = 0
                    await asyncio.sleep(pause)
                room = {"spectators": watching.get(room_id, local.get(room_id, 0)),
                        "seats": seats.get(room_id, [])}
                for socket in list(sockets):
                    socket.heartbeat(*found, room, tell_anyway)
                handed += len(sockets)

    async def run_forever(self) -> None:
        spent = 0.0
        while True:
            await asyncio.sleep(max(0.0, self.heartbeat_seconds - spent))
            started = time.monotonic()
            if self.rooms:
                with contextlib.suppress(Exception):
                    await self.beat()
            spent = time.monotonic() - started


def _kind(socket: Watcher) -> str:
    return "spectator" if socket.viewer == "spectator" else "player"
