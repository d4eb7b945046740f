"""Two server processes (two apps) on one database with Redis fan-out: a commit made through
one reaches the sockets of the other at once, in order, without a ``sync``."""

from __future__ import annotations

import secrets

from app.bots.client import open_socket
from app.engine_catalog import EngineCatalog
from tests.support.live import LiveServer
from tests.support.table import Client, open_table


async def test_commits_reach_sockets_on_the_other_server(
    database_url: str, catalog: EngineCatalog, redis_url: str
) -> None:
    prefix = f"bob-test-{secrets.token_hex(4)}:room:"
    first = LiveServer(database_url, catalog, redis_url=redis_url,
                       redis_channel_prefix=prefix).start()
    second = LiveServer(database_url, catalog, redis_url=redis_url,
                        redis_channel_prefix=prefix).start()
    try:
        table = await open_table(first.url, spectators=1)
        try:
            ws, welcome = await open_socket(second.url, table.room_id, last_seq=0)
            remote_watcher = Client(ws, welcome)
            # A teammate of the side to move plays one move through the second server.
            states = await table.latest_states()
            mover = next(s for s, m in states.items() if m["legal_actions"])
            mate = await table.join_teammate(mover)
            ws, welcome = await open_socket(second.url, table.room_id, mate["token"])
            remote_mate = Client(ws, welcome)
            await remote_mate.send({"type": "action", "id": "remote-1",
                                    "action": states[mover]["legal_actions"][0]})
            ack = await remote_mate.next(lambda m: m.get("id") == "remote-1")
            assert ack["type"] == "ack", ack
            table.seq = ack["seq"]
            await table.play_out()  # the rest through the first server
            for watcher in (table.spectators[0], remote_watcher):
                await watcher.next(
                    lambda m: m["type"] == "state" and m["game"]["status"] == "finished"
                )
            assert not any(m["type"] == "snapshot" for m in remote_watcher.log)
            public = (await table.http.get(f"/api/games/{table.game_id}/events",
                                    params={"limit": 5000})).json()
            expected = [(e["seq"], e["event"]) for e in public["events"]]
            assert table.spectators[0].events() == expected
            assert remote_watcher.events() == expected
            await remote_watcher.close()
            await remote_mate.close()
        finally:
            await table.close()
    finally:
        second.stop()
        first.stop()
