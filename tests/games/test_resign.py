"""Resigning over the socket: the game ends at once as a loss for the side that resigned, every
viewer hears it, and it is rated as abandoned by that side (like a claim against it)."""

from __future__ import annotations

import httpx

from app.engines.interface import other_side
from tests.stats.test_stats_api import registered
from tests.support.live import LiveServer
from tests.support.table import Table


async def _registered_table(url: str) -> Table:
    http = httpx.AsyncClient(base_url=url, timeout=30)
    table = Table(url, http, await registered(http, "rh"), await registered(http, "ra"))
    created = await http.post("/api/rooms", json={"kind": "dice-duel", "options": {"innings": 3},
                                                  "side": "home"}, headers=table.auth("home"))
    assert created.status_code == 201, created.text
    table.room_id = created.json()["id"]
    table.spectators = [await table.connect(None, last_seq=0)]
    table.home = await table.connect("home")
    table.away = await table.connect("away")
    joined = await http.post(f"/api/rooms/{table.room_id}/join", json={"side": "away"},
                             headers=table.auth("away"))
    assert joined.status_code == 200, joined.text
    table.game_id = joined.json()["current_game_id"]
    return table


async def test_a_resign_ends_the_game_as_a_rated_loss(live: LiveServer) -> None:
    table = await _registered_table(live.url)
    try:
        for _ in range(3):
            await table.step()
        spectator = table.spectators[0]
        await spectator.send({"type": "resign", "id": "watcher"})
        got = await spectator.error()
        assert got["code"] == "spectator", got
        loser = "away"
        await table.client(loser).send({"type": "resign", "id": "gg"})
        ack = await table.client(loser).next(lambda m: m.get("id") == "gg")
        assert ack["type"] == "ack" and ack["result"] == "applied"
        result = {"winner": other_side(loser), "score": {}, "reason": "resign"}
        for client in (table.home, table.away, spectator):
            assert client is not None
            final = await client.state_at(ack["seq"])  # what it was sent, read or not
            assert final["game"]["result"] == result and final["legal_actions"] == []
            ends = [e for _, e in client.events() if e["type"] == "game_end"]
            assert ends == [{"type": "game_end", "result": result}]
        # Nothing more can be done in it, a second resign included.
        await table.client("home").send({"type": "resign", "id": "late"})
        assert (await table.client("home").error())["code"] == "game_over"
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["status"] == "finished" and summary["result"] == result
        # Rated: the winner's rating rose above the loser's, one game each.
        pool = "dice-duel"
        ratings = {}
        for side in ("home", "away"):
            name = table.home_session["account"]["name"] if side == "home" else \
                table.away_session["account"]["name"]
            player = (await table.http.get(f"/api/players/{name}")).json()
            ratings[side] = player["ratings"][pool]
            assert ratings[side]["games"] == 1
        assert ratings["home"]["mu"] > ratings["away"]["mu"]
    finally:
        await table.close()
