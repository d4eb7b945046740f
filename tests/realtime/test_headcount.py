"""Spectator counts: each socket's heartbeat says how many watch its room, summed over every
process through Redis, and a process that stops stops counting within three heartbeats."""

from __future__ import annotations

import asyncio
import secrets

from app.realtime.headcount import RedisHeadcount
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_the_heartbeat_counts_the_spectators(live: LiveServer) -> None:
    server = LiveServer(live.database_url, live.catalog, ws_heartbeat_seconds=0.2).start()
    table = await open_table(server.url, spectators=2)
    try:
        home = table.client("home")
        # The away player's socket opens before it sits, and it watches as a spectator until
        # its seat reaches it: a heartbeat in between rightly counts three.
        await table.client("away").next(lambda m: m["type"] == "seat" and m["side"] == "away")
        beat = await home.next(lambda m: m["type"] == "heartbeat"
                               and m["game_id"] == table.game_id and m["spectators"] != 3)
        assert beat["spectators"] == 2
        await table.spectators.pop().close()
        beat = await home.next(lambda m: m["type"] == "heartbeat" and m["spectators"] == 1)
        assert beat["seq"] == table.seq
    finally:
        await table.close()
        server.stop()


async def test_processes_add_up_and_a_stopped_one_drops_out(redis_url: str) -> None:
    prefix = f"bob-test-{secrets.token_hex(4)}:"
    first = RedisHeadcount(redis_url, prefix, "first", heartbeat_seconds=0.2)
    second = RedisHeadcount(redis_url, prefix, "second", heartbeat_seconds=0.2)
    assert await first.exchange({"r1": 2, "r2": 0}) == {"r1": 2, "r2": 0}
    assert await second.exchange({"r1": 3}) == {"r1": 5}
    assert await first.exchange({"r1": 2, "r2": 1}) == {"r1": 5, "r2": 1}
    await asyncio.sleep(0.8)  # the second process stopped beating three heartbeats ago
    assert await first.exchange({"r1": 2}) == {"r1": 2}
