"""``/ws/rooms/{room_id}``: the live game stream (protocol in docs/protocol.md).

The handshake is dispatched here, ahead of FastAPI's router, not by an ``@router.websocket``
route. A socket lives as long as its viewer watches, and everything the route layers build
for it lives as long: FastAPI's exit stacks, the exception wrappers around ``send``, the
router's frames. Measured, that was 11.5 KB of every idle spectator's socket, and more wrapper
calls on every frame sent (docs/benchmarks.md, issue 12). The socket needs none of it:
it takes no dependencies, and the connection handles its own errors and closes. What is in
front of this dispatch still applies (the edge check of :mod:`app.middleware`, and the server
error middleware); any other WebSocket path goes on to the router, which refuses it.
"""

from __future__ import annotations

from typing import Any

from starlette.websockets import WebSocket

from app.realtime.connection import RoomConnection

PREFIX = "/ws/rooms/"


def room_of(scope: dict[str, Any]) -> str | None:
    """The room a WebSocket handshake asks for, or None when its path is not a room's: the
    same paths the route ``/ws/rooms/{room_id}`` matched (one non-empty segment)."""
    path: str = scope["path"]
    root = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root):]
    if not path.startswith(PREFIX):
        return None
    room_id = path[len(PREFIX):]
    return room_id if room_id and "/" not in room_id else None


class RoomSockets:
    """ASGI middleware that serves the room sockets itself and hands all else on."""

    PATH = PREFIX + "{room_id}"
    """The socket route it serves, as the route table would name it (the authorization
    matrix reads it: tests/test_authorization.py)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            room_id = room_of(scope)
            if room_id is not None:
                ws = WebSocket(scope, receive, send)
                await RoomConnection(scope["app"].state.ctx, ws, room_id).run()
                return
        await self.app(scope, receive, send)
