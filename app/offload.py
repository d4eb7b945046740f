"""CPU-bound work a request needs (a game's box score, play-by-play, replay states), run in a
worker thread so the event loop keeps answering every socket meanwhile.

A thread does not add CPU, but the interpreter hands the loop its turn every few milliseconds
(``sys.getswitchinterval``), where a computation run on the loop would hold it to the end. At
most ``limit`` such computations run at once per process; the rest wait their turn, so a flood
of them costs queueing, not memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import orjson
from fastapi.responses import Response

P = ParamSpec("P")
T = TypeVar("T")


class CpuWork:
    def __init__(self, limit: int = 2) -> None:
        self._gate = asyncio.Semaphore(limit)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        async with self._gate:
            return await asyncio.to_thread(fn, *args, **kwargs)

    async def json(self, fn: Callable[P, Any], *args: P.args, **kwargs: P.kwargs) -> Response:
        """``fn``'s result as a JSON response, encoded in the worker too: a game's record is
        tens of kilobytes, and encoding it on the loop would hold the loop as long."""

        def encoded() -> bytes:
            return orjson.dumps(fn(*args, **kwargs), option=orjson.OPT_NON_STR_KEYS)

        return Response(await self.run(encoded), media_type="application/json")
