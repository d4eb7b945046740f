"""The one path every change to a game takes: player actions, timer actions and claims alike.

validate (who, which game, which side, legal now?, command id new?) → engine ``apply`` → one
transaction (state with ``UPDATE ... WHERE version = :v``, numbered events, pitch rows, dice
draws, the command id) → commit → publish. Nothing is published before the commit; a version
conflict (another process or task won the race) rolls back and retries from a fresh read, so a
move is never applied twice; a repeated command id returns the first answer.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import and_, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.context import ServerContext
from app.db import insert_rows, utcnow
from app.engines.interface import PITCH_EVENT, EngineError, Event, Side, other_side
from app.errors import ApiError
from app.games import service
from app.games.computer import COMPUTER_ACTOR, computer_side, pause_fraction
from app.games.models import Command, Game, Pitch
from app.games.pitches import pitch_row, play_rows
from app.realtime.ratelimit import TokenBucket
from app.rooms.models import Room, Seat
from app.stats.store import record_game

CommandKind = Literal["action", "timeout", "claim"]
RATE_CAPPED_ACTIONS: dict[str, tuple[str, float]] = {
    "race_roll": ("race_max_rolls_per_sec", 4.0),
}
"""Action types whose rate per side the server caps: the option naming the rate, its default."""
SERVER_ACTOR = "server"


@dataclass(frozen=True)
class CommandRequest:
    game_id: str
    actor: str
    """Account id, ``server`` for timer actions, ``computer`` for the solo opponent."""
    side: Side
    command_id: str
    kind: CommandKind
    action: dict[str, Any] | None = None
    expected_seq: int | None = None
    expected_version: int | None = None


class _Conflict(Exception):
    """The version moved between read and write: somebody else committed first."""


class CommandPath:
    def __init__(self, ctx: ServerContext) -> None:
        self.ctx = ctx
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._roll_buckets: dict[tuple[str, str], TokenBucket] = {}

    def _check_roll_rate(self, game: Game, side: str, action: dict[str, Any]) -> None:
        """Caps a side's race rolls (design note 2): rolls above the room's rate are refused
        before the engine sees them, so scripted clicking wins nothing. The buckets live in
        this process: a side whose members' sockets sit in two processes could roll at up to
        twice the rate (documented in docs/protocol.md)."""
        rule = RATE_CAPPED_ACTIONS.get(str(action.get("type")))
        if rule is None:
            return
        rate = float(game.options.get(rule[0], rule[1]))
        key = (game.id, side)
        bucket = self._roll_buckets.get(key)
        if bucket is None or bucket.rate != rate:
            bucket = self._roll_buckets[key] = TokenBucket(rate, 1)
        if not bucket.take():
            raise ApiError("roll_rate", f"at most {rate:g} of those per second", 429)

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def submit(self, request: CommandRequest) -> dict[str, Any]:
        """Applies ``request`` or raises :class:`ApiError`; returns the (first) answer.

        A per-game lock in this process avoids needless conflicts; the version check is what
        makes it safe across processes.
        """
        async with self._lock(request.game_id):
            for attempt in range(self.ctx.settings.command_retries):
                try:
                    return await self._attempt(request, first_try=attempt == 0)
                except _Conflict:
                    await asyncio.sleep(0.005)
        raise ApiError("conflict", "the game changed too often; send the command again", 409)

    async def _attempt(self, request: CommandRequest, first_try: bool) -> dict[str, Any]:
        async with self.ctx.db.session() as db:
            # One round trip: the game, its room's timers, the first answer to this command
            # id if there was one, and the actor's seat.
            found = (
                await db.execute(
                    select(Game, Room.timers, Command.response, Seat.side)
                    .join(Room, Room.id == Game.room_id)
                    .outerjoin(
                        Command,
                        and_(
                            Command.game_id == Game.id,
                            Command.actor == request.actor,
                            Command.command_id == request.command_id,
                        ),
                    )
                    .outerjoin(
                        Seat,
                        and_(
                            Seat.room_id == Game.room_id,
                            Seat.account_id == request.actor,
                            Seat.left_at.is_(None),
                        ),
                    )
                    .where(Game.id == request.game_id)
                    .execution_options(populate_existing=True)
                )
            ).first()
            if found is None:
                raise ApiError("not_found", "no such game", 404)
            game, timers, first, seat_side = found
            if first is not None:
                return {**first, "duplicate": True}
            if game.status != "live":
                raise ApiError("game_over", "the game is over", 409)
            if request.expected_version is not None and request.expected_version != game.version:
                raise ApiError("stale_version", "the deadline was already handled", 409)
            if request.expected_seq is not None and request.expected_seq != game.seq:
                raise ApiError(
                    "stale_seq",
                    f"you acted on event {request.expected_seq}; the game is at {game.seq}",
                    409,
                )
            if request.actor == COMPUTER_ACTOR:
                if computer_side(game.options) != request.side:
                    raise ApiError("not_seated", "the computer does not play that side", 403)
            elif request.kind != "timeout" and request.actor != SERVER_ACTOR:
                if seat_side is None:
                    raise ApiError("not_seated", "only a member of a side may act", 403)
                if seat_side != request.side:
                    raise ApiError("wrong_side", f"you sit on the {seat_side} side", 403)
            if request.kind == "claim":
                await self._check_claim(db, game, request.side)
                message, response = await self._write(db, timers, game, request, None, [])
            else:
                message, response = await self._apply(db, timers, game, request, first_try)
        await self.ctx.broadcaster.publish(game.room_id, message)
        if game.next_deadline_at is not None:
            self.ctx.wake_timers(game.next_deadline_at)
        return response

    async def _check_claim(self, db: AsyncSession, game: Game, side: Side) -> None:
        """A side may claim the game when every member of the other side has been gone for
        the grace period (disconnected or left). Presence is each seat's ``last_seen_at``,
        refreshed by its open sockets every heartbeat, so it holds across processes. The
        computer (solo play) never leaves, so its side cannot be claimed."""
        if computer_side(game.options) == other_side(side):
            raise ApiError("opponent_present", "the computer never leaves the table", 409)
        latest = await db.scalar(
            select(func.max(Seat.last_seen_at)).where(
                Seat.room_id == game.room_id, Seat.side == other_side(side)
            )
        )
        grace = timedelta(seconds=self.ctx.settings.grace_seconds)
        if latest is not None and _aware(latest) > utcnow() - grace:
            raise ApiError("opponent_present", "the other side is still here", 409)

    async def _apply(
        self, db: AsyncSession, timers: dict[str, Any], game: Game, request: CommandRequest,
        first_try: bool,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        engine, dice = service.engine_for(self.ctx.catalog, game)
        state = engine.from_json(game.state)
        legal = engine.legal_actions(state, request.side)
        if request.kind == "timeout":
            action = engine.timeout_action(state, request.side) if legal else None
            if action is None:
                raise ApiError("no_timeout", "nothing to do for that side now", 409)
        else:
            action = dict(request.action or {})
            claimed = action.setdefault("side", request.side)
            if claimed != request.side:
                raise ApiError("wrong_side", "that action is for the other side", 403)
            if not legal:
                raise ApiError("not_your_turn", "your side has nothing to do now", 409)
            if action not in legal:
                raise ApiError("illegal_action", "not one of your legal actions", 422)
            # A retry after a lost version race is the same roll, not another; the server's
            # and the computer's moves are paced by their delays, not by the cap.
            if first_try and request.actor not in (SERVER_ACTOR, COMPUTER_ACTOR):
                self._check_roll_rate(game, request.side, action)
        try:
            new_state, events = engine.apply(state, action)
        except EngineError as exc:
            raise ApiError(exc.code, str(exc), 422) from exc
        return await self._write(db, timers, game, request, (engine, dice, new_state, action),
                                 events)

    async def _write(
        self,
        db: AsyncSession,
        timers: dict[str, Any],
        game: Game,
        request: CommandRequest,
        applied: tuple[Any, Any, Any, dict[str, Any]] | None,
        events: list[Event],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        now = utcnow()
        events = list(events)
        if applied is not None:
            engine, dice, new_state, action = applied
            outcome = engine.outcome(new_state)
            result = None if outcome is None else outcome.to_json()
            state_json = engine.to_json(new_state)
            deadlines = (
                {} if result else service.compute_deadlines(
                    engine, new_state, timers, now, game.options,
                    computer=computer_side(game.options),
                    pause=pause_fraction(game.seed, game.id, game.version + 1),
                )
            )
        else:  # a claim: the engine's state stays as it is, the game ends by forfeit
            engine, dice, new_state, action = None, None, None, {"type": "claim"}
            state_json = game.state
            result = {"winner": request.side, "score": {}, "reason": "claim"}
            deadlines = {}
        if result is not None:
            events.append(Event("game_end", {"result": result}))
            events.append(Event("seed_reveal", {"seed": game.seed, "seed_hash": game.seed_hash}))
        first_seq = game.seq + 1
        rows = [service.event_row(game.id, first_seq + i, e) for i, e in enumerate(events)]
        last_seq = game.seq + len(rows)
        pitch_count = 0
        if any(e.type == PITCH_EVENT for e in events):
            pitch_count = await db.scalar(
                select(func.count()).select_from(Pitch).where(Pitch.game_id == game.id)
            ) or 0
        response = {"result": "applied", "first_seq": first_seq, "seq": last_seq,
                    "duplicate": False}
        values: dict[str, Any] = {
            "state": state_json, "version": game.version + 1, "seq": last_seq,
            "deadlines": deadlines, "next_deadline_at": service.next_deadline(deadlines),
        }
        if dice is not None:
            values["draw_count"] = game.draw_count + len(dice.draws)
        if result is not None:
            values.update(status="finished", result=result, finished_at=now)
        updated = await db.execute(
            update(Game)
            .where(Game.id == game.id, Game.version == game.version)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if updated.rowcount != 1:  # type: ignore[attr-defined]
            await db.rollback()
            raise _Conflict
        pitches = []
        plays = []
        for row in rows:
            if row.type == PITCH_EVENT:
                pitch_count += 1
                pitches.append(pitch_row(game.id, game.kind, row.seq, pitch_count, row.data))
                plays += play_rows(game.id, row.seq, row.data)
        await insert_rows(db, rows)
        await insert_rows(db, pitches)
        await insert_rows(db, plays)
        if dice is not None:
            await insert_rows(db, service.draw_rows(game.id, dice))
        await insert_rows(db, [Command(
            game_id=game.id, actor=request.actor, command_id=request.command_id,
            side=request.side, action=action, response=response, created_at=now,
        )])
        if result is not None:
            await db.execute(
                update(Room).where(Room.id == game.room_id).values(status="finished")
            )
            for bucket_key in [k for k in self._roll_buckets if k[0] == game.id]:
                del self._roll_buckets[bucket_key]
        try:
            if result is not None:  # ratings change in the transaction that ends the game
                await record_game(db, game.id, game.kind, game.options, result, now)
            await db.commit()
        except IntegrityError:
            # Same command id committed by a concurrent request, or a lost version race that
            # slipped through on an engine without row versions: read again, answer again.
            await db.rollback()
            raise _Conflict from None
        for key, value in values.items():
            setattr(game, key, value)
        if engine is not None:
            views = service.per_viewer(engine, new_state, finished=result is not None)
        else:
            views = await service.snapshot_views(self.ctx.catalog, game)
        return service.batch(game, rows, views), response


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
