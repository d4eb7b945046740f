"""Fan-out of committed changes to the sockets watching a room.

The command path publishes one JSON-ready message per commit; every listener of the room (a
socket's connection) receives it and filters it for its own viewer. Messages carry everything a
connection needs (events with their private parts, the per-side views and legal actions), so
:class:`~app.games.redis_broadcast.RedisBroadcaster` can carry them between processes by
serialising them. Delivery to this process's own listeners comes first and cannot fail; the
copy to other processes may be lost, and connections repair any gap from the database (they
see it by sequence number, at the latest at the next heartbeat).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

Message = dict[str, Any]
NoticeHandler = Callable[[Message], None]
"""Called with every notice any process publishes (e.g. device sessions that ended)."""
log = logging.getLogger(__name__)


class Listener(Protocol):
    def on_room_message(self, message: Message) -> None:
        """Takes a room's message without waiting (a connection queues it for its writer, or
        sends it at once when the writer is idle)."""


class Broadcaster(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, room_id: str, message: Message) -> None:
        """Delivers ``message`` to this process's listeners of the room at once, then to the
        other processes'. Never raises for the second part: the commit is done, and a lost
        copy is repaired by the listeners."""
        ...

    async def subscribe(self, room_id: str, listener: Listener) -> None:
        """From when this returns, ``listener`` hears every message of the room published by
        any process (the first listener of a room in a process subscribes its channel)."""
        ...

    async def unsubscribe(self, room_id: str, listener: Listener) -> None: ...

    async def publish_notice(self, notice: Message) -> None:
        """Tells every process (this one included) something that is no room's: the device
        sessions that just ended, so each closes their sockets."""
        ...

    def on_notice(self, handler: NoticeHandler) -> None: ...


class LocalRooms:
    """This process's listeners per room, and the notice handlers."""

    def __init__(self) -> None:
        self.rooms: defaultdict[str, set[Listener]] = defaultdict(set)
        self._notice_handlers: list[NoticeHandler] = []

    def add(self, room_id: str, listener: Listener) -> bool:
        """Adds a listener; whether it is the room's first here."""
        listeners = self.rooms[room_id]
        listeners.add(listener)
        return len(listeners) == 1

    def remove(self, room_id: str, listener: Listener) -> bool:
        """Removes a listener; whether the room has none left here."""
        listeners = self.rooms.get(room_id)
        if listeners is None:
            return False
        listeners.discard(listener)
        if listeners:
            return False
        del self.rooms[room_id]
        return True

    def deliver(self, room_id: str, message: Message) -> None:
        for listener in list(self.rooms.get(room_id, ())):
            listener.on_room_message(message)

    def on_notice(self, handler: NoticeHandler) -> None:
        self._notice_handlers.append(handler)

    def deliver_notice(self, notice: Message) -> None:
        for handler in self._notice_handlers:
            try:
                handler(notice)
            except Exception:  # one handler's bug must not keep the notice from the others
                log.exception("notice handler failed")

    def listener_count(self, room_id: str) -> int:
        return len(self.rooms.get(room_id, ()))


class InProcessBroadcaster:
    """One process: listeners are held in :class:`LocalRooms`."""

    def __init__(self) -> None:
        self.local = LocalRooms()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def publish(self, room_id: str, message: Message) -> None:
        self.local.deliver(room_id, message)

    async def subscribe(self, room_id: str, listener: Listener) -> None:
        self.local.add(room_id, listener)

    async def unsubscribe(self, room_id: str, listener: Listener) -> None:
        self.local.remove(room_id, listener)

    async def publish_notice(self, notice: Message) -> None:
        self.local.deliver_notice(notice)

    def on_notice(self, handler: NoticeHandler) -> None:
        self.local.on_notice(handler)
