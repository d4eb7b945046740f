"""Fan-out across processes through Redis pub/sub.

Each process publishes a commit's message to channel ``<prefix><room id>`` and listens to
``<prefix>*`` with one pattern subscription made at start-up, so a socket in any process hears
every commit at once and no subscription can miss a message while being set up. Delivery to
the process's own sockets reuses :class:`InProcessBroadcaster`. Pub/sub may drop or reorder
messages between processes; connections detect gaps by sequence number and read the missing
events from the database, so that costs latency, never correctness.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from redis.asyncio import Redis

from app.games.broadcast import InProcessBroadcaster, Message, NoticeHandler, Subscription

log = logging.getLogger(__name__)


class RedisBroadcaster:
    def __init__(
        self, url: str, prefix: str = "bob:room:", queue_size: int = 1000,
        notices: str = "bob:notices",
    ) -> None:
        self._redis: Redis = Redis.from_url(url)
        self._prefix = prefix
        self._notices = notices
        self._local = InProcessBroadcaster(queue_size)
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), 10)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        await self._redis.aclose()

    async def publish(self, room_id: str, message: Message) -> None:
        await self._redis.publish(self._prefix + room_id, orjson.dumps(message))

    def subscribe(self, room_id: str) -> Subscription:
        return self._local.subscribe(room_id)

    async def publish_notice(self, notice: Message) -> None:
        await self._redis.publish(self._notices, orjson.dumps(notice))

    def on_notice(self, handler: NoticeHandler) -> None:
        self._local.on_notice(handler)

    async def _listen(self) -> None:
        """Keeps one pattern subscription alive, resubscribing after a lost connection."""
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.psubscribe(self._prefix + "*")
                await pubsub.subscribe(self._notices)
                self._ready.set()
                async for raw in pubsub.listen():
                    self._dispatch(raw)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis subscription lost; resubscribing")
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _dispatch(self, raw: dict[str, Any]) -> None:
        if raw.get("type") == "message":
            self._local.deliver_notice(orjson.loads(raw["data"]))
            return
        if raw.get("type") != "pmessage":
            return
        channel = raw["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        room_id = channel[len(self._prefix):]
        self._local.deliver(room_id, orjson.loads(raw["data"]))
