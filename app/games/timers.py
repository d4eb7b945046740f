"""Acts for a side whose response window or roll timer ran out.

Deadlines live in the ``games`` row (``deadlines`` and the indexed ``next_deadline_at``), so a
restarted server, or any one of several processes, finds and honours them. Each timeout goes
through the one command path with command id ``timeout:<version>:<side>`` and the version it saw:
when two processes race for the same deadline, one applies it and the other gets a duplicate or a
stale version, never a second move. The same runner makes the computer's moves in solo play
(``computer:<version>:<side>``, see :mod:`app.games.computer`) and the automatic pass of a side
whose only legal action is ``pass`` (``pass:<version>:<side>``, design note 1).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import select, update

from app.context import ServerContext
from app.db import Database, utcnow
from app.engines.interface import Side, parse_side
from app.errors import ApiError
from app.games import service, verify
from app.games.commands import SERVER_ACTOR, CommandRequest
from app.games.computer import (
    COMPUTER_ACTOR,
    computer_level,
    computer_pick,
    computer_think_ms,
    think,
)
from app.games.models import Game
from app.games.service import due_at
from app.offload import CpuWork

log = logging.getLogger(__name__)
_EXPECTED = {"stale_version", "game_over", "conflict"}
DUE_LIMIT = 200
"""Due games one database scan takes (more wait for the next look, at once)."""
_DUE_COLUMNS = "id, room_id, version, deadlines, next_deadline_at"
DUE_SQL = {
    rooms: f"SELECT {_DUE_COLUMNS} FROM {Game.__tablename__}"
           " WHERE status = 'live' AND next_deadline_at <= $1"
           + (" AND room_id = ANY($2::text[])" if rooms else "")
           + f" ORDER BY next_deadline_at LIMIT {DUE_LIMIT}"
    for rooms in (False, True)
}
"""The scan on PostgreSQL, on the driver's own pool (``True``: narrowed to the rooms owned
here). It runs four times a second, and through SQLAlchemy it cost about four times the CPU
(``bench/timer_scan.py``)."""
TICK_CONCURRENCY = 8
"""Games whose deadlines one tick handles at once: games are independent, and one after the
other a busy tick would make the last game's pass late by all the others' commits."""


class TimerRunner:
    """Acts on the deadlines of the rooms this process owns (:mod:`app.games.ownership`), and
    adopts the rooms with due deadlines that nobody owns; with one process, that is all."""

    def __init__(self, ctx: ServerContext) -> None:
        self.ctx = ctx
        self._next_scan = 0.0
        self._next_db_scan = 0.0
        self._thinking = CpuWork(1)

    async def run_forever(self) -> None:
        """Sleeps until the next known deadline, at most ``timer_tick_seconds`` (so deadlines
        set by other processes are seen), and wakes early when this process sets one."""
        ctx = self.ctx
        while True:
            pause = ctx.settings.timer_tick_seconds
            ctx.timer_wakeup.clear()
            ctx.timer_planned, ctx.timer_soonest = None, None  # awake: nothing to wake
            try:
                await self.adopt_orphans()
                pause = await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the loop must outlive a bad game or a database hiccup
                log.exception("timer tick failed")
            if ctx.timer_soonest is not None:  # set by a commit during the tick
                pause = min(pause, max(0.0, (ctx.timer_soonest - utcnow()).total_seconds()))
            ctx.timer_planned = utcnow() + timedelta(seconds=pause)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ctx.timer_wakeup.wait(), pause)

    def _owned(self, room_id: str) -> bool:
        ownership = self.ctx.ownership
        return ownership.everything or room_id in ownership.owned()

    async def _due_in_database(self, now: datetime, within: float) -> list[Any]:
        """The live games of the rooms owned here with a deadline due within ``within``
        seconds, soonest first: (id, room id, version, deadlines, next deadline)."""
        ownership = self.ctx.ownership
        rooms = None if ownership.everything else sorted(ownership.owned())
        if rooms == []:
            return []
        return await due_games(self.ctx.db, now + timedelta(seconds=within), rooms)

    async def adopt_orphans(self) -> set[str]:
        """Every ``orphan_scan_seconds``: the rooms with a due deadline that nobody owns (their
        owner died, or nobody watches them) are taken here, so their timers run."""
        ownership = self.ctx.ownership
        if ownership.everything or time.monotonic() < self._next_scan:
            return set()
        self._next_scan = time.monotonic() + self.ctx.settings.orphan_scan_seconds
        async with self.ctx.db.session() as db:
            due = set(await db.scalars(
                select(Game.room_id).distinct()
                .where(Game.status == "live", Game.next_deadline_at <= utcnow())
                .limit(500)
            ))
        return await ownership.adopt(due - ownership.owned())

    async def tick(self) -> float:
        """Applies every due timeout of the rooms owned here once; returns how long to sleep
        before the next look (until the soonest deadline not yet due, at most a tick).

        What this process's own commits set is in ``commands.deadlines`` (a heap, no query);
        the database is read once every ``timer_tick_seconds`` for the rest (deadlines other
        processes set, or a restart left), one query that also says when to look again."""
        longest = self.ctx.settings.timer_tick_seconds
        now = utcnow()
        heap = self.ctx.commands.deadlines
        found: dict[str, tuple[str, str, int, dict[str, Any]]] = {}
        for entry in heap.pop_due(now):
            if self._owned(entry.room_id):
                found[entry.game_id] = (entry.game_id, entry.room_id, entry.version,
                                        entry.deadlines)
        pause = longest
        if time.monotonic() >= self._next_db_scan:
            self._next_db_scan = time.monotonic() + longest
            rows = await self._due_in_database(now, longest)
            for row in rows:
                if _aware(row[4]) > now:
                    pause = min(pause, (_aware(row[4]) - utcnow()).total_seconds())
                elif row[0] not in found or found[row[0]][2] < row[2]:
                    found[row[0]] = row[:4]
            if len(rows) == DUE_LIMIT and all(_aware(r[4]) <= now for r in rows):
                pause = 0.0  # more are due than one tick takes: look again at once
                self._next_db_scan = 0.0
        else:
            pause = min(pause, max(0.0, self._next_db_scan - time.monotonic()))
        soonest = heap.soonest()
        if soonest is not None:
            pause = min(pause, (soonest - utcnow()).total_seconds())
        due = list(found.values())
        gate = asyncio.Semaphore(TICK_CONCURRENCY)

        async def act(game_id: str, room_id: str, version: int,
                      deadlines: dict[str, Any]) -> int:
            async with gate:
                for side, deadline in sorted(deadlines.items(), key=lambda kv: due_at(kv[1])):
                    if due_at(deadline) > now:
                        continue
                    try:
                        request = await self._request(game_id, version, parse_side(side),
                                                      deadline)
                        if request is not None:
                            late = (utcnow() - due_at(deadline)).total_seconds()
                            self.ctx.metrics.timer_lateness.observe(max(0.0, late))
                            self.ctx.ownership.used(room_id)
                            await self.ctx.commands.submit(request)
                            return 1
                    except ApiError as exc:
                        if exc.code not in _EXPECTED:
                            log.warning("timeout for %s/%s failed: %s", game_id, side, exc.code,
                                        extra={"game_id": game_id, "room_id": room_id})
                            await self._drop_deadlines(game_id, version)
                    return 0  # the version moved: the other side's deadline waits for a tick
            return 0

        await asyncio.gather(*(act(*row) for row in due))
        return max(0.0, pause)

    async def _request(
        self, game_id: str, version: int, side: Side, deadline: dict[str, Any]
    ) -> CommandRequest | None:
        """What the server does for ``side`` now: the computer's move, the automatic pass of a
        pass-only window, or the engine's timeout action."""
        if deadline.get("timer") == "computer":
            catalog = self.ctx.catalog
            past: list[dict[str, Any]] = []
            async with self.ctx.db.session() as db:
                game = await db.get(Game, game_id)
                if game is None or game.version != version or game.status != "live":
                    return None  # somebody moved first: the new version has its own deadline
                think_ms = computer_think_ms(catalog, game)
                if think_ms:  # a thinking level reads the game so far
                    past = await verify.game_actions(db, game_id)
            engine, _dice = service.engine_for(catalog, game)
            service.check_rules(engine, game.id, game.rules_version)
            state = engine.from_json(game.state)
            pick = computer_pick(game.seed, game.id, version)
            # In a worker thread, one at a time: a hard level plays games out for its think
            # time (counted from when the thread starts), and the loop must keep answering
            # every socket meanwhile.
            action = await self._thinking.run(
                think, catalog, game.kind, computer_level(game), think_ms,
                engine, state, side, pick, past)
            if action is None:
                await self._drop_deadlines(game_id, version)
                return None
            return CommandRequest(
                game_id=game_id, actor=COMPUTER_ACTOR, side=side,
                command_id=f"computer:{version}:{side}", kind="action", action=action,
                expected_version=version,
            )
        if deadline.get("acts") == "pass":
            return CommandRequest(
                game_id=game_id, actor=SERVER_ACTOR, side=side,
                command_id=f"pass:{version}:{side}", kind="action",
                action={"side": side, "type": "pass"}, expected_version=version,
            )
        return CommandRequest(
            game_id=game_id, actor=SERVER_ACTOR, side=side,
            command_id=f"timeout:{version}:{side}", kind="timeout", expected_version=version,
        )

    async def _drop_deadlines(self, game_id: str, version: int) -> None:
        """A deadline the engine cannot act on would be retried every tick; forget it."""
        async with self.ctx.db.session() as db:
            await db.execute(
                update(Game)
                .where(Game.id == game_id, Game.version == version)
                .values(deadlines={}, next_deadline_at=None)
            )
            await db.commit()


async def due_games(db: Database, until: datetime, rooms: list[str] | None,
                    driver: bool = True) -> list[tuple[Any, ...]]:
    """The live games with a deadline due by ``until`` (of ``rooms`` only, unless ``None``),
    soonest first, at most :data:`DUE_LIMIT`: (id, room id, version, deadlines, next
    deadline). On PostgreSQL through the driver's own pool unless ``driver`` is false (the
    test compares the two ways)."""
    if db.raw is not None and driver:
        async with db.raw.acquire() as conn:
            found = await conn.fetch(DUE_SQL[rooms is not None],
                                     *((until,) if rooms is None else (until, rooms)))
        return [(r[0], r[1], r[2], orjson.loads(r[3]), r[4]) for r in found]
    query = (
        select(Game.id, Game.room_id, Game.version, Game.deadlines, Game.next_deadline_at)
        .where(Game.status == "live", Game.next_deadline_at <= until)
        .order_by(Game.next_deadline_at)
        .limit(DUE_LIMIT)
    )
    if rooms is not None:
        query = query.where(Game.room_id.in_(rooms))
    async with db.engine.connect() as conn:
        return [tuple(row) for row in (await conn.execute(query)).all()]


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
