"""The deadline rule (docs/leagues.md, *Deadline*) and the knock-out stage, on a database of
their own: a forfeit against the side that never sat down, a double forfeit, a tie when both
sat but never together, the score at the deadline of a game in progress, ``bob leagues
decide``; then seeds, a semi-final won by forfeit and a final level at the deadline that the
higher seed takes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.engine_catalog import EngineCatalog
from app.leagues import service
from app.leagues.models import League
from app.rooms.models import Room
from app.settings import Settings
from tests.leagues.helpers import bearer, entrant_of, error, player_league, schedule, with_db
from tests.support.live import LiveServer
from tests.support.table import Table


@pytest.fixture
def server(fresh_database_url: str, catalog: EngineCatalog) -> Iterator[LiveServer]:
    live = LiveServer(fresh_database_url, catalog, league_tick_seconds=0).start()
    yield live
    live.stop()


def decide(url: str, now: datetime) -> dict[str, int]:
    async def run(db: Any) -> dict[str, int]:
        counts = await service.decide(db, Settings(database_url=url), now)
        await db.commit()
        return counts
    result: dict[str, int] = with_db(url, run)
    return result


def started_at(league: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(league["started_at"])


async def sit(http: httpx.AsyncClient, room_id: str, side: str, who: dict[str, Any]) -> None:
    response = await http.post(f"/api/rooms/{room_id}/join", json={"side": side},
                               headers=bearer(who))
    assert response.status_code == 200, response.text


async def test_the_deadline_rule(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        league, players = await player_league(http, 4, deadline_hours=1)
        by_entrant = {entrant_of(league, p): p for p in players}
        games = await schedule(http, league["id"])
        assert [g["round"] for g in games] == [1, 1, 2, 2, 3, 3]
        start = started_at(league)
        assert all(datetime.fromisoformat(g["deadline_at"]) == start + timedelta(hours=g["round"])
                   for g in games)
        lone, empty, live_game, apart = games[:4]
        await sit(http, lone["room_id"], "home", by_entrant[lone["home"]])
        await sit(http, apart["room_id"], "home", by_entrant[apart["home"]])
        left = await http.post(f"/api/rooms/{apart['room_id']}/leave",
                               headers=bearer(by_entrant[apart["home"]]))
        assert left.status_code == 200
        await sit(http, apart["room_id"], "away", by_entrant[apart["away"]])
        table = Table(server.url, http, by_entrant[live_game["home"]],
                      by_entrant[live_game["away"]], room_id=live_game["room_id"])
        table.home, table.away = await table.connect("home"), await table.connect("away")
        await sit(http, live_game["room_id"], "home", table.home_session)
        await sit(http, live_game["room_id"], "away", table.away_session)
        try:
            for _ in range(12):
                assert await table.step() is not None
            runs = (await table.latest_states())["home"]["view"]["runs"]

            assert decide(server.database_url, start + timedelta(minutes=30)) == {
                "live": 1, "final": 0, "forfeit": 0, "double_forfeit": 0, "tie": 0}
            counts = decide(server.database_url, start + timedelta(hours=2, seconds=1))
            assert counts == {"live": 0, "final": 1, "forfeit": 1, "double_forfeit": 1,
                              "tie": 1}
            assert decide(server.database_url, start + timedelta(hours=2, seconds=2))[
                "final"] == 0  # decided once
            after = {g["id"]: g for g in await schedule(http, league["id"])}
            got = after[lone["id"]]
            assert (got["status"], got["winner"], got["decided_by"]) == (
                "forfeit", lone["home"], "deadline")
            assert got["home_runs"] is None and got["away_runs"] is None
            got = after[empty["id"]]
            assert (got["status"], got["winner"], got["decided_by"]) == (
                "forfeit", None, "no-show")
            got = after[apart["id"]]
            assert (got["status"], got["winner"], got["decided_by"]) == (
                "forfeit", None, "deadline")
            got = after[live_game["id"]]
            assert (got["status"], got["decided_by"]) == ("final", "deadline")
            assert (got["home_runs"], got["away_runs"]) == (runs["home"], runs["away"])
            leader = None if runs["home"] == runs["away"] else (
                live_game["home"] if runs["home"] > runs["away"] else live_game["away"])
            assert got["winner"] == leader and got["play_url"] is None

            rooms = with_db(server.database_url, lambda db: db.execute(
                select(Room.id, Room.status).where(Room.id.in_(
                    [lone["room_id"], empty["room_id"], apart["room_id"]]))))
            assert {status for _, status in rooms.all()} == {"finished"}
            late = await http.post(f"/api/rooms/{empty['room_id']}/join", json={"side": "home"},
                                   headers=bearer(by_entrant[empty["home"]]))
            assert late.status_code == 403
            standing = {r["entrant_id"]: r for r in (
                await http.get(f"/api/leagues/{league['id']}/standings")).json()}
            # round 2 had no forfeit loss (a tie and a game in progress): round 1's are all
            assert [standing[e]["forfeit_losses"] for e in (
                empty["home"], empty["away"], lone["away"], lone["home"])] == [1, 1, 1, 0]
            assert standing[apart["home"]]["ties"] == standing[apart["away"]]["ties"] == 1
            assert standing[lone["home"]]["wins"] >= 1

            await table.play_out()  # the game goes on, but its league result was decided
            again = {g["id"]: g for g in await schedule(http, league["id"])}[live_game["id"]]
            assert (again["home_runs"], again["away_runs"], again["decided_by"]) == (
                runs["home"], runs["away"], "deadline")
        finally:  # the sockets only: the client goes on
            await table.client("home").close()
            await table.client("away").close()

        # the last round by the command line, as an operator would
        when = (start + timedelta(hours=3, seconds=1)).isoformat()
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "leagues", "decide", "--now", when],
            env={**os.environ, "DATABASE_URL": server.database_url}, capture_output=True,
            text=True, timeout=60, check=True)
        assert json.loads(done.stdout)["decided"]["double_forfeit"] == 2
        final = (await http.get(f"/api/leagues/{league['id']}")).json()
        assert final["status"] == "finished"
        top = (await http.get(f"/api/leagues/{league['id']}/standings")).json()[0]
        assert final["champion"] == top["entrant_id"]


async def test_the_knockout_stage(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        league, players = await player_league(http, 4, deadline_hours=1, knockout=4)
        by_entrant = {entrant_of(league, p): p for p in players}
        order = [e["id"] for e in league["entrants"]]
        start = started_at(league)
        season_end = start + timedelta(hours=3, seconds=1)
        decide(server.database_url, season_end)  # every season game a double forfeit
        shown = (await http.get(f"/api/leagues/{league['id']}")).json()
        assert shown["status"] == "knockout"
        # all 0-3 with no runs and three forfeit losses each: entry order seeds them
        assert {e["id"]: e["seed"] for e in shown["entrants"]} == {
            order[0]: 1, order[1]: 2, order[2]: 3, order[3]: 4}
        semis = [g for g in await schedule(http, league["id"]) if g["stage"] == "knockout"]
        assert [(g["home"], g["away"], g["round"]) for g in semis] == [
            (order[0], order[3], 1), (order[1], order[2], 1)]
        assert all(datetime.fromisoformat(g["deadline_at"]) == season_end + timedelta(hours=1)
                   for g in semis)
        await sit(http, semis[1]["room_id"], "away", by_entrant[order[2]])  # seed 3 shows up
        entering = await http.post(f"/api/leagues/{league['id']}/entrants", json={},
                                   headers=bearer(players[0]))
        assert error(entering) == (409, "league_started")
        decide(server.database_url, season_end + timedelta(hours=1, seconds=1))
        final = [g for g in await schedule(http, league["id"]) if g["round"] == 2
                 and g["stage"] == "knockout"]
        # seed 1 goes on from a double forfeit (the higher seed), seed 3 by forfeit
        assert [(g["home"], g["away"]) for g in final] == [(order[0], order[2])]
        assert (await http.get(f"/api/leagues/{league['id']}")).json()["champion"] is None
        await sit(http, final[0]["room_id"], "home", by_entrant[order[0]])
        left = await http.post(f"/api/rooms/{final[0]['room_id']}/leave",
                               headers=bearer(by_entrant[order[0]]))
        assert left.status_code == 200
        await sit(http, final[0]["room_id"], "away", by_entrant[order[2]])
        decide(server.database_url, season_end + timedelta(hours=2, seconds=2))
        done = (await http.get(f"/api/leagues/{league['id']}")).json()
        decided = [g for g in await schedule(http, league["id"]) if g["id"] == final[0]["id"]]
        assert decided[0]["winner"] is None  # both sat down, never together: level
        assert done["status"] == "finished" and done["champion"] == order[0]
        status = with_db(server.database_url, lambda db: db.scalar(
            select(League.status).where(League.id == league["id"])))
        assert status == "finished"
