"""Who is connected, kept in the database so every process (and a claim) can see it.

Each seat's ``last_seen_at`` is refreshed while one of its sockets is open: on connect, on
disconnect, and by one task per process every ``presence_heartbeat_seconds`` with a single
UPDATE for all its connected seats (not one write per socket). When that counts as
connected is :func:`app.rooms.presence.seat_connected`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter

from sqlalchemy import tuple_, update

from app.db import Database, utcnow
from app.seats.models import Seat

log = logging.getLogger(__name__)
CHUNK = 500


class Presence:
    def __init__(self, db: Database, heartbeat_seconds: float) -> None:
        self.db = db
        self.heartbeat_seconds = heartbeat_seconds
        self._open: Counter[tuple[str, str]] = Counter()

    async def connected(self, room_id: str, account_id: str) -> None:
        self._open[(room_id, account_id)] += 1
        await self.touch([(room_id, account_id)])

    async def disconnected(self, room_id: str, account_id: str) -> None:
        key = (room_id, account_id)
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]
        await self.touch([key])

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        now = utcnow()
        async with self.db.session() as db:
            for start in range(0, len(seats), CHUNK):
                chunk = seats[start : start + CHUNK]
                await db.execute(
                    update(Seat)
                    .where(tuple_(Seat.room_id, Seat.account_id).in_(chunk),
                           Seat.left_at.is_(None))
                    .values(last_seen_at=now)
                )
            await db.commit()

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            if self._open:
                with contextlib.suppress(Exception):
                    await self.touch(list(self._open))
