"""GET /api/leaderboard over HTTP on both databases, from seeded games and ratings.

Each backend gets a fresh database (so no other test's players or games are in the pool) and its
own server. Games are written and rated as the command path does (``record_game``), so the
established players really reached 10+ games with sigma ≤ 6.5; two rating rows are seeded
by hand for the cases games would take long to reach (inactive, sigma still high).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.stats.models import PlayerRating
from tests.stats.test_store import account, finished_game, short_game
from tests.support.databases import backends, postgres_database, sqlite_database
from tests.support.live import LiveServer

POOL = {"game": "base-on-board", "tier": "lite-extended"}
OPTIONS = {"tier": "lite-extended"}


@pytest.fixture(scope="module", params=backends())
def fresh(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
          catalog: EngineCatalog) -> Iterator[LiveServer]:
    if request.param == "sqlite":
        databases = sqlite_database(Path(tmp_path_factory.mktemp("board")))
    else:
        databases = postgres_database()
    with databases as url:
        server = LiveServer(url, catalog).start()
        yield server
        server.stop()


def _result(winner: str | None) -> dict[str, Any]:
    runs = {"home": (0, 1), "away": (1, 0), None: (2, 2)}[winner]
    return {"winner": winner, "reason": "final", "score": {"away": runs[0], "home": runs[1]}}


async def _seed(url: str, now: datetime) -> dict[str, Any]:
    database = Database(url)
    try:
        async with database.session() as db:
            names = ("ace", "deuce", "rookie", "newbie", "stale", "shaky", "guesty")
            ids = {n: await account(db, n, guest=n == "guesty") for n in names}
            games: list[str] = []
            # ace (home) against deuce (away): 12 games, ace wins 8, deuce 3, one tie.
            outcomes = ["home"] * 8 + ["away"] * 3 + [None]
            for i, winner in enumerate(outcomes):
                games.append(await finished_game(
                    db, {"home": [ids["ace"]], "away": [ids["deuce"]]}, short_game(),
                    _result(winner), now - timedelta(hours=30 - i), options=OPTIONS))
            # Two newcomers, one game each: newbie loses to ace, then rookie beats deuce.
            games.append(await finished_game(
                db, {"home": [ids["ace"]], "away": [ids["newbie"]]}, short_game(),
                _result("home"), now - timedelta(hours=3), options=OPTIONS))
            games.append(await finished_game(
                db, {"home": [ids["deuce"]], "away": [ids["rookie"]]}, short_game(),
                _result("away"), now - timedelta(hours=1), options=OPTIONS))
            # A game against a guest is not rated but is a recent game of the pool.
            games.append(await finished_game(
                db, {"home": [ids["guesty"]], "away": [ids["rookie"]]}, short_game(),
                _result("away"), now - timedelta(minutes=30), options=OPTIONS))
            # Another pool's game is not listed.
            await finished_game(
                db, {"home": [ids["ace"]], "away": [ids["deuce"]]}, short_game(),
                _result("home"), now - timedelta(minutes=10), options={"tier": "pro"})
            pool = "base-on-board:lite-extended"
            db.add_all([
                PlayerRating(account_id=ids["stale"], pool=pool, mu=45.0, sigma=3.0,
                             games=40, last_played=now - timedelta(days=45)),
                PlayerRating(account_id=ids["shaky"], pool=pool, mu=40.0, sigma=7.0,
                             games=40, last_played=now - timedelta(hours=2)),
            ])
            await db.commit()
            stored = {
                (row.account_id, row.pool): row
                for row in (await db.execute(PlayerRating.__table__.select())).all()
            }
        return {"ids": ids, "games": games, "stored": stored}
    finally:
        await database.dispose()


async def test_established_provisional_and_recent_games(fresh: LiveServer) -> None:
    now = datetime.now(UTC)
    seeded = await _seed(fresh.database_url, now)
    ids, games = seeded["ids"], seeded["games"]
    async with httpx.AsyncClient(base_url=fresh.url, timeout=30) as http:
        response = await http.get("/api/leaderboard", params=POOL)
        assert response.status_code == 200, response.text
        board = response.json()
        assert (board["game"], board["tier"], board["pool"]) == (
            "base-on-board", "lite-extended", "base-on-board:lite-extended")
        assert board["rules"] == {"min_games": 10, "max_sigma": 6.5, "active_days": 30}

        # Established: ace above deuce by display rating; stale (45 days) and shaky
        # (sigma 7) are not ranked.
        established = board["established"]
        assert [(r["rank"], r["name"]) for r in established] == [(1, "ace"), (2, "deuce")]
        for row in established:
            stored = seeded["stored"][(ids[row["name"]], board["pool"])]
            assert row["ordinal"] == round(stored.mu - 3 * stored.sigma, 2)
            assert row["rating"] == max(0, round(1500 + 20 * (stored.mu - 3 * stored.sigma)))
            assert row["sigma"] <= 6.5 and row["provisional"] is False
            assert row["games"] == row["wins"] + row["losses"] + row["ties"]
        ace, deuce = established
        assert (ace["games"], ace["wins"], ace["losses"], ace["ties"]) == (13, 9, 3, 1)
        assert (deuce["games"], deuce["wins"], deuce["losses"], deuce["ties"]) == (13, 3, 9, 1)
        assert ace["rating"] > deuce["rating"]
        assert datetime.fromisoformat(ace["last_played"]) < datetime.fromisoformat(
            deuce["last_played"])

        # Provisional: most recently active first, with their own ranks and W/L.
        provisional = board["provisional"]
        assert [(r["rank"], r["name"]) for r in provisional] == [
            (1, "rookie"), (2, "shaky"), (3, "newbie")]
        rookie, shaky, newbie = provisional
        assert (rookie["games"], rookie["wins"], rookie["losses"]) == (1, 1, 0)
        assert (newbie["games"], newbie["wins"], newbie["losses"]) == (1, 0, 1)
        assert shaky["provisional"] and shaky["games"] == 40 and shaky["sigma"] == 7.0
        assert all(r["provisional"] for r in provisional)

        # Recent games: the pool's finished games, newest first, names by side, guests too.
        recent = board["recent_games"]
        assert [g["game_id"] for g in recent] == list(reversed(games))
        assert recent[0] == {
            "game_id": games[-1], "away": ["rookie"], "home": ["guesty"],
            "score": {"away": 1, "home": 0}, "winner": "away",
            "finished_at": recent[0]["finished_at"]}
        assert recent[1]["home"] == ["deuce"] and recent[1]["away"] == ["rookie"]
        tie = recent[len(games) - 12]
        assert tie["winner"] is None and tie["score"] == {"away": 2, "home": 2}

        # limit applies to each list; Bottom of the 9th is its own (empty) pool.
        small = (await http.get("/api/leaderboard", params={**POOL, "limit": 1})).json()
        assert [r["name"] for r in small["established"]] == ["ace"]
        assert [r["name"] for r in small["provisional"]] == ["rookie"]
        ninth = (await http.get("/api/leaderboard",
                                params={"game": "bottom-of-the-9th", "tier": "pro"})).json()
        assert (ninth["tier"], ninth["pool"]) == (None, "bottom-of-the-9th")
        assert ninth["established"] == ninth["provisional"] == ninth["recent_games"] == []
        pro = (await http.get("/api/leaderboard", params={"game": "base-on-board"})).json()
        assert pro["pool"] == "base-on-board:pro" and len(pro["recent_games"]) == 1

        # The game is required; the old plain standings are gone.
        assert (await http.get("/api/leaderboard")).status_code == 422
        assert (await http.get("/api/leaderboard", params={"game": "chess"})).status_code == 422
