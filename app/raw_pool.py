"""A plain asyncpg pool for the command's one statement, beside SQLAlchemy's pool.

The usual command is one statement (:mod:`app.games.one_statement`) on a game this process
holds, so it needs neither a read nor a transaction. Checked out of SQLAlchemy's pool, its
connection still cost a pool check-out and check-in with their events and reset, the async
adapter's greenlet hops, and the autocommit isolation level set and restored each time: about
as much of the server's CPU as the statement itself (``bench/one_statement.py``, ``checkout``
against ``pool``). This pool hands out the driver's connections as they are.

A connection comes back without asyncpg's reset (a round trip of ``RESET ALL``, ``UNLISTEN``
and the like): the only statement run on it is the one write, outside a transaction, which
leaves no session state behind. A connection the server dropped fails one statement (with
the driver's error, which :func:`app.db.is_unavailable` knows for a closed connection) and is
replaced by the pool.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url


def dsn(url: str) -> str:
    """The libpq URL asyncpg takes, from SQLAlchemy's ``postgresql+asyncpg://`` one."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _no_reset(_connection: Any) -> None:
    """Nothing to undo: see the module's docstring."""


class RawPool:
    """Created on first use, in the running event loop; closed with the database."""

    def __init__(self, url: str, size: int) -> None:
        self._dsn, self._size = dsn(url), size
        self._pool: asyncpg.Pool | None = None
        self._opening: asyncio.Lock | None = None

    async def _open(self) -> asyncpg.Pool:
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(
                    self._dsn, min_size=1, max_size=self._size, reset=_no_reset
                )
        return self._pool

    def acquire(self) -> AbstractAsyncContextManager[Any]:
        """An asyncpg connection for one statement, outside a transaction (``async with``):
        the driver's own acquire once the pool is open, no wrapper of ours around it."""
        if self._pool is not None:
            return self._pool.acquire()  # type: ignore[no-any-return]
        return self._acquire_first()

    @asynccontextmanager
    async def _acquire_first(self) -> AsyncIterator[Any]:
        async with (await self._open()).acquire() as connection:
            yield connection

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
