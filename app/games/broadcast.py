"""Fan-out of committed changes to the sockets watching a room.

The command path publishes one JSON-ready message per commit; every connection subscribed to the
room receives it and filters it for its own viewer. Messages carry everything a connection needs
(events with their private parts, the per-side views and legal actions), so a Redis pub/sub
implementation can replace :class:`InProcessBroadcaster` by serialising them: no caller assumes
that publisher and subscriber share a process, and connections tolerate lost, repeated or
reordered messages (they detect sequence gaps and read the missing events from the database).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

Message = dict[str, Any]
NoticeHandler = Callable[[Message], None]
"""Called with every notice any process publishes (e.g. device sessions that ended)."""
log = logging.getLogger(__name__)


class Subscription(Protocol):
    overflowed: bool

    async def get(self) -> Message: ...

    def close(self) -> None: ...


class Broadcaster(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, room_id: str, message: Message) -> None: ...

    def subscribe(self, room_id: str) -> Subscription: ...

    async def publish_notice(self, notice: Message) -> None:
        """Tells every process (this one included) something that is no room's: the device
        sessions that just ended, so each closes their sockets."""
        ...

    def on_notice(self, handler: NoticeHandler) -> None: ...


class _QueueSubscription:
    """A bounded queue; when a slow socket lets it fill, ``overflowed`` asks for a resync."""

    def __init__(self, owner: InProcessBroadcaster, room_id: str, size: int) -> None:
        self._owner = owner
        self._room_id = room_id
        self.queue: asyncio.Queue[Message] = asyncio.Queue(size)
        self.overflowed = False

    def offer(self, message: Message) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True

    async def get(self) -> Message:
        return await self.queue.get()

    def close(self) -> None:
        self._owner.unsubscribe(self._room_id, self)


class InProcessBroadcaster:
    """One process: subscribers are queues in a dict keyed by room."""

    def __init__(self, queue_size: int = 1000) -> None:
        self._queue_size = queue_size
        self._rooms: defaultdict[str, set[_QueueSubscription]] = defaultdict(set)
        self._notice_handlers: list[NoticeHandler] = []

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def publish(self, room_id: str, message: Message) -> None:
        self.deliver(room_id, message)

    def deliver(self, room_id: str, message: Message) -> None:
        for subscription in list(self._rooms.get(room_id, ())):
            subscription.offer(message)

    async def publish_notice(self, notice: Message) -> None:
        self.deliver_notice(notice)

    def on_notice(self, handler: NoticeHandler) -> None:
        self._notice_handlers.append(handler)

    def deliver_notice(self, notice: Message) -> None:
        for handler in self._notice_handlers:
            try:
                handler(notice)
            except Exception:  # one handler's bug must not keep the notice from the others
                log.exception("notice handler failed")

    def subscribe(self, room_id: str) -> Subscription:
        subscription = _QueueSubscription(self, room_id, self._queue_size)
        self._rooms[room_id].add(subscription)
        return subscription

    def unsubscribe(self, room_id: str, subscription: _QueueSubscription) -> None:
        subscribers = self._rooms.get(room_id)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._rooms[room_id]

    def subscriber_count(self, room_id: str) -> int:
        return len(self._rooms.get(room_id, ()))
