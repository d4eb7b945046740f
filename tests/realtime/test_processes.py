"""Several processes behind a real nginx, sharing PostgreSQL and Redis: a room lives in one
place (its owner holds a lease, its timers run there), players on different processes play both
games to the end, and when the owner is killed another process takes its rooms, timers
included, within 5 s, without losing an acknowledged command."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import redis

from app.bots.client import guest, open_socket
from tests.realtime.test_ordering import check_stream
from tests.support.cluster import Cluster
from tests.support.databases import backends, postgres_database
from tests.support.table import Client, Table


@pytest.fixture
def cluster_database() -> Any:
    if "postgres" not in backends():
        pytest.skip("TEST_DATABASE leaves PostgreSQL out (several processes need it)")
    with postgres_database() as url:
        yield url


def owner_index(cluster: Cluster, room_id: str) -> int | None:
    """Which of the cluster's processes holds the room's lease now."""
    holder = redis.Redis.from_url("redis://127.0.0.1:6379/0").get(
        f"{cluster.prefix}owner:{room_id}")
    if holder is None:
        return None
    for index, server in enumerate(cluster.servers):
        if server.process is not None and server.process.poll() is None and httpx.get(
                f"{server.url}/healthz").json()["process"] == holder.decode():
            return index
    return None


async def _table(base: str, kind: str, options: dict[str, Any],
                 timers: dict[str, Any] | None = None) -> Table:
    http = httpx.AsyncClient(base_url=base, timeout=30)
    table = Table(base, http, await guest(http), await guest(http))
    body: dict[str, Any] = {"kind": kind, "options": options, "side": "home"}
    if timers:
        body["timers"] = timers
    created = await http.post("/api/rooms", json=body, headers=table.auth("home"))
    assert created.status_code == 201, created.text
    table.room_id = created.json()["id"]
    return table


async def _start(table: Table) -> None:
    joined = await table.http.post(f"/api/rooms/{table.room_id}/join", json={"side": "away"},
                                   headers=table.auth("away"))
    assert joined.status_code == 200, joined.text
    table.game_id = joined.json()["current_game_id"]


async def _socket(url: str, table: Table, side: str | None, last_seq: int | None = None
                  ) -> Client:
    token = None if side is None else table.token(side)
    ws, welcome = await open_socket(url, table.room_id, token, last_seq)
    return Client(ws, welcome)


@pytest.mark.parametrize(("kind", "options"), [
    ("base-on-board", {"innings": 3, "tier": "pro"}),
    ("bottom-of-the-9th", {}),
])
async def test_players_on_two_processes_play_to_the_end(
    cluster_database: str, kind: str, options: dict[str, Any]
) -> None:
    cluster = Cluster(cluster_database).start()
    try:
        table = await _table(cluster.url, kind, options, {"auto_pass_ms": 200})
        watcher = await _socket(cluster.url, table, None, last_seq=0)
        owner = owner_index(cluster, table.room_id)
        assert owner is not None  # the proxy's choice took the room
        other = cluster.servers[1 - owner].url
        table.home = await _socket(cluster.url, table, "home")
        table.away = await _socket(other, table, "away")  # the other side, on the other one
        remote_watcher = await _socket(other, table, None, last_seq=0)
        table.spectators = [watcher, remote_watcher]
        await _start(table)
        await table.play_out(5000)
        for client in table.spectators:
            await client.next(lambda m: m["type"] == "state" and m["game"]["status"] != "live",
                              timeout=30)
        log = (await table.http.get(f"/api/games/{table.game_id}/events",
                                    params={"limit": 5000})).json()
        public = [(e["seq"], e["event"]) for e in log["events"]]
        for client in table.spectators:
            check_stream(client.log)
            assert client.events() == public
        assert owner_index(cluster, table.room_id) == owner  # it stayed in one place
        await table.close()
    finally:
        cluster.stop()


async def test_the_owner_killed_another_process_takes_its_rooms(
    cluster_database: str,
) -> None:
    cluster = Cluster(cluster_database).start()
    try:
        # Short clocks: once the owner is gone, nobody but the server moves the game.
        table = await _table(cluster.url, "base-on-board", {"innings": 3, "tier": "pro"},
                             {"auto_pass_ms": 300, "roll_seconds": 1, "response_seconds": 1})
        table.home = await _socket(cluster.url, table, "home")
        owner = owner_index(cluster, table.room_id)
        assert owner is not None
        survivor = cluster.servers[1 - owner]
        table.away = await _socket(cluster.url, table, "away")
        watcher = await _socket(survivor.url, table, None, last_seq=0)
        table.spectators = [watcher]
        await _start(table)
        acked: list[str] = []
        applied: set[int] = set()
        # Play until a pass is held for its window's pause (written, shown at its time).
        while True:
            states = await table.latest_states()
            mover = next(s for s, m in states.items() if m["legal_actions"])
            legal = states[mover]["legal_actions"]
            choice = next((a for a in legal if a["type"] == "pass"), legal[0])
            reply = await table.act(mover, choice)
            assert reply["type"] == "ack", reply
            acked.append(reply["id"])
            if reply["result"] == "applied":
                applied.add(reply["first_seq"])
            if reply["result"] == "scheduled" and len(acked) > 10:
                held_at = reply["seq"]
                break
            if reply["result"] == "scheduled":
                table.seq = max(table.seq, (await table.client(mover).state_at(
                    reply["seq"] + 1))["seq"])
        cluster.servers[owner].kill()
        killed = time.monotonic()
        # Nobody is connected to the survivor but a spectator: the held pass reaches it by
        # time (its heartbeat), and then the survivor's timers take the room and move on.
        after = await watcher.next(lambda m: m["type"] == "event" and m["seq"] > held_at,
                                   timeout=10)
        assert after["event"]["type"] == "pass"
        shown = await watcher.next(lambda m: m["type"] == "state" and m["seq"] > held_at)
        await watcher.next(lambda m: m["type"] == "event" and m["seq"] > shown["seq"],
                           timeout=10)
        took = time.monotonic() - killed
        assert took < 8, took
        assert owner_index(cluster, table.room_id) == 1 - owner
        # The players come back through the proxy and play on from what they hold.
        table.seq = max(m["seq"] for m in watcher.log if m["type"] in ("state", "event"))
        table.home = await _socket(cluster.url, table, "home", last_seq=held_at)
        table.away = await _socket(cluster.url, table, "away", last_seq=held_at)
        await asyncio.gather(*(table.client(s).state_at(table.seq) for s in ("home", "away")))
        await table.play_out(5000)
        await watcher.next(lambda m: m["type"] == "state" and m["game"]["status"] != "live",
                           timeout=30)
        check_stream(watcher.log)
        commands = (await table.http.get(f"/api/games/{table.game_id}/export")).json()
        assert commands["status"] == "finished"
        log = (await table.http.get(f"/api/games/{table.game_id}/events",
                                    params={"limit": 5000})).json()
        assert watcher.events() == [(e["seq"], e["event"]) for e in log["events"]]
        stored = {a["first_seq"] for a in commands["actions"]}
        assert applied and applied <= stored  # every acknowledged command is in the log
        await table.close()
    finally:
        cluster.stop()
