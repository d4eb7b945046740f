"""Resigning over the socket: the game ends at once as a loss for the side that resigned, every
viewer hears it, and it is rated as abandoned by that side (like a claim against it)."""

from __future__ import annotations

from app.engines.interface import other_side
from tests.stats.test_stats_api import registered_pair
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_a_resign_ends_the_game_as_a_rated_loss(live: LiveServer) -> None:
    table = await open_table(live.url, players=registered_pair)
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
