"""Seats say whether they are connected; the WebSocket origin allowlist follows ``public_url``."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.bots.client import ws_url
from app.engine_catalog import EngineCatalog
from app.realtime.connection import SESSION_ENDED, handshake_origin
from app.settings import Settings, origin_of
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_room_seats_say_who_is_connected(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        room = (await table.http.get(f"/api/rooms/{table.room_id}")).json()
        assert {s["side"]: s["connected"] for s in room["seats"]} == {"home": True, "away": True}
        await table.client("away").close()
        # heartbeat 0.2 s in tests: a seat unseen for 3 heartbeats + 1 s is gone
        await asyncio.sleep(3 * 0.2 + 1 + 0.6)
        room = (await table.http.get(f"/api/rooms/{table.room_id}")).json()
        assert {s["side"]: s["connected"] for s in room["seats"]} == {"home": True, "away": False}
        presence = (await table.http.get(f"/api/rooms/{table.room_id}/presence")).json()
        assert {s["side"]: s["connected"] for s in presence["seats"]} == {
            "home": True, "away": False,
        }
    finally:
        await table.close()


def test_the_origin_of_public_url_is_always_allowed() -> None:
    assert origin_of("https://Bob.Example.com/") == "https://bob.example.com"
    assert origin_of("https://bob.example.com:443/play") == "https://bob.example.com"
    assert origin_of("http://bob.example.com:8080") == "http://bob.example.com:8080"
    assert origin_of("http://[::1]:8000/") == "http://[::1]:8000"
    assert origin_of("not a url") is None
    settings = Settings(public_url="https://bob.example.com/", ws_allowed_origins=[])
    assert settings.allowed_origins() == {"https://bob.example.com"}
    settings = Settings(public_url="https://bob.example.com")
    assert settings.allowed_origins() == {
        "https://bob.example.com", "http://127.0.0.1:8000", "http://localhost:8000",
    }


async def test_a_browser_on_the_public_url_may_connect(
    database_url: str, catalog: EngineCatalog
) -> None:
    server = LiveServer(database_url, catalog, ws_allowed_origins=["http://other.example"])
    server.start()
    try:
        table = await open_table(server.url, spectators=0)
        try:
            url = ws_url(server.url, table.room_id)
            # LiveServer sets public_url to its own address; it is not in the list above.
            async with connect(url, origin=server.url) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "hello"}))
                assert json.loads(await ws.recv())["type"] == "welcome"
            async with connect(url, origin="http://other.example") as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "hello"}))
                assert json.loads(await ws.recv())["type"] == "welcome"
            with pytest.raises(InvalidStatus):
                async with connect(url, origin="http://localhost:8000"):  # type: ignore[arg-type]
                    pass
        finally:
            await table.close()
    finally:
        server.stop()


async def test_a_socket_the_server_closes_is_forgotten(live: LiveServer) -> None:
    """The server ends the socket (its session ended: close 4001), not the client: the reader,
    waiting on the client, must still end, so that the seat stops being kept connected."""
    table = await open_table(live.url, spectators=0)
    try:
        out = await table.http.post("/api/auth/logout", headers=table.auth("away"))
        assert out.status_code == 204
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(5):
                while True:
                    await table.client("away").ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SESSION_ENDED
        # heartbeat 0.2 s in tests: a seat unseen for 3 heartbeats + 1 s is gone
        await asyncio.sleep(3 * 0.2 + 1 + 0.6)
        room = (await table.http.get(f"/api/rooms/{table.room_id}")).json()
        assert {s["side"]: s["connected"] for s in room["seats"]} == {"home": True, "away": False}
    finally:
        await table.close()


def test_the_origin_is_read_from_the_handshake_as_sent() -> None:
    assert handshake_origin({"headers": [(b"host", b"h"), (b"origin", b"https://a.example")]}) \
        == "https://a.example"
    assert handshake_origin({"headers": [(b"host", b"h")]}) is None
