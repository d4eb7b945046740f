"""The command's one statement goes through the driver's own pool: a held game's command takes
no connection of SQLAlchemy's, a connection stays checked out for the next statement, and a
connection the database dropped costs one refused statement, not the pool."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from sqlalchemy.exc import IntegrityError

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.raw_pool import RawPool, _closed, dsn
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


async def test_a_connection_is_kept_for_the_next_statement(database_url: str) -> None:
    """Taken and given back at every statement, a connection cost a check-out and a shielded
    check-in task; kept, the next statement has it at once, a PostgreSQL error included."""
    _postgres_only(database_url)
    database = Database(database_url, pool_size=4)
    assert database.raw is not None
    try:
        async with database.raw.acquire() as raw:
            pid = await raw.fetchval("SELECT pg_backend_pid()")
        assert database.raw.kept == 1
        with pytest.raises(asyncpg.DivisionByZeroError):
            async with database.raw.acquire() as raw:
                await raw.fetchval("SELECT 1 / 0")
        async with database.raw.acquire() as raw:
            assert await raw.fetchval("SELECT pg_backend_pid()") == pid
            assert database.raw.kept == 0  # in use: not free for another statement
        assert database.raw.kept == 1
    finally:
        await database.dispose()


async def test_no_more_are_kept_than_ran_at_once(database_url: str) -> None:
    _postgres_only(database_url)
    database = Database(database_url, pool_size=8)
    raw_pool = database.raw
    assert raw_pool is not None

    async def backend() -> int:
        async with raw_pool.acquire() as raw:
            return int(await raw.fetchval("SELECT pg_backend_pid() FROM pg_sleep(0.05)"))

    try:
        together = set(await asyncio.gather(*(backend() for _ in range(3))))
        assert len(together) == 3 and raw_pool.kept == 3
        one_by_one = {await backend() for _ in range(6)}
        assert one_by_one <= together and raw_pool.kept == 3
    finally:
        await database.dispose()


async def test_closing_waits_for_a_statement_in_use_and_keeps_nothing(
    database_url: str,
) -> None:
    """``close`` gives the kept connections back (the driver's pool would wait for them for
    ever) and the one in use goes back when its statement ends."""
    _postgres_only(database_url)
    database = Database(database_url, pool_size=4)
    raw_pool = database.raw
    assert raw_pool is not None
    for _ in range(2):
        async with raw_pool.acquire() as raw:
            await raw.fetchval("SELECT 1")
    started = asyncio.Event()

    async def slow() -> int:
        async with raw_pool.acquire() as raw:
            started.set()
            return int(await raw.fetchval("SELECT 7 FROM pg_sleep(0.3)"))

    running = asyncio.create_task(slow())
    await started.wait()
    await asyncio.wait_for(database.dispose(), 10)
    assert await running == 7
    assert raw_pool.kept == 0


async def test_a_repeated_command_id_keeps_the_connection_a_shutdown_does_not(
    database_url: str,
) -> None:
    """The command path sees a repeated command id as SQLAlchemy's ``IntegrityError`` around
    asyncpg's (``app.games.one_statement``): the statement was refused and the connection is
    fine, so it is kept. An error of the classes that say the connection may be gone (the
    server shutting down, or ending this backend) gives it back to asyncpg's pool."""
    _postgres_only(database_url)
    database = Database(database_url, pool_size=4)
    raw_pool = database.raw
    assert raw_pool is not None
    try:
        with pytest.raises(IntegrityError):
            async with raw_pool.acquire() as raw:
                try:
                    await raw.fetchval("SELECT 1 / 0")
                except asyncpg.DivisionByZeroError as refused:
                    raise IntegrityError("statement", None, refused) from refused
        assert raw_pool.kept == 1
        with pytest.raises(asyncpg.AdminShutdownError):
            async with raw_pool.acquire() as raw:
                raise asyncpg.AdminShutdownError("terminating connection")
        assert raw_pool.kept == 0
        with pytest.raises(RuntimeError):
            async with raw_pool.acquire() as raw:
                raise RuntimeError("not the database's")
        assert raw_pool.kept == 0
    finally:
        await database.dispose()


async def _alive(database: Database, pid: int) -> bool:
    async with database.engine.connect() as other:
        found = await other.exec_driver_sql(
            f"SELECT count(*) FROM pg_stat_activity WHERE pid = {int(pid)}")
        return bool(found.scalar_one())


async def test_a_connection_kept_past_the_idle_limit_is_closed_not_used(
    database_url: str,
) -> None:
    """asyncpg's pool closed a connection idle for five minutes; kept here, one would stay
    open however long the process is idle, and after a database restart or a dropped idle
    connection the next command would be refused on it."""
    _postgres_only(database_url)
    database = Database(database_url, pool_size=2)
    raw_pool = RawPool(database_url, 2, max_idle=1.0)  # room for a slow machine's stall
    try:
        async with raw_pool.acquire() as raw:
            first = await raw.fetchval("SELECT pg_backend_pid()")
        async with raw_pool.acquire() as raw:  # within the limit: the same one
            assert await raw.fetchval("SELECT pg_backend_pid()") == first
        await asyncio.sleep(1.2)
        async with raw_pool.acquire() as raw:
            second = await raw.fetchval("SELECT pg_backend_pid()")
        assert second != first
        assert raw_pool.kept == 1
        for _ in range(50):  # the backend ends once it sees the connection closed
            if not await _alive(database, first):
                break
            await asyncio.sleep(0.05)
        assert not await _alive(database, first)
    finally:
        await raw_pool.close()
        await database.dispose()


async def test_a_kept_connection_the_database_closed_is_not_used(database_url: str) -> None:
    """Terminated while kept (a restart, say) and seen closed by the driver, it is given back
    and the statement takes a fresh connection instead of being refused."""
    _postgres_only(database_url)
    database = Database(database_url, pool_size=2)
    raw_pool = database.raw
    assert raw_pool is not None
    try:
        async with raw_pool.acquire() as raw:
            pid = await raw.fetchval("SELECT pg_backend_pid()")
            kept = raw
        async with database.engine.connect() as other:
            await other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
        for _ in range(100):  # the driver reads the server's goodbye as the loop runs
            if _closed(kept):
                break
            await asyncio.sleep(0.02)
        assert _closed(kept)
        async with raw_pool.acquire() as raw:
            assert await raw.fetchval("SELECT pg_backend_pid()") != pid
        assert raw_pool.kept == 1
    finally:
        await database.dispose()
