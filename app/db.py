"""Database plumbing shared by every domain: the declarative base, column types, sessions.

Both SQLite (the embedded default) and PostgreSQL run the same models. Two column types smooth
over their differences: :class:`UtcDateTime` always hands back an aware UTC datetime (SQLite
stores naive text), and :data:`JsonColumn` is JSONB on PostgreSQL (indexable) and JSON elsewhere.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import cache
from typing import Any

import orjson
from sqlalchemy import JSON, BigInteger, DateTime, Insert, Integer, Table, event, exc, insert
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from app.raw_pool import RawPool

JsonColumn = JSON().with_variant(JSONB(), "postgresql")
BigId = BigInteger().with_variant(Integer(), "sqlite")
"""SQLite only autoincrements an INTEGER PRIMARY KEY, PostgreSQL gets 64 bits."""


def utcnow() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC in Python whatever the database stores."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    exc.OperationalError, exc.InterfaceError, exc.DisconnectionError, exc.TimeoutError, OSError,
)
try:  # the driver's own connection errors, when it raises them unwrapped (on connect)
    from asyncpg.exceptions import (
        InterfaceError as _PgInterfaceError,
    )
    from asyncpg.exceptions import (
        PostgresConnectionError as _PgConnectionError,
    )

    UNAVAILABLE_ERRORS += (_PgInterfaceError, _PgConnectionError)
except ImportError:  # pragma: no cover - asyncpg is a dependency
    pass


def is_unavailable(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) means the database cannot be reached now: the
    answer is then "try again later" (503, socket close 1013), not a bug."""
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 8:
        if isinstance(current, UNAVAILABLE_ERRORS):
            return True
        if isinstance(current, exc.DBAPIError) and current.connection_invalidated:
            return True
        current = current.__cause__ or current.__context__
        seen += 1
    return False


class Base(DeclarativeBase):
    pass


Executor = AsyncSession | AsyncConnection
"""Where Core statements run: a session, or (cheaper, no ORM layer) its connection."""


@cache
def _insert(table: Table) -> Insert:
    return insert(table)


async def insert_values(db: Executor, model: type[Base], values: Sequence[dict[str, Any]]) -> None:
    """Inserts plain rows with one Core ``executemany``, skipping the unit of work.

    The hot command path writes several rows per command and never reads them back, so the
    ORM's identity map and ``RETURNING`` of generated ids are pure overhead there.
    """
    if values:
        await db.execute(_insert(model.__table__), list(values))


def row_values(row: Base) -> dict[str, Any]:
    """A new model object as a full row, the columns' Python defaults filled in as an ORM
    flush would (a generated key left out unless set), so Core inserts need nothing from the
    unit of work."""
    values: dict[str, Any] = {}
    for column in row.__table__.columns:
        value = getattr(row, column.key)
        if value is None and column.default is not None:
            arg = getattr(column.default, "arg", None)
            value = arg(None) if callable(arg) else arg
        if value is None and column.primary_key and column.autoincrement is True:
            continue
        values[column.key] = value
    return values


async def insert_rows(db: Executor, rows: Sequence[Base]) -> None:
    """:func:`insert_values` for new model objects of one model."""
    if rows:
        await db.execute(_insert(rows[0].__table__), [row_values(r) for r in rows])


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str, pool_size: int = 10) -> AsyncEngine:
    """An async engine; SQLite gets WAL and a busy timeout so readers never block the writer."""
    if url.startswith("sqlite"):
        engine = create_async_engine(
            url, connect_args={"timeout": 30}, json_serializer=_json_dumps,
            json_deserializer=orjson.loads,
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No pre-ping: on asyncpg it costs two round trips (a transaction begun and rolled back) per
    # checkout, more than a command's own writes. A connection the database dropped fails its
    # statement instead; SQLAlchemy then discards the pool's connections, that one command is
    # answered "internal, try again", and the next checkout connects afresh.
    return create_async_engine(
        url, pool_size=pool_size, max_overflow=pool_size,
        json_serializer=_json_dumps, json_deserializer=orjson.loads,
    )


class Database:
    """The engine and a session factory; one per app, closed at shutdown."""

    def __init__(self, url: str, pool_size: int = 10) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.raw: RawPool | None = (
            RawPool(url, max(2, pool_size // 2)) if self.engine.dialect.name == "postgresql"
            else None
        )
        """PostgreSQL: the driver's own pool, for the command's one statement and the timer
        runner's scan."""

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    async def dispose(self) -> None:
        if self.raw is not None:
            await self.raw.close()
        await self.engine.dispose()
