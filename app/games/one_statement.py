"""A command's whole write as one PostgreSQL statement: one round trip instead of six to nine.

The usual command (one that does not end the game) updates the game row under its version
check and appends its events, pitch rows, card plays, dice draws and command id. On PostgreSQL
that is one statement of data-modifying CTEs, run outside a transaction: a statement is atomic
by itself, the inserts read their rows from JSON parameters (``jsonb_populate_recordset``) and
join the ``UPDATE ... RETURNING`` row, so when the version check (or the seat check) fails they
insert nothing, and a repeated command id fails the whole statement on its unique index. Each
round trip costs a few hundred microseconds of Python and kernel time at both ends, which is
most of what a command costs the server.

SQLite (the embedded, one-process default) and the command that ends a game (it also rates the
players, through the ORM) keep the plain transaction in :mod:`app.games.commands`.

The statement goes to a connection of the driver's own pool (:mod:`app.raw_pool`) with
positional parameters (asyncpg prepares and caches it per connection): this write is the
hottest statement of the server, and SQLAlchemy's layers over it (compiling the bound
parameters, its async adapter's greenlet hop, result wrapping, and its pool's check-out) cost
about as much Python as the rest of the write (``bench/one_statement.py`` measures the ways
side by side).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import Any

import orjson
from asyncpg.exceptions import IntegrityConstraintViolationError
from sqlalchemy import Table, TextClause, text
from sqlalchemy.exc import IntegrityError

from app.accounts.models import DeviceSession
from app.db import Base
from app.games.models import Command, DiceDraw, Game, GameEvent, Pitch, PitchPlay
from app.seats.models import Seat

UPDATED = ("version", "seq", "deadlines", "next_deadline_at", "draw_count", "state", "hold")
"""The game columns a command that does not end the game sets."""
APPENDED: tuple[type[Base], ...] = (GameEvent, Pitch, PitchPlay, DiceDraw, Command)
"""The tables it appends to, in the statement's order."""


def table(model: type[Base]) -> Table:
    found: Table = model.__table__  # type: ignore[assignment]
    return found


def columns(model: type[Base]) -> list[str]:
    """Every column but a generated key."""
    return [
        c.name for c in table(model).columns
        if not (c.primary_key and c.autoincrement is True)
    ]


@cache
def statement(seat_guard: bool, appended: tuple[bool, ...]) -> TextClause:
    """The statement for one shape: whether the actor's seat and session are checked, which
    tables get rows (``appended[i]`` for ``APPENDED[i]``). It returns 1 when it applied, 0
    when not."""
    games, seats, sessions = table(Game).name, table(Seat).name, table(DeviceSession).name
    jsonb = {c.name for c in table(Game).columns if c.type.__class__.__name__ == "JSON"}
    sets = ", ".join(
        f"{c} = CAST(:{c} AS jsonb)" if c in jsonb else f"{c} = :{c}" for c in UPDATED
    )
    guard = (
        f" AND EXISTS (SELECT 1 FROM {seats} WHERE room_id = :w_room"
        " AND account_id = :w_actor AND side = :w_side AND left_at IS NULL)"
        f" AND EXISTS (SELECT 1 FROM {sessions} WHERE id = :w_session)"
        if seat_guard else ""
    )
    parts = [f"g AS (UPDATE {games} SET {sets} WHERE id = :w_id AND version = :w_version"
             f"{guard} RETURNING id)"]
    for index, (model, present) in enumerate(zip(APPENDED, appended, strict=True)):
        if not present:
            continue
        names = ", ".join(columns(model))
        picked = ", ".join(f"r.{c}" for c in columns(model))
        parts.append(
            f"i{index} AS (INSERT INTO {table(model).name} ({names}) SELECT {picked}"
            f" FROM g, jsonb_populate_recordset(NULL::{table(model).name},"
            f" CAST(:rows{index} AS jsonb)) AS r)"
        )
    return text("WITH " + ", ".join(parts) + " SELECT count(*) FROM g")


@cache
def positional(seat_guard: bool, appended: tuple[bool, ...]) -> tuple[str, tuple[str, ...]]:
    """:func:`statement` for asyncpg: its SQL with ``$n`` placeholders, and the parameter
    names in their order."""
    sql = str(statement(seat_guard, appended))
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return re.sub(r"(?<![:\w]):(\w+)", number, sql), tuple(names)


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


async def write(
    raw: Any,
    game_id: str,
    version: int,
    values: Mapping[str, Any],
    seat: Mapping[str, str] | None,
    rows: Sequence[Sequence[Mapping[str, Any]]],
) -> bool:
    """Runs the statement on ``raw``, an asyncpg connection outside a transaction; ``values``
    holds :data:`UPDATED`, ``rows[i]`` the rows for ``APPENDED[i]``. True when the game moved
    (the statement committed); False when the version or the seat check failed (nothing was
    written)."""
    params: dict[str, Any] = {"w_id": game_id, "w_version": version}
    for column in UPDATED:
        value = values[column]
        params[column] = value if column in ("version", "seq", "draw_count") else (
            value if isinstance(value, datetime) or value is None else _json(value)
        )
    if seat is not None:
        params.update(seat)
    for index, table_rows in enumerate(rows):
        if table_rows:
            params[f"rows{index}"] = _json(list(table_rows))
    shape = tuple(bool(r) for r in rows)
    sql, names = positional(seat is not None, shape)
    try:
        applied = await raw.fetchval(sql, *[params[name] for name in names])
    except IntegrityConstraintViolationError as exc:  # the callers expect SQLAlchemy's
        raise IntegrityError(sql, None, exc) from exc
    return bool(applied == 1)
