"""A session that ends, ends everywhere at once: its sockets close (4001) in every process, no
command of it is applied once the end has committed, and 3 devices stay 3 under any load."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import delete, func, select
from websockets.exceptions import ConnectionClosed

from app.accounts.models import DeviceSession
from app.bots.client import open_socket
from app.db import Database
from app.engine_catalog import EngineCatalog
from app.realtime.connection import SESSION_ENDED
from tests.support.live import LiveServer
from tests.support.table import Client, open_table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _closed_with(client: Client, timeout: float = 5.0) -> int | None:
    """Reads until the server closes the socket; its close code."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                await client.ws.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def _register(http: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, str]]:
    body = {"name": f"dev{uuid.uuid4().hex[:12]}", "password": "pw-123456"}
    created = await http.post("/api/auth/register", json=body)
    assert created.status_code == 201, created.text
    return created.json(), body


async def test_logout_closes_the_sessions_sockets_and_stops_its_commands(
    live: LiveServer,
) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        second = await table.connect(mover)  # the same session on a second tab
        out = await table.http.post("/api/auth/logout", headers=table.auth(mover))
        assert out.status_code == 204
        for client in (table.client(mover), second):
            assert await _closed_with(client) == SESSION_ENDED
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == table.seq
        # The token is dead for a new socket too.
        with pytest.raises(RuntimeError, match="bad_token"):
            await open_socket(live.url, table.room_id, table.token(mover))
    finally:
        await table.close()


async def test_no_command_is_applied_after_the_session_ends(live: LiveServer) -> None:
    """The end is committed without any notice (as if it were lost): the command path itself
    refuses, on the held-game path as on a fresh read."""
    table = await open_table(live.url, spectators=0)
    database = Database(live.database_url)
    try:
        await table.step()  # this process now holds the game parsed
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        async with database.session() as db:
            await db.execute(delete(DeviceSession).where(
                DeviceSession.account_id == table.client(mover).welcome["account_id"]))
            await db.commit()
        reply = await table.act(mover, states[mover]["legal_actions"][0])
        assert reply["type"] == "error" and reply["code"] == "session_ended"
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == table.seq
        # Without the notice the sweep closes the socket within a heartbeat or two.
        assert await _closed_with(table.client(mover)) == SESSION_ENDED
    finally:
        await database.dispose()
        await table.close()


async def test_a_fourth_device_ends_the_first_ones_sockets(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        first, body = await _register(http)
        room = (await http.post("/api/rooms", json={"kind": "dice-duel", "side": "home"},
                                headers=bearer(first["token"]))).json()
        ws, _welcome = await open_socket(live.url, room["id"], first["token"])
        client = Client(ws, _welcome)
        for _ in range(3):
            login = await http.post("/api/auth/login", json=body)
            assert login.status_code == 200
        assert login.json()["ended_sessions"] == 1
        assert await _closed_with(client) == SESSION_ENDED


async def test_a_new_password_ends_the_other_sessions(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        first, body = await _register(http)
        other = (await http.post("/api/auth/login", json=body)).json()
        changed = await http.patch("/api/auth/me", json={"password": "new-pw-654321"},
                                   headers=bearer(first["token"]))
        assert changed.status_code == 200
        assert (await http.get("/api/auth/me", headers=bearer(other["token"]))).status_code == 401
        assert (await http.get("/api/auth/me", headers=bearer(first["token"]))).status_code == 200


async def test_logout_in_one_process_closes_sockets_in_another(
    fresh_database_url: str, catalog: EngineCatalog
) -> None:
    prefix = f"bob-test-{uuid.uuid4().hex[:8]}:"
    redis = {"redis_url": "redis://127.0.0.1:6379/0", "redis_channel_prefix": f"{prefix}room:",
             "redis_notice_channel": f"{prefix}notices"}
    # A long heartbeat: the socket must close because of the notice, not the sweep.
    first = LiveServer(fresh_database_url, catalog, presence_heartbeat_seconds=30, **redis)
    second = LiveServer(fresh_database_url, catalog, presence_heartbeat_seconds=30, **redis)
    first.start()
    second.start()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            account, _body = await _register(http)
            room = (await http.post("/api/rooms", json={"kind": "dice-duel", "side": "home"},
                                    headers=bearer(account["token"]))).json()
            ws, welcome = await open_socket(second.url, room["id"], account["token"])
            remote = Client(ws, welcome)
            assert (await http.post("/api/auth/logout",
                                    headers=bearer(account["token"]))).status_code == 204
            assert await _closed_with(remote, timeout=3) == SESSION_ENDED
    finally:
        first.stop()
        second.stop()


async def test_three_devices_hold_under_parallel_logins(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=60) as http:
        _first, body = await _register(http)
        database = Database(live.database_url)
        try:
            for _round in range(5):
                logins = await asyncio.gather(*(
                    http.post("/api/auth/login", json=body) for _ in range(12)
                ))
                assert all(r.status_code == 200 for r in logins), [r.text for r in logins]
                async with database.session() as db:
                    count = await db.scalar(
                        select(func.count()).select_from(DeviceSession).where(
                            DeviceSession.account_id == _first["account"]["id"])
                    )
                assert count == 3
                working = [
                    r for r in logins
                    if (await http.get("/api/auth/me", headers=bearer(r.json()["token"])))
                    .status_code == 200
                ]
                assert len(working) == 3
        finally:
            await database.dispose()
