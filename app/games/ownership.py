"""Which process owns a live room (design note 8): its timers run there and nowhere else.

With Redis, a room's owner holds a lease, the key ``<prefix>owner:<room id>`` set to its
process id with a time to live (``ROOM_LEASE_SECONDS``, 3 s), renewed three times a lease. A
process asks for a room when a socket of the room connects to it (the proxy sends a room's
sockets to one process, so that is normally the only one asking), and adopts a room with a due
deadline that nobody owns (its owner died, or all its sockets are gone): the timer runner scans
for those every second. So when an owner is killed, another process owns its rooms within a
lease and a scan, timers included, and its clients resync by sequence number when they
reconnect. A process that serves a room it does not own still applies commands: the database's
version check is what keeps a move from being applied twice, whoever owns the room.

Without Redis there is one process, and it owns every room (:class:`LocalOwnership`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Protocol

from redis.asyncio import Redis

from app.metrics import Metrics

log = logging.getLogger(__name__)
KEEP_AFTER_USE_SECONDS = 60.0
"""An owned room nobody here watches is kept this long after its last timer, then let go."""

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class Ownership(Protocol):
    everything: bool
    """Owns every room (one process): callers need not filter by room."""
    process_id: str
    """This process's name in the leases (``/healthz`` shows it)."""

    def owns(self, room_id: str) -> bool: ...

    def owned(self) -> set[str]: ...

    async def want(self, room_id: str) -> bool:
        """A socket of the room is here: own it if nobody does; whether this process does."""
        ...

    def unwant(self, room_id: str) -> None:
        """The room's last socket here closed."""

    def used(self, room_id: str) -> None:
        """The timers acted on the room: keep it a while even if no socket watches it."""

    async def adopt(self, room_ids: set[str]) -> set[str]:
        """Takes the rooms nobody owns among ``room_ids``; returns the ones taken."""
        ...

    async def run_forever(self) -> None: ...

    async def close(self) -> None: ...


class LocalOwnership:
    everything = True

    def __init__(self) -> None:
        self.process_id = uuid.uuid4().hex

    def owns(self, room_id: str) -> bool:
        return True

    def owned(self) -> set[str]:
        return set()

    async def want(self, room_id: str) -> bool:
        return True

    def unwant(self, room_id: str) -> None:
        return None

    def used(self, room_id: str) -> None:
        return None

    async def adopt(self, room_ids: set[str]) -> set[str]:
        return set(room_ids)

    async def run_forever(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisOwnership:
    everything = False

    def __init__(self, url: str, prefix: str, lease_seconds: float,
                 metrics: Metrics | None = None) -> None:
        self._redis: Redis = Redis.from_url(url)
        self._prefix = f"{prefix}owner:"
        self._lease_ms = int(lease_seconds * 1000)
        self.process_id = self._me = uuid.uuid4().hex
        self._metrics = metrics or Metrics()
        self._owned: set[str] = set()
        self._wanted: dict[str, int] = {}
        """Rooms with sockets here, and how many."""
        self._last_used: dict[str, float] = {}
        self._renew = self._redis.register_script(_RENEW)
        self._release = self._redis.register_script(_RELEASE)

    def owns(self, room_id: str) -> bool:
        return room_id in self._owned

    def owned(self) -> set[str]:
        return set(self._owned)

    async def want(self, room_id: str) -> bool:
        self._wanted[room_id] = self._wanted.get(room_id, 0) + 1
        if room_id not in self._owned:
            await self._take(room_id)
        return room_id in self._owned

    def unwant(self, room_id: str) -> None:
        count = self._wanted.get(room_id, 0) - 1
        if count > 0:
            self._wanted[room_id] = count
        else:
            self._wanted.pop(room_id, None)
            self._last_used.setdefault(room_id, time.monotonic())

    def used(self, room_id: str) -> None:
        self._last_used[room_id] = time.monotonic()

    async def adopt(self, room_ids: set[str]) -> set[str]:
        taken = set()
        for room_id in room_ids - self._owned:
            if await self._take(room_id):
                taken.add(room_id)
                self.used(room_id)
        return taken

    async def _take(self, room_id: str) -> bool:
        try:
            won = await self._redis.set(self._prefix + room_id, self._me, nx=True,
                                        px=self._lease_ms)
        except Exception as exc:
            log.warning("lease for room %s not taken: %r", room_id, exc)
            return False
        if won:
            self._owned.add(room_id)
            self._metrics.lease_moves.labels("gained").inc()
            self._metrics.rooms_owned.set(len(self._owned))
            log.info("owning room %s", room_id, extra={"room_id": room_id})
        return bool(won)

    async def renew(self) -> None:
        """Renews the leases still worth holding, lets the others go, and asks again for
        wanted rooms whose owner may have died.

        Every renewal goes in one pipelined round trip: one round trip a room, awaited in turn,
        took longer than the lease itself with some hundreds of rooms on a busy event loop, and
        the process then lost rooms it was serving (and their timers) every few seconds."""
        now = time.monotonic()
        kept_rooms = []
        for room_id in list(self._owned):
            idle = room_id not in self._wanted and (
                now - self._last_used.get(room_id, now) > KEEP_AFTER_USE_SECONDS)
            if idle:
                await self._let_go(room_id)
            else:
                kept_rooms.append(room_id)
        if kept_rooms:
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for room_id in kept_rooms:
                        await self._renew(keys=[self._prefix + room_id],
                                          args=[self._me, self._lease_ms], client=pipe)
                    answers = await pipe.execute(raise_on_error=False)
            except Exception as exc:
                log.warning("leases not renewed: %r", exc)
                answers = []  # Redis away: they expire by themselves if this lasts
            for room_id, kept in zip(kept_rooms, answers, strict=False):
                if isinstance(kept, Exception):
                    log.warning("lease for room %s not renewed: %r", room_id, kept)
                elif not kept:
                    self._owned.discard(room_id)
                    self._metrics.lease_moves.labels("lost").inc()
                    log.warning("lost the lease of room %s", room_id,
                                extra={"room_id": room_id})
        for room_id in list(self._wanted):
            if room_id not in self._owned:
                await self._take(room_id)
        self._metrics.rooms_owned.set(len(self._owned))

    async def _let_go(self, room_id: str) -> None:
        with contextlib.suppress(Exception):
            await self._release(keys=[self._prefix + room_id], args=[self._me])
        self._owned.discard(room_id)
        self._last_used.pop(room_id, None)
        self._metrics.lease_moves.labels("released").inc()

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self._lease_ms / 3000)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease renewal failed")

    async def close(self) -> None:
        """Lets every room go (a clean shutdown hands them over at once)."""
        for room_id in list(self._owned):
            await self._let_go(room_id)
        await self._redis.aclose()
