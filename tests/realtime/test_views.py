"""The room sockets are served ahead of FastAPI's router, for exactly the route's paths."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.realtime import views
from tests.support.live import LiveServer


def test_room_of_takes_the_paths_the_route_took() -> None:
    def scope(path: str, root: str = "") -> dict[str, Any]:
        return {"type": "websocket", "path": path, "root_path": root}

    assert views.room_of(scope("/ws/rooms/abc")) == "abc"
    assert views.room_of(scope("/app/ws/rooms/abc", "/app")) == "abc"
    for path in ("/ws/rooms/", "/ws/rooms", "/ws/rooms/a/b", "/ws/rooms/a/", "/ws/other/a",
                 "/api/rooms/a", "/"):
        assert views.room_of(scope(path)) is None, path


async def test_a_room_socket_never_reaches_the_inner_app(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[str] = []
    handed_on: list[str] = []

    class Connection:
        def __init__(self, ctx: Any, ws: Any, room_id: str) -> None:
            self.room_id = room_id

        async def run(self) -> None:
            served.append(self.room_id)

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        handed_on.append(scope["path"])

    monkeypatch.setattr(views, "RoomConnection", Connection)
    app = type("App", (), {"state": type("State", (), {"ctx": object()})()})()
    dispatch = views.RoomSockets(inner)
    for kind, path in (("websocket", "/ws/rooms/r1"), ("websocket", "/ws/rooms/r1/x"),
                       ("http", "/ws/rooms/r2"), ("websocket", "/ws/elsewhere")):
        await dispatch({"type": kind, "path": path, "app": app, "headers": []}, None, None)
    assert served == ["r1"]
    assert handed_on == ["/ws/rooms/r1/x", "/ws/rooms/r2", "/ws/elsewhere"]


async def test_a_socket_on_no_room_path_is_refused(live: LiveServer) -> None:
    base = live.url.replace("http", "ws", 1)
    for path in ("/ws/rooms/a/b", "/ws/rooms/", "/ws/nowhere"):
        with pytest.raises(InvalidStatus) as refused:
            async with connect(base + path):
                pass
        assert refused.value.response.status_code == 403, path
