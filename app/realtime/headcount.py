"""How many spectators watch each room, over every process.

Each process knows its own sockets; the heartbeat (``app.realtime.watch``) adds the other
processes' counts through Redis when several processes share the rooms: a hash per room, one
field per process holding ``"<count> <unix time>"``, rewritten every heartbeat. A field older
than three heartbeats belongs to a process that stopped and is dropped, so a dead process's
spectators vanish within 15 s. One pipelined round trip per heartbeat for all of a process's
rooms.
"""

from __future__ import annotations

import time
from typing import Protocol

from redis.asyncio import Redis


class Headcount(Protocol):
    async def exchange(self, local: dict[str, int]) -> dict[str, int]:
        """This process's spectators per room in, every process's out."""
        ...


class LocalHeadcount:
    """One process: its own count is the count."""

    async def exchange(self, local: dict[str, int]) -> dict[str, int]:
        return dict(local)


class RedisHeadcount:
    def __init__(self, url: str, prefix: str, process_id: str, heartbeat_seconds: float) -> None:
        self._redis: Redis = Redis.from_url(url)
        self._prefix = f"{prefix}watching:"
        self._me = process_id
        self._stale = 3 * heartbeat_seconds

    async def exchange(self, local: dict[str, int]) -> dict[str, int]:
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            for room_id, count in local.items():
                key = self._prefix + room_id
                pipe.hset(key, self._me, f"{count} {now:.3f}")
                pipe.expire(key, int(self._stale) + 1)
                pipe.hgetall(key)
            replies = await pipe.execute()
        totals: dict[str, int] = {}
        for room_id, fields in zip(local, replies[2::3], strict=True):
            total = 0
            for value in fields.values():
                count, _, stamp = value.decode().partition(" ")
                if now - float(stamp or 0) <= self._stale:
                    total += int(count)
            totals[room_id] = total
        return totals
