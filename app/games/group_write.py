"""Commands of many games written together: one statement for the commands that arrive while
the database is busy with earlier ones (group commit).

Under load most of a command's database cost is per statement, not per row: a round trip, a
parse of its parameters, a commit and its WAL flush. When fewer than :data:`IN_FLIGHT` writes
of this process are running, a command's write goes out at once, as the one statement of
:mod:`app.games.one_statement`; otherwise it waits for one to finish, and every write that
waited by then goes out together, as one statement that updates each game under its own
version (and seat) check and appends the rows of the games that moved. A quiet server pays
nothing for this (every write goes out alone, at once); a busy one pays one round trip and one
commit for many games.

A batch holds at most one write per game (the command path writes a game's commands one at a
time anyway) and fails as a whole when one of its commands repeats a command id (the unique
index): it is then written again one by one, so that only that command fails, as it would
alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

import orjson
from asyncpg.exceptions import DeadlockDetectedError, IntegrityConstraintViolationError
from sqlalchemy.dialects.postgresql.base import PGDialect

from app.accounts.models import DeviceSession
from app.games import one_statement
from app.games.models import Game
from app.games.one_statement import APPENDED, UPDATED, columns, table
from app.seats.models import Seat

IN_FLIGHT = 2
"""Writes of this process running at once before the next ones wait to go together: enough
to keep the database busy while the last batch's answer travels back, few enough that the
waiting ones form batches (the machine has two cores, shared with PostgreSQL)."""
LARGEST = 64
"""At most this many games in one statement, so that one statement's parameters stay small."""
GUARD = ("w_room", "w_actor", "w_side", "w_session")
"""The seat check's parameters (a command a person sent checks that person's seat)."""


@dataclass(eq=False)
class _Write:
    game_id: str
    version: int
    values: Mapping[str, Any]
    seat: Mapping[str, str] | None
    rows: Sequence[Sequence[Mapping[str, Any]]]
    future: asyncio.Future[bool] = field(default_factory=lambda: asyncio.get_running_loop()
                                         .create_future())


@cache
def batch_sql(appended: tuple[bool, ...]) -> str:
    """The statement for a batch (asyncpg's ``$n`` placeholders): ``$1`` the games' new
    values and checks as a JSON array, ``$2…`` the appended rows of every table that gets
    any (``appended[i]`` for ``APPENDED[i]``), each row carrying its ``game_id``. It returns
    the ids of the games that moved."""
    games, seats, sessions = table(Game).name, table(Seat).name, table(DeviceSession).name
    dialect = PGDialect()  # type: ignore[no-untyped-call]
    types = {c: table(Game).columns[c].type.compile(dialect=dialect) for c in UPDATED}
    record = ", ".join(
        ["w_id text", "w_version integer", *(f"{c} {types[c]}" for c in UPDATED),
         *(f"{c} text" for c in GUARD)]
    )
    sets = ", ".join(f"{c} = p.{c}" for c in UPDATED)
    parts = [
        f"p AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS p({record}))",
        f"g AS (UPDATE {games} AS t SET {sets} FROM p WHERE t.id = p.w_id"
        " AND t.version = p.w_version AND (p.w_room IS NULL OR ("
        f"EXISTS (SELECT 1 FROM {seats} AS s WHERE s.room_id = p.w_room"
        " AND s.account_id = p.w_actor AND s.side = p.w_side AND s.left_at IS NULL)"
        f" AND EXISTS (SELECT 1 FROM {sessions} AS d WHERE d.id = p.w_session)))"
        " RETURNING t.id)",
    ]
    number = 2
    for index, (model, present) in enumerate(zip(APPENDED, appended, strict=True)):
        if not present:
            continue
        names = ", ".join(columns(model))
        picked = ", ".join(f"r.{c}" for c in columns(model))
        name = table(model).name
        parts.append(
            f"i{index} AS (INSERT INTO {name} ({names}) SELECT {picked}"
            f" FROM jsonb_populate_recordset(NULL::{name}, ${number}::jsonb) AS r"
            " JOIN g ON g.id = r.game_id)"
        )
        number += 1
    return "WITH " + ", ".join(parts) + " SELECT coalesce(array_agg(id), '{}') FROM g"


