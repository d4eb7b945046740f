"""The command's one statement goes through the driver's own pool: a held game's command takes
no connection of SQLAlchemy's, and a connection the database dropped costs one refused
statement, not the pool."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.raw_pool import dsn
from tests.support.live import LiveServer
from tests.support.table import open_table


def _postgres_only(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the driver's own pool is PostgreSQL's")


def test_the_url_loses_only_its_driver() -> None:
    assert dsn("postgresql+asyncpg://postgres:s%40cret@127.0.0.1:5432/bob") == (
        "postgresql://postgres:s%40cret@127.0.0.1:5432/bob"
    )


async def test_a_held_game_takes_no_sqlalchemy_connection(
    database_url: str, catalog: EngineCatalog
) -> None:
    _postgres_only(database_url)
    server = LiveServer(database_url, catalog, run_timers=False).start()
    try:
        assert server._server is not None
        commands = server._server.config.app.state.ctx.commands
        connect = commands._connect
        opened = 0

        def counted() -> Any:
            nonlocal opened
            opened += 1
            return connect()

        commands._connect = counted
        table = await open_table(server.url, spectators=0)
        try:
            applied = 0
            for _ in range(8):
                reply = await table.step()
                assert reply is not None
                applied += reply["result"] == "applied"
        finally:
            await table.close()
        assert applied == 8
        assert opened == 1  # the first command's read; then the game is held
    finally:
        server.stop()


async def test_a_dropped_connection_costs_one_statement_at_most(database_url: str) -> None:
    _postgres_only(database_url)
    database = Database(database_url, pool_size=2)
    assert database.raw is not None
    try:
        for _round in range(3):
            async with database.raw.acquire() as raw:
                pid = await raw.fetchval("SELECT pg_backend_pid()")
            async with database.engine.connect() as other:
                await other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
            try:  # the termination may or may not have reached the driver yet
                async with database.raw.acquire() as raw:
                    await raw.fetchval("SELECT 1")
            except Exception as refused:
                assert isinstance(refused, asyncpg.PostgresError | asyncpg.InterfaceError
                                  | asyncpg.InternalClientError)
            async with database.raw.acquire() as raw:
                assert await raw.fetchval("SELECT pg_backend_pid()") != pid
    finally:
        await database.dispose()
