"""Fan-out across processes through Redis pub/sub, one channel per room.

A commit is delivered to this process's own listeners first (it cannot be lost on the way),
then published on ``<prefix><room id>`` tagged with this process's id, so the other processes
that have listeners of the room hear it too, and this one ignores its own copy. A process
subscribes a room's channel only while it has listeners of that room: it never decodes the
messages of rooms it does not serve. A publish that fails (Redis down) is logged and counted,
never reported to the client as a failed command: the commit stands, and other processes'
sockets repair the gap from the database at their next heartbeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from app.games.broadcast import Listener, LocalRooms, Message, NoticeHandler
from app.metrics import Metrics

log = logging.getLogger(__name__)


class RedisBroadcaster:
    def __init__(
        self, url: str, prefix: str = "bob:room:", notices: str = "bob:notices",
        metrics: Metrics | None = None,
    ) -> None:
        self._redis: Redis = Redis.from_url(url)
        self._prefix = prefix
        self._notices = notices
        self._origin = uuid.uuid4().hex
        self._own = b'{"o":"' + self._origin.encode() + b'"'
        """How this process's own messages begin (``orjson`` keeps the envelope's key order):
        the publisher is a subscriber of its room's channel too, and its copy is dropped
        before it is decoded."""
        self._metrics = metrics or Metrics()
        self.local = LocalRooms()
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._lock = asyncio.Lock()
        """Serialises (un)subscribing against the listener's resubscription."""

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
        # Encoded before local delivery, which caches each viewer's frames on the message:
        # those are this process's business and would only double what crosses Redis.
        payload = orjson.dumps({"o": self._origin, "m": message})
        self.local.deliver(room_id, message)
        try:
            await self._redis.publish(self._prefix + room_id, payload)
        except Exception as exc:
            self._metrics.publish_failures.inc()
            log.warning("publish to room %s failed: %r", room_id, exc,
                        extra={"room_id": room_id})

    async def subscribe(self, room_id: str, listener: Listener) -> None:
        if self.local.add(room_id, listener):
            async with self._lock:
                if self._pubsub is not None and self.local.listener_count(room_id):
                    with contextlib.suppress(Exception):  # resubscribed after a reconnect
                        await self._pubsub.subscribe(self._prefix + room_id)

    async def unsubscribe(self, room_id: str, listener: Listener) -> None:
        if self.local.remove(room_id, listener):
            async with self._lock:
                if self._pubsub is not None and not self.local.listener_count(room_id):
                    with contextlib.suppress(Exception):
                        await self._pubsub.unsubscribe(self._prefix + room_id)

    async def publish_notice(self, notice: Message) -> None:
        self.local.deliver_notice(notice)
        try:
            await self._redis.publish(self._notices,
                                      orjson.dumps({"o": self._origin, "m": notice}))
        except Exception as exc:  # the other processes' sweeps still find what ended
            self._metrics.publish_failures.inc()
            log.warning("notice publish failed: %r", exc)

    def on_notice(self, handler: NoticeHandler) -> None:
        self.local.on_notice(handler)

    async def _listen(self) -> None:
        """Keeps the subscriptions alive, subscribing again after a lost connection (and the
        rooms that gained listeners meanwhile)."""
        while True:
            pubsub = self._redis.pubsub()
            try:
                async with self._lock:
                    channels = [self._notices, *(self._prefix + r for r in self.local.rooms)]
                    await pubsub.subscribe(*channels)
                    self._pubsub = pubsub
                self._ready.set()
                async for raw in pubsub.listen():
                    self._dispatch(raw)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis subscription lost; subscribing again")
                await asyncio.sleep(0.5)
            finally:
                self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8

    def _dispatch(self, raw: dict[str, Any]) -> None:
        if raw.get("type") != "message" or raw["data"].startswith(self._own):
            return
        envelope = orjson.loads(raw["data"])
        if envelope.get("o") == self._origin:
            return  # delivered here before it was published
        channel = raw["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        if channel == self._notices:
            self.local.deliver_notice(envelope["m"])
        elif channel.startswith(self._prefix):
            self.local.deliver(channel[len(self._prefix):], envelope["m"])
