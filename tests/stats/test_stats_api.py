"""A real Base on Board game between two registered accounts, played through the server: its
rating, SQL stats, box score, play-by-play, replay at every sequence number and export."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.games.models import Game
from app.stats import baselines, queries
from app.stats.boxscore import box_score
from app.stats.gamelog import replay_export
from app.stats.players import PlayerGame, player_stats
from tests.conftest import real_engines
from tests.support.live import LiveServer
from tests.support.table import Table, open_table


async def registered(http: httpx.AsyncClient, prefix: str) -> dict[str, Any]:
    body = {"name": f"{prefix}{secrets.token_hex(4)}", "password": "correct horse"}
    response = await http.post("/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def registered_pair(http: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any]]:
    return await registered(http, "h"), await registered(http, "a")


async def play_registered_game(url: str, kind: str, options: dict[str, Any]) -> Table:
    table = await open_table(url, kind, options, players=registered_pair)
    await table.play_out(5000)
    await table.spectators[0].next(
        lambda m: m["type"] == "state" and m["game"]["status"] != "live")
    return table


async def test_recorded_game_stats_replay_and_export(
    live: LiveServer, catalog: EngineCatalog
) -> None:
    if "base-on-board" not in real_engines():
        pytest.skip("base-on-board engine not importable")
    table = await play_registered_game(live.url, "base-on-board", {"innings": 3, "tier": "lite"})
    spectator_views = {
        m["seq"]: m["view"] for m in table.spectators[0].log
        if m["type"] in ("state", "snapshot") and "view" in m
    }
    names = {side: table.home_session["account"]["name"] if side == "home"
             else table.away_session["account"]["name"] for side in ("home", "away")}
    try:
        http = table.http
        summary = (await http.get(f"/api/games/{table.game_id}")).json()
        records = (await http.get(f"/api/games/{table.game_id}/pitches")).json()
        assert summary["box_score"] == box_score(records).to_json()
        assert summary["box_score"]["score"] == summary["result"]["score"]
        winner = summary["result"]["winner"]

        # Ratings: written when the game ended, the library's own numbers.
        m = PlackettLuce()
        rated = m.rate([[m.rating()], [m.rating()]],
                       ranks=[1.0 if winner in (None, "home") else 2.0,
                              1.0 if winner in (None, "away") else 2.0])
        for side, [new] in zip(("home", "away"), rated, strict=True):
            page = (await http.get(f"/api/players/{names[side]}")).json()
            rating = page["ratings"]["base-on-board:lite"]
            assert rating["mu"] == pytest.approx(new.mu) and rating["games"] == 1
            assert rating["provisional"] is True
            assert page["recent"][0]["game_id"] == table.game_id
            # SQL stats equal the pure functions over the same records.
            stats = page["stats"]["base-on-board:lite"]
            pure = player_stats([PlayerGame(records, side, "finished", winner)]).to_json()
            assert stats["pitching"] == pure["pitching"]
            assert stats["batting"] == pure["batting"]  # SB / CS too (pitch_play)
            assert stats["cards"] == pure["cards"]
            assert stats["challenges"] == pure["challenges"]
            assert stats["challenges_won"] == pure["challenges_won"]
            assert (stats["runs_for"], stats["runs_against"]) == (
                pure["runs_for"], pure["runs_against"])
        charts = (await http.get(f"/api/players/{names['home']}/charts")).json()
        assert charts["ratings"]["base-on-board:lite"][0]["game_id"] == table.game_id
        board = (await http.get("/api/leaderboard", params={
            "game": "base-on-board", "tier": "lite"})).json()
        assert board["pool"] == "base-on-board:lite"
        assert names["home"] not in {row["name"] for row in board["established"]}
        unsure = {row["name"]: row for row in board["provisional"]}
        for side in ("home", "away"):
            row = unsure[names[side]]
            assert row["games"] == 1 and row["provisional"] is True
            assert row["wins"] == (winner == side) and row["ties"] == (winner is None)
        assert board["recent_games"][0]["game_id"] == table.game_id
        assert board["recent_games"][0]["home"] == [names["home"]]
        assert board["recent_games"][0]["score"] == summary["result"]["score"]

        for lang, word in (("ko", "회초"), ("en", "top 1st")):
            pbp = (await http.get(f"/api/games/{table.game_id}/playbyplay",
                                  params={"lang": lang})).json()
            assert len(pbp["lines"]) == len(records)
            assert any(word in line["text"].lower() for line in pbp["lines"])

        # The replay at every sequence number is the view the server sent then.
        assert len(spectator_views) > 10
        for seq, view in spectator_views.items():
            replay = (await http.get(f"/api/games/{table.game_id}/replay",
                                     params={"seq": seq})).json()
            assert replay["engine"]["view"] == view, seq
        last = max(spectator_views)
        state = (await http.get(f"/api/games/{table.game_id}/replay",
                                params={"seq": last})).json()
        assert state["situation"]["score"] == summary["result"]["score"]

        # The export replays to the final state the server stored.
        exported = (await http.get(f"/api/games/{table.game_id}/export")).json()
        assert exported["seed"] and exported["actions"]
        assert len(exported["pitches"]) == len(records)
    finally:
        await table.close()
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            game = await db.scalar(select(Game).where(Game.id == table.game_id))
            assert game is not None
            stored_state = game.state
            history = await queries.rating_history(db, game.room_id)  # no such account
        assert history == {}
    finally:
        await database.dispose()
    assert replay_export(catalog, exported) == stored_state


async def test_analysis_endpoints(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=60) as http:
        await asyncio.to_thread(asyncio.run, baselines.refresh(
            live.database_url, simulated_games_count=8))
        dice = (await http.get("/api/analysis/dice")).json()
        assert {d["die"] for d in dice["dice"]} >= {"pitch", "bat", "hit"}
        assert dice["computed_at"]
        re24 = (await http.get("/api/analysis/run-expectancy")).json()
        assert len(re24["real"]["table"]) == len(re24["simulated"]["table"]) == 24
        assert re24["simulated"]["games"] == 8
        assert (await http.get("/api/analysis/run-expectancy",
                               params={"simulated": 0})).json()["simulated"]["games"] == 0
        wp = (await http.get("/api/analysis/win-probability", params={"innings": 3})).json()
        assert wp["simulated"]["cells"][0]["inning"] == 1
        assert wp["simulated"]["cells"][-1]["inning"] >= 3
        cards = (await http.get("/api/analysis/card-value")).json()
        assert cards["simulated"]["cards"]
        b9 = (await http.get("/api/analysis/run-expectancy",
                             params={"game": "bottom-of-the-9th"})).json()
        assert b9["simulated"]["games"] == 8
        # Anything outside the fixed set is refused, not computed.
        for params in ({"simulated": 20}, {"simulated": 2000}, {"innings": 4}):
            refused = await http.get("/api/analysis/win-probability", params=params)
            assert refused.status_code == 422, params
            assert refused.json()["error"]["code"] == "invalid_request"
        spec = (await http.get("/openapi.json")).json()
        for path in ("/api/leaderboard", "/api/players/{name}", "/api/games/{game_id}/replay",
                     "/api/games/{game_id}/export", "/api/games/{game_id}/playbyplay",
                     "/api/analysis/dice"):
            ok = spec["paths"][path]["get"]["responses"]["200"]
            assert "example" in ok["content"]["application/json"], path
