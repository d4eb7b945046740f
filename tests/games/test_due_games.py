"""The timer runner's scan (``app.games.timers.due_games``) finds the same games, in the same
order and with the same deadlines, on the driver's own pool as through SQLAlchemy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, insert

from app.db import Database
from app.games.models import Game
from app.games.timers import DUE_LIMIT, due_games
from app.models import Account, Room


async def test_both_ways_find_the_same_due_games(fresh_database_url: str) -> None:
    # A database of this test's own: the suite's shared server runs timers on the shared one.
    db = Database(fresh_database_url)
    now = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    try:
        async with db.engine.begin() as conn:
            await conn.execute(insert(Account).values(id="a", name="a", name_key="a"))
            for number in range(8):
                at = now + timedelta(seconds=number - 4)  # four due by ``now``, four after
                await conn.execute(insert(Room).values(
                    id=f"r{number}", kind="base-on-board", options={}, teams={}, timers={},
                    invites={}, created_by="a"))
                await conn.execute(insert(Game).values(
                    id=f"g{number}", room_id=f"r{number}", kind="base-on-board", options={},
                    state={}, version=number + 1, seed="0" * 64, seed_hash="0" * 64,
                    status="finished" if number == 1 else "live",
                    deadlines={"home": {"at": at.isoformat(), "timer": "response"}},
                    next_deadline_at=at))
        for rooms in (None, ["r0", "r2", "r6"], ["nobody's"]):
            for until in (now, now + timedelta(seconds=2)):
                driver = await due_games(db, until, rooms, driver=True)
                through_sqlalchemy = await due_games(db, until, rooms, driver=False)
                assert driver == through_sqlalchemy
        everything = await due_games(db, now, None)
        assert [row[:3] for row in everything] == [("g0", "r0", 1), ("g2", "r2", 3),
                                                   ("g3", "r3", 4), ("g4", "r4", 5)]
        assert everything[0][3] == {"home": {"at": (now - timedelta(seconds=4)).isoformat(),
                                             "timer": "response"}}
        assert everything[0][4] == now - timedelta(seconds=4)
        assert [row[0] for row in await due_games(db, now, ["r2", "r5"])] == ["g2"]
        assert DUE_LIMIT >= 8
    finally:
        async with db.engine.begin() as conn:  # rows, not games: the rebuild check skips them
            await conn.execute(delete(Game))
            await conn.execute(delete(Room))
            await conn.execute(delete(Account))
        await db.dispose()
