"""Operations: the migrations match the models on both databases; /healthz tells a dead
database from a live one."""

from __future__ import annotations

import secrets

import httpx
from alembic import command
from sqlalchemy import select, update

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.games.models import Game, Pitch
from app.migrate import alembic_config
from tests.support.databases import _in_thread
from tests.support.live import LiveServer


def test_migrations_match_the_models(database_url: str) -> None:
    """Autogenerate finds nothing to add: the migration creates exactly the models' schema."""
    # In a thread: alembic's env runs its own event loop.
    _in_thread(lambda: command.check(alembic_config(database_url)))


async def test_healthz_reports_a_dead_database(catalog: EngineCatalog) -> None:
    server = LiveServer("sqlite+aiosqlite:////nonexistent-dir/nope/bob.sqlite3", catalog,
                        run_timers=False).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            response = await http.get("/healthz")
        assert response.status_code == 503
        assert response.json()["status"] == "unavailable"
    finally:
        server.stop()


async def test_migration_0005_backfills_the_ninth_columns(database_url: str) -> None:
    """Down to 0004 (the columns dropped) and up again: the backfill from ``extras`` gives the
    columns the command path writes."""
    from tests.stats.test_players import _ninth
    from tests.stats.test_store import T0, account, finished_game
    from tests.support.verify import FIXTURE_RULES

    columns = ("direction_read", "location_read", "fatigue_direction", "fatigue_location",
               "race_winner")
    records = [_ninth(1, True, False, [2, 0], race="home", pa="RS"),
               _ninth(2, False, True, [1, 3], pitcher="P2"), _ninth(3, True, True, [])]
    database = Database(database_url)
    try:
        async with database.session() as db:
            home, away = await account(db, secrets.token_hex(5)), await account(
                db, secrets.token_hex(5))
            game_id = await finished_game(db, {"home": [home], "away": [away]}, records,
                                          {"winner": "home", "score": {"home": 1, "away": 0}},
                                          T0, kind="bottom-of-the-9th", options={}, rate=False)
        query = select(*(getattr(Pitch, c) for c in columns)).where(
            Pitch.game_id == game_id).order_by(Pitch.seq)
        async with database.session() as db:
            written = [tuple(r) for r in (await db.execute(query)).all()]
        assert written == [(True, False, 2, 0, "home"), (False, True, 1, 3, None),
                           (True, True, None, None, None)]
        async with database.session() as db:  # the games no engine played, to mark again
            fixtures = list(await db.scalars(
                select(Game.id).where(Game.rules_version == FIXTURE_RULES)))
        await database.dispose()
        _in_thread(lambda: command.downgrade(alembic_config(database_url), "0004"))
        _in_thread(lambda: command.upgrade(alembic_config(database_url), "head"))
        database = Database(database_url)
        async with database.session() as db:
            assert [tuple(r) for r in (await db.execute(query)).all()] == written
            # Down and up again lost the mark of the games no engine played (migration 0008).
            await db.execute(update(Game).where(Game.id.in_(fixtures))
                             .values(rules_version=FIXTURE_RULES))
            await db.commit()
    finally:
        await database.dispose()
