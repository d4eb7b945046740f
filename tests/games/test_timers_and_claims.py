"""The server acts when a timer runs out (also after a restart), and an abandoned game can be
claimed once the grace period is over."""

from __future__ import annotations

import asyncio
import time

import httpx

from app.engine_catalog import EngineCatalog
from tests.support.live import LiveServer
from tests.support.table import open_table

FAST = {"response_seconds": 0.3, "roll_seconds": 0.3}


async def test_timeouts_are_played_by_the_server(live: LiveServer) -> None:
    table = await open_table(live.url, timers=FAST, spectators=1)
    try:
        start = time.monotonic()
        watcher = table.spectators[0]
        # Nobody acts: pick, guess and roll all time out, so pitches happen by themselves.
        await watcher.next(lambda m: m["type"] == "event" and m["event"]["type"] == "pitch",
                           timeout=10)
        assert time.monotonic() - start >= 0.8  # three windows of 0.3 s
        summary = (await table.http.get(f"/api/games/{table.game_id}/pitches")).json()
        assert summary[0]["dice"] and summary[0]["extras"] == {"guess": "low"}
        state = await watcher.state_at(1)
        assert state["game"]["deadlines"]  # deadlines are public
    finally:
        await table.close()


async def test_deadlines_survive_a_restart(database_url: str, catalog: EngineCatalog) -> None:
    first = LiveServer(database_url, catalog, run_timers=False).start()
    table = await open_table(first.url, timers={"response_seconds": 0.5,
                                                "roll_seconds": 0.5}, spectators=0)
    await table.close()
    first.stop()  # stopped before the first deadline
    await asyncio.sleep(0.7)
    second = LiveServer(database_url, catalog).start()
    try:
        async with httpx.AsyncClient(base_url=second.url) as http:
            for _ in range(100):
                summary = (await http.get(f"/api/games/{table.game_id}")).json()
                if summary["seq"] > 1:
                    break
                await asyncio.sleep(0.05)
            assert summary["seq"] > 1
            events = (await http.get(f"/api/games/{table.game_id}/events")).json()["events"]
            assert events[1]["event"]["type"] == "picked"
    finally:
        second.stop()


async def test_claim_after_the_grace_period(database_url: str, catalog: EngineCatalog) -> None:
    server = LiveServer(database_url, catalog, grace_seconds=0.6).start()
    try:
        table = await open_table(server.url, spectators=1)
        try:
            await table.client("away").close()
            home = table.client("home")
            await home.send({"type": "claim", "id": "c1"})
            assert (await home.error())["code"] == "opponent_present"
            await asyncio.sleep(0.9)
            await home.send({"type": "claim", "id": "c2"})
            ack = await home.next(lambda m: m["type"] in ("ack", "error") and m.get("id") == "c2")
            assert ack["type"] == "ack", ack
            final = await table.spectators[0].next(
                lambda m: m["type"] == "state" and m["game"]["status"] == "finished"
            )
            assert final["game"]["result"] == {"winner": "home", "score": {}, "reason": "claim"}
            types = [e["type"] for _, e in table.spectators[0].events()]
            assert types[-2:] == ["game_end", "seed_reveal"]
        finally:
            table.away = None
            await table.close()
    finally:
        server.stop()
