"""bench/timer_scan.py times the timer runner's scan both ways and takes its rows out after."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.db import Database
from app.games.models import Game
from bench.timer_scan import main
from tests.support.databases import postgres_database


def test_each_round_times_both_ways_and_leaves_no_game() -> None:
    with postgres_database() as url:
        runs = main(["--url", url, "--games", "6", "--due", "2", "--scans", "3",
                     "--rounds", "2"])
        assert [(r["round"], r["way"]) for r in runs] == [
            (1, "sqlalchemy"), (1, "driver"), (2, "sqlalchemy"), (2, "driver")]
        assert all(r["cpu_ms_per_scan"] > 0 and r["due"] == 2 for r in runs)

        async def games_left() -> int:
            db = Database(url)
            try:
                async with db.engine.connect() as conn:
                    return int((await conn.execute(select(func.count()).select_from(Game)))
                               .scalar_one())
            finally:
                await db.dispose()

        assert asyncio.run(games_left()) == 0
