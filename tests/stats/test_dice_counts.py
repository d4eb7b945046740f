"""The database's dice counts (JSON expanded in SQL, for the player page) equal the counts over
the same games' records in Python, on both databases."""

from __future__ import annotations

from sqlalchemy import select

from app.db import Database
from app.games.models import Pitch
from app.games.pitches import pitch_out
from app.stats import baselines, queries
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_sql_dice_counts_equal_the_records(live: LiveServer) -> None:
    games = []
    for _ in range(2):
        table = await open_table(live.url, "base-on-board", {"innings": 3, "tier": "lite"},
                                 spectators=0)
        try:
            for _ in range(40):
                await table.step()
            games.append(table.game_id)
        finally:
            await table.close()
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            counted = await queries.dice_counts(db, games)
            records = [pitch_out(p) for p in await db.scalars(
                select(Pitch).where(Pitch.game_id.in_(games)))]
    finally:
        await database.dispose()
    expected = baselines.dice_counts([records])
    assert counted == expected and sum(expected["pitch"].values()) > 10
    table = baselines.dice_table("base-on-board", counted)
    assert {d["die"] for d in table} == {"pitch", "bat", "hit"}
