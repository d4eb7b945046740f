"""A notification lost after commit is not lost for good: with its Redis gone, a process still
acknowledges the command and serves its own sockets at once, counts the failed publish, and the
other process's sockets get the events from the database at their next heartbeat."""

from __future__ import annotations

import asyncio
import secrets

import httpx

from app.bots.client import open_socket
from app.engine_catalog import EngineCatalog
from tests.realtime.test_ordering import check_stream
from tests.support.live import LiveServer
from tests.support.table import Client, open_table
from tests.support.tcp_proxy import TcpProxy


async def test_a_lost_publish_is_repaired(fresh_database_url: str,
                                          catalog: EngineCatalog) -> None:
    proxy = await TcpProxy("127.0.0.1", 6379).start()
    prefix = f"bob-test-{secrets.token_hex(4)}:"
    shared = {"redis_channel_prefix": f"{prefix}room:", "redis_notice_channel": f"{prefix}n",
              "redis_lease_prefix": prefix, "ws_heartbeat_seconds": 0.5}
    # Started from a thread: the proxy runs on this test's event loop, which must keep going.
    first = await asyncio.to_thread(LiveServer(
        fresh_database_url, catalog, redis_url=f"redis://127.0.0.1:{proxy.port}/0",
        **shared).start)
    second = LiveServer(fresh_database_url, catalog, redis_url="redis://127.0.0.1:6379/0",
                        **shared).start()
    try:
        table = await open_table(first.url, spectators=1,
                                 timers={"response_seconds": 600, "roll_seconds": 600})
        try:
            ws, welcome = await open_socket(second.url, table.room_id, last_seq=0)
            remote = Client(ws, welcome)
            await remote.state_at(table.seq)
            await proxy.cut()  # the first server's Redis is gone
            for _ in range(3):
                reply = await table.step()
                assert reply is not None and reply["type"] == "ack", reply
            local = await table.spectators[0].state_at(table.seq, timeout=2)
            assert local["seq"] == table.seq  # its own sockets heard at once
            repaired = await remote.state_at(table.seq, timeout=5)  # from the database
            assert repaired["seq"] == table.seq
            # A beat's slice may go out up to half a period after its figures were read, so the
            # first beat after the repair can still carry the old seq; a later one must not.
            beat = await remote.next(
                lambda m: m["type"] == "heartbeat" and m["seq"] == table.seq, timeout=3)
            assert beat["game_id"] == table.game_id
            check_stream(remote.log)
            public = (await table.http.get(f"/api/games/{table.game_id}/events")).json()
            assert remote.events() == [(e["seq"], e["event"]) for e in public["events"]]
            metrics = httpx.get(f"{first.url}/metrics").text
            failures = [line for line in metrics.splitlines()
                        if line.startswith("bob_publish_failures_total")]
            assert failures and float(failures[0].split()[-1]) >= 3, failures
            await remote.close()
        finally:
            await table.close()
    finally:
        await proxy.cut()
        first.stop()
        second.stop()
