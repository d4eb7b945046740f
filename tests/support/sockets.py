"""A socket that keeps what it is sent, and a bounded wait, for tests of a connection's writer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import orjson
from starlette.websockets import WebSocketState


class RecordingSocket:
    """Stands in for Starlette's ``WebSocket``: every frame sent, parsed, in order."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(orjson.loads(text))


async def until(condition: Callable[[], bool]) -> None:
    """Lets the loop run until ``condition`` holds: a bug that never lets it fails the test
    within seconds instead of hanging it."""

    async def turns() -> None:
        while not condition():
            await asyncio.sleep(0)

    await asyncio.wait_for(turns(), 5)
