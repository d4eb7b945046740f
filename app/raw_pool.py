"""A plain asyncpg pool for the command's one statement (and the timer runner's scan), beside
SQLAlchemy's pool, whose connections stay checked out between statements.

The usual command is one statement (:mod:`app.games.one_statement`) on a game this process
holds, so it needs neither a read nor a transaction. Checked out of SQLAlchemy's pool, its
connection still cost a pool check-out and check-in with their events and reset, the async
adapter's greenlet hops, and the autocommit isolation level set and restored each time: about
as much of the server's CPU as the statement itself (``bench/one_statement.py``, ``checkout``
against ``pool``). This pool hands out the driver's connections as they are.

Checked out of asyncpg's own pool at every statement, a connection still cost about 6% of the
server's CPU under the benchmarks' load (issue 12, the CPU-clock profile of 2026-12-07): a
check-out, and a check-in that runs as a task of its own under ``asyncio.shield`` with an
inactivity timer set and cancelled each time. So a connection that finished its statement is
kept here, checked out, and the next statement takes it at once. At most as many are kept as
ever ran at once (the command writer runs two: :data:`app.games.group_write.IN_FLIGHT`).

A connection goes back to asyncpg's pool only when it may be unfit: its statement was
cancelled, or failed other than by PostgreSQL's refusal of the statement alone (the database
dropped the connection or is shutting down, say). asyncpg then closes or resets it, and a later
statement takes a fresh one, so a dropped connection costs one statement. A refusal (a repeated
command id, a deadlock) leaves the connection as it was: the statement ran outside a
transaction, and the error ended it.

A kept connection that the driver has seen closed is given back, not used. One unused for longer
than asyncpg's own idle limit (five minutes) is closed, not used. Either way the statement takes a
fresh one. asyncpg's pool closed idle connections itself while they sat in it; kept here, they
would otherwise stay open however long the process is idle, and after a PostgreSQL restart, or a
network device that drops idle connections, the first commands would be refused on them.

Nothing is reset between statements (asyncpg's reset is a round trip of ``RESET ALL``,
``UNLISTEN`` and the like): the only statements run on these connections are the one write and
the timer runner's read of due games (:func:`app.games.timers.due_games`), each outside a
transaction, which leave no session state behind.
"""

from __future__ import annotations

import asyncio
import time
from types import TracebackType
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url


def dsn(url: str) -> str:
    """The libpq URL asyncpg takes, from SQLAlchemy's ``postgresql+asyncpg://`` one."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _no_reset(_connection: Any) -> None:
    """Nothing to undo: see the module's docstring."""


MAX_IDLE_SECONDS = 300.0
"""How long a kept connection may go unused and still be used: asyncpg's default
``max_inactive_connection_lifetime``, after which its pool closed an idle connection."""


class RawPool:
    """Created on first use, in the running event loop; closed with the database."""

    def __init__(self, url: str, size: int, max_idle: float = MAX_IDLE_SECONDS) -> None:
        self._dsn, self._size, self._max_idle = dsn(url), size, max_idle
        self._pool: asyncpg.Pool | None = None
        self._opening: asyncio.Lock | None = None
        self._kept: list[tuple[Any, float]] = []
        """Connections checked out of ``_pool`` and free for the next statement, each with
        the monotonic time it was kept at."""

    async def _open(self) -> asyncpg.Pool:
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(
                    self._dsn, min_size=1, max_size=self._size, reset=_no_reset
                )
        return self._pool

    def acquire(self) -> _Checkout:
        """An asyncpg connection for one statement, outside a transaction (``async with``)."""
        return _Checkout(self)

    @property
    def kept(self) -> int:
        """Connections kept checked out and free now."""
        return len(self._kept)

    async def close(self) -> None:
        """Gives the kept connections back and closes the pool (which waits for those in use:
        their statements end, and they go back rather than be kept, the pool being gone)."""
        pool, self._pool = self._pool, None
        kept, self._kept = self._kept, []
        if pool is not None:
            for connection, _kept_at in kept:
                await pool.release(connection)
            await pool.close()


UNFIT_CLASSES = ("08", "57")
"""SQLSTATE classes after which a connection may be gone: connection exceptions, and operator
intervention (the server shutting down, or terminating this backend)."""


def _statement_error(error: BaseException | None) -> bool:
    """Whether ``error`` is PostgreSQL's refusal of the statement alone (itself, or the cause
    of the SQLAlchemy error :mod:`app.games.one_statement` raises for a repeated command id),
    after which the connection is as it was."""
    found = error if isinstance(error, asyncpg.PostgresError) else getattr(
        error, "__cause__", None)
    if not isinstance(found, asyncpg.PostgresError):
        return False
    return not str(found.sqlstate or "").startswith(UNFIT_CLASSES)


def _closed(connection: Any) -> bool:
    """Whether the driver has seen ``connection`` closed. Once it has, asyncpg takes it back
    into its pool by itself, and the proxy this pool holds refuses every call, ``is_closed``
    too."""
    try:
        return bool(connection.is_closed())
    except asyncpg.InterfaceError:
        return True


class _Checkout:
    """One statement's connection: a kept one, or a new one checked out of asyncpg's pool."""

    __slots__ = ("_connection", "_owner", "_pool")

    def __init__(self, owner: RawPool) -> None:
        self._owner = owner
        self._pool: asyncpg.Pool | None = None
        self._connection: Any = None

    async def __aenter__(self) -> Any:
        owner = self._owner
        self._pool = owner._pool if owner._pool is not None else await owner._open()
        while owner._kept:
            connection, kept_at = owner._kept.pop()
            if _closed(connection):  # the database closed it while kept, and the driver saw
                await self._pool.release(connection)
            elif time.monotonic() - kept_at <= owner._max_idle:
                self._connection = connection
                return connection
            else:
                # Closed at once, without a round trip a dropped peer would never answer;
                # asyncpg takes its place back, and a check-out opens a fresh connection.
                connection.terminate()
        self._connection = await self._pool.acquire()
        return self._connection

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        owner, connection, pool = self._owner, self._connection, self._pool
        assert pool is not None
        if (kind is None or _statement_error(error)) and not _closed(connection) and (
                pool is owner._pool):
            owner._kept.append((connection, time.monotonic()))
        else:
            await pool.release(connection)
