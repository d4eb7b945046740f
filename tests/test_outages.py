"""While the database is unreachable: REST answers 503 in the JSON shape with Retry-After, a new
socket is closed with 1013 and a reason, a command is refused (``unavailable``) and writes
nothing; when the database is back the same server answers again, without a restart."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.bots.client import ws_url
from app.engine_catalog import EngineCatalog
from app.migrate import upgrade_to_head
from tests.support.databases import _in_thread, backends, postgres_database
from tests.support.live import LiveServer
from tests.support.table import open_table
from tests.support.tcp_proxy import TcpProxy


def _unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "unavailable"
    assert int(response.headers["Retry-After"]) > 0


async def _refused_socket(url: str, room_id: str) -> None:
    async with connect(ws_url(url, room_id)) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert "try again" in closed.value.rcvd.reason


async def _while_down(server: LiveServer, room_id: str) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        _unavailable(await http.get(f"/api/rooms/{room_id}"))
        _unavailable(await http.post("/api/auth/guest", json={}))
        _unavailable(await http.get("/api/rooms"))
        health = await http.get("/healthz")
        assert health.status_code == 503
        await _refused_socket(server.url, room_id)


async def test_postgres_outage_and_recovery(catalog: EngineCatalog) -> None:
    if "postgres" not in backends():
        pytest.skip("TEST_DATABASE leaves PostgreSQL out")
    with postgres_database() as url:
        await _postgres_outage(url, catalog)


async def _postgres_outage(url: str, catalog: EngineCatalog) -> None:
    parts = urlsplit(url)
    proxy = await TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432).start()
    proxied = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}"))
    server = LiveServer(proxied, catalog).start()
    try:
        table = await open_table(server.url, spectators=0)
        try:
            states = await table.latest_states()
            mover = next(s for s, m in states.items() if m["legal_actions"])
            await proxy.cut()
            reply = await table.act(mover, states[mover]["legal_actions"][0], command="during")
            assert reply["type"] == "error" and reply["code"] == "unavailable"
            await _while_down(server, table.room_id)
            await proxy.restore()
            summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
            assert summary["seq"] == table.seq  # nothing half-written
            reply = await table.act(mover, states[mover]["legal_actions"][0], command="during")
            assert reply["type"] == "ack" and reply["duplicate"] is False
            assert (await table.http.post("/api/auth/guest", json={})).status_code == 201
        finally:
            await table.close()
    finally:
        server.stop()
        await proxy.cut()


async def test_sqlite_file_unreachable_and_back(tmp_path: Path, catalog: EngineCatalog) -> None:
    folder = tmp_path / "gone"
    url = f"sqlite+aiosqlite:///{folder / 'bob.sqlite3'}"
    server = LiveServer(url, catalog).start()  # the folder does not exist: no file can open
    try:
        await _while_down(server, "some-room")
        folder.mkdir()
        _in_thread(lambda: upgrade_to_head(url))
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            assert (await http.post("/api/auth/guest", json={})).status_code == 201
            assert (await http.get("/healthz")).status_code == 200
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
