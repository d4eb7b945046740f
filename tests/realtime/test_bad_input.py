"""Every kind of bad input gets a typed error on that socket, never a crash or a state change."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.bots.client import ws_url
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_each_bad_message_gets_a_typed_error_and_changes_nothing(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=1)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        waiter = "home" if mover == "away" else "away"
        client, other = table.client(mover), table.client(waiter)
        legal = states[mover]["legal_actions"][0]

        async def expect(raw: str | bytes, code: str, sender: object = client) -> None:
            await sender.ws.send(raw)  # type: ignore[attr-defined]
            error = await sender.error()  # type: ignore[attr-defined]
            assert error["code"] == code, error

        await expect("{not json", "bad_json")
        await expect("[1, 2]", "bad_message")
        await expect(json.dumps({"type": "teleport"}), "unknown_type")
        await expect(json.dumps({"type": "action", "id": "x" * 65, "action": legal}),
                     "bad_message")
        await expect(json.dumps({"type": "action", "id": "a1", "action": "pick"}),
                     "bad_message")
        await expect(json.dumps({"type": "ping", "pad": "x" * 9000}), "too_large")
        await expect(b"\x00\x01", "bad_message")
        await expect(json.dumps({"type": "hello"}), "bad_message")
        await expect(json.dumps({"type": "sync", "last_seq": -1}), "bad_message")
        # wrong turn: the side that is not to move
        waiting_action = {**legal, "side": waiter}
        await expect(json.dumps({"type": "action", "id": "w1", "action": waiting_action}),
                     "not_your_turn", other)
        # the other side's action, sent by the mover's opponent
        await expect(json.dumps({"type": "action", "id": "w2", "action": legal}),
                     "wrong_side", other)
        # illegal: a choice that does not exist
        await expect(json.dumps({"type": "action", "id": "i1",
                                 "action": {**legal, "choice": "sideways"}}), "illegal_action")
        # stale sequence number on an action and on a sync
        await expect(json.dumps({"type": "action", "id": "s1", "seq": 0, "action": legal}),
                     "stale_seq")
        await expect(json.dumps({"type": "sync", "last_seq": 10_000}), "stale_seq")
        # spectators can never act
        spectator = table.spectators[0]
        await expect(json.dumps({"type": "action", "id": "p1", "action": legal}), "spectator",
                     spectator)
        await expect(json.dumps({"type": "claim", "id": "p2"}), "spectator", spectator)
        # a claim while the other side is here
        await expect(json.dumps({"type": "claim", "id": "c1"}), "opponent_present")

        # Nothing changed: still at the same sequence, and the legal move still works.
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == table.seq == 1
        await client.send({"type": "ping"})
        assert (await client.next(lambda m: m["type"] == "pong"))["type"] == "pong"
        reply = await table.act(mover, legal)
        assert reply["type"] == "ack" and reply["first_seq"] == 2
    finally:
        await table.close()


async def test_hello_errors_and_origin(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        url = ws_url(live.url, table.room_id)
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": "nope"}))
            assert json.loads(await ws.recv())["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await ws.recv())["code"] == "hello_required"
        for first in (b"\x00binary", json.dumps({"type": "hello", "last_seq": "7"}), "{oops"):
            async with connect(url) as ws:
                await ws.send(first)
                error = json.loads(await ws.recv())
                assert error["code"] in ("bad_message", "bad_json"), error
                with pytest.raises(ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        async with connect(ws_url(live.url, "no-such-room")) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["code"] == "not_found"
        with pytest.raises(InvalidStatus):
            async with connect(url, origin="https://evil.example"):  # type: ignore[arg-type]
                pass
        async with connect(url, origin="http://localhost:8000") as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
    finally:
        await table.close()


async def test_rate_limit_closes_with_1008(database_url: str, catalog: object) -> None:
    server = LiveServer(database_url, catalog, ws_rate_per_second=5.0,  # type: ignore[arg-type]
                        ws_rate_burst=5).start()
    try:
        table = await open_table(server.url, spectators=1)
        try:
            spectator = table.spectators[0]
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(50):
                    await spectator.ws.send(json.dumps({"type": "ping"}))
                async with asyncio.timeout(5):
                    while True:
                        await spectator.ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        finally:
            await table.close()
    finally:
        server.stop()


async def test_frames_above_the_hard_limit_are_cut(database_url: str, catalog: object) -> None:
    server = LiveServer(database_url, catalog, ws_hard_limit_bytes=4096,  # type: ignore[arg-type]
                        ws_max_message_bytes=1024).start()
    try:
        table = await open_table(server.url, spectators=1)
        try:
            spectator = table.spectators[0]
            await spectator.ws.send(json.dumps({"type": "ping", "pad": "x" * 2000}))
            assert (await spectator.error())["code"] == "too_large"
            await spectator.ws.send("x" * 10_000)
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(5):
                    while True:
                        await spectator.ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        finally:
            await table.close()
    finally:
        server.stop()
