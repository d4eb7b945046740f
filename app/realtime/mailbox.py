"""A socket writer's queue, at a tenth of the size of ``asyncio.Queue``.

Every socket has a writer and a queue (:mod:`app.realtime.connection`), and most sockets are
spectators who sit idle. An empty ``asyncio.Queue`` holds four deques (its items, its getters,
its putters, and its ``join`` event's waiters), about 3 KB a socket by tracemalloc. That is a
quarter of what our code adds to the stack's own cost of an idle socket (docs/benchmarks.md,
"2026-12-05: what an idle socket costs"). The writer's queue needs less than that: one reader
(the writer task), writers in the same event loop, no bound (the connection bounds what it
puts) and no ``join``. So a list, and a future only while the reader waits.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def reader_waiting(self) -> bool:
        """The reader is waiting for an item and nothing is queued: whatever it would do with
        the next item, nothing of it is under way."""
        return self._waiter is not None and not self._waiter.done() and not self._items

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one. One reader at a time: a second would steal the
        first one's wake-up."""
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("a Mailbox has one reader")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)
