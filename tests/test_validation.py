"""Bad text and out-of-range numbers are typed errors at the edge, never a 500 or a drop: a lone
surrogate or a NUL in a body, a path or a query; numbers past what the database can hold; query
values outside a fixed set. On the socket the same text gets ``bad_message``."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.bots.client import ws_url
from app.validation import BadText, check_tree
from tests.support.live import LiveServer
from tests.support.table import open_table

SURROGATE = '"ab\\ud800c"'
NUL = '"ab\\u0000c"'


def test_check_tree_finds_bad_text_anywhere() -> None:
    for bad in ("a\x00", "\udfff", {"k\x00": 1}, [1, {"x": ["\ud800"]}]):
        with pytest.raises(BadText):
            check_tree(bad)
    check_tree({"name": "베테랑 유성철", "n": [1, 2.5, None, True]})
    deep: object = "x"
    for _ in range(40):
        deep = [deep]
    with pytest.raises(BadText):
        check_tree(deep)


def _is_error(response: httpx.Response, status: int, code: str | None = None) -> bool:
    body = response.json()
    assert response.status_code == status, (response.status_code, response.text)
    assert set(body) == {"error"} and isinstance(body["error"]["message"], str), body
    return code is None or body["error"]["code"] == code


async def test_rest_bad_text_and_numbers_are_422(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        session = (await http.post("/api/auth/guest", json={})).json()
        auth = {"Authorization": f"Bearer {session['token']}",
                "Content-Type": "application/json"}
        for bad in (SURROGATE, NUL):
            for path, body in (
                ("/api/auth/register", f'{{"name": {bad}, "password": "pw-123456"}}'),
                ("/api/auth/register", f'{{"name": "okname", "password": {bad}}}'),
                ("/api/auth/login", f'{{"name": "okname", "password": {bad}}}'),
                ("/api/auth/guest", f'{{"name": {bad}}}'),
                ("/api/rooms", f'{{"kind": {bad}}}'),
                ("/api/rooms", f'{{"kind": "dice-duel", "options": {{"x": {bad}}}}}'),
                ("/api/rooms", f'{{"kind": "dice-duel", "options": {{{bad}: 1}}}}'),
            ):
                response = await http.post(path, content=body.encode(), headers=auth)
                assert _is_error(response, 422, "invalid_request"), (path, body)
        for path in ("/api/rooms/ab%00c", "/api/games/x%00/events", "/api/players/a%00b",
                     "/api/rooms?kind=a%00", "/api/leaderboard?game=base-on-board&tier=%00",
                     "/rooms/%00"):
            assert _is_error(await http.get(path), 422, "bad_text"), path
        room = (await http.post("/api/rooms", json={"kind": "dice-duel", "side": "home"},
                                headers=auth)).json()
        for path in (
            "/api/games/nope/events?after=2147483648", "/api/games/nope/events?after=-1",
            "/api/games/nope/events?limit=999999999999999999999",
            "/api/analysis/win-probability?innings=4",
            "/api/analysis/run-expectancy?simulated=2000",
            f"/api/rooms?limit={2**70}", "/api/leaderboard?game=chess",
        ):
            assert _is_error(await http.get(path), 422), path
        # Unknown routes and methods keep the shape too.
        assert _is_error(await http.get("/api/nothing-here"), 404, "not_found")
        assert _is_error(await http.delete(f"/api/rooms/{room['id']}"), 405)


async def test_socket_bad_text_gets_bad_message_and_the_socket_stays(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        client = table.client(mover)
        legal = json.dumps(states[mover]["legal_actions"][0])
        for raw in (
            f'{{"type": "action", "id": {SURROGATE}, "action": {legal}}}',
            f'{{"type": "action", "id": {NUL}, "action": {legal}}}',
            f'{{"type": "action", "id": "ok", "action": {{"side": {SURROGATE}}}}}',
            '{"type": "sync", "last_seq": 2147483648}',
            '{"type": "action", "id": "big", "seq": 99999999999999999999, "action": {}}',
        ):
            await client.ws.send(raw)
            error = await client.error()
            assert error["code"] == "bad_message", (raw, error)
            assert "id" not in error or error["id"] in ("big", "ok")
        await client.send({"type": "ping"})
        assert (await client.next(lambda m: m["type"] == "pong"))["type"] == "pong"
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == table.seq
        # A NUL in the socket's address: refused before the handshake completes.
        with pytest.raises(InvalidStatus):
            async with connect(ws_url(live.url, "ab%00c")):
                pass
        # A surrogate in the hello token: an error, then the documented close (1008).
        async with connect(ws_url(live.url, table.room_id)) as ws:
            await ws.send(f'{{"type": "hello", "token": {SURROGATE}}}')
            assert json.loads(await ws.recv())["code"] == "bad_message"
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    finally:
        await table.close()