def _dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def batch_params(writes: Sequence[_Write]) -> tuple[tuple[bool, ...], list[str]]:
    """The shape of a batch's statement and its parameters, in order."""
    games = []
    for write in writes:
        game: dict[str, Any] = {"w_id": write.game_id, "w_version": write.version}
        for column in UPDATED:
            value = write.values[column]
            game[column] = value.isoformat() if isinstance(value, datetime) else value
        if write.seat is not None:
            game.update(write.seat)
        games.append(game)
    shape = tuple(any(w.rows[i] for w in writes) for i in range(len(APPENDED)))
    params = [_dumps(games)]
    for index, present in enumerate(shape):
        if present:
            params.append(_dumps([row for w in writes for row in w.rows[index]]))
    return shape, params


class GroupWriter:
    """Writes commands on the driver's pool, alone when the database keeps up, together when
    it does not (see the module's docstring)."""

    def __init__(
        self, pool: Any, observe: Callable[[float], None], *,
        in_flight: int = IN_FLIGHT, largest: int = LARGEST,
    ) -> None:
        self._pool, self._observe = pool, observe
        self._in_flight, self._largest = in_flight, largest
        self._running = 0
        self._waiting: list[_Write] = []
        self._batches: set[asyncio.Task[None]] = set()
        """Batches under way (kept so that none is collected early)."""

    async def write(
        self, game_id: str, version: int, values: Mapping[str, Any],
        seat: Mapping[str, str] | None, rows: Sequence[Sequence[Mapping[str, Any]]],
    ) -> bool:
        """As :func:`app.games.one_statement.write`: True when the game moved; False when its
        version or seat check failed; SQLAlchemy's ``IntegrityError`` when the command id was
        used before."""
        if self._running < self._in_flight and not self._waiting:
            self._running += 1
            self._observe(1)
            try:
                async with self._pool.acquire() as raw:
                    return await one_statement.write(raw, game_id, version, values, seat, rows)
            finally:
                self._running -= 1
                self._start()
        waiting = _Write(game_id, version, values, seat, rows)
        self._waiting.append(waiting)
        try:
            return await waiting.future
        except asyncio.CancelledError:
            if waiting in self._waiting:  # not sent yet: it never will be
                self._waiting.remove(waiting)
            raise

    def _start(self) -> None:
        while self._waiting and self._running < self._in_flight:
            batch: list[_Write] = []
            games: set[str] = set()
            rest: list[_Write] = []
            for waiting in self._waiting:
                if len(batch) < self._largest and waiting.game_id not in games:
                    batch.append(waiting)
                    games.add(waiting.game_id)
                else:
                    rest.append(waiting)
            self._waiting = rest
            self._running += 1
            task = asyncio.get_running_loop().create_task(self._flush(batch))
            self._batches.add(task)
            task.add_done_callback(self._batches.discard)

    async def _flush(self, batch: list[_Write]) -> None:
        self._observe(len(batch))
        try:
            async with self._pool.acquire() as raw:
                if len(batch) == 1:
                    await self._alone(raw, batch[0])
                    return
                shape, params = batch_params(batch)
                try:
                    moved = set(await raw.fetchval(batch_sql(shape), *params))
                except (IntegrityConstraintViolationError, DeadlockDetectedError):
                    for write in batch:  # nothing was written: each alone, to fail alone
                        await self._alone(raw, write)
                    return
            for write in batch:
                if not write.future.done():
                    write.future.set_result(write.game_id in moved)
        except BaseException as exc:
            for write in batch:
                if not write.future.done():
                    if isinstance(exc, asyncio.CancelledError):
                        write.future.cancel()
                    else:
                        write.future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            self._running -= 1
            self._start()

    @staticmethod
    async def _alone(raw: Any, write: _Write) -> None:
        try:
            moved = await one_statement.write(raw, write.game_id, write.version, write.values,
                                              write.seat, write.rows)
        except Exception as exc:
            if not write.future.done():
                write.future.set_exception(exc)
            return
        if not write.future.done():
            write.future.set_result(moved)
