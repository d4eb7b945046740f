"""The one path every change to a game takes: player actions, timer actions and claims alike.

validate (who, which game, which side, legal now?, command id new?) → engine ``apply`` → one
transaction (state with ``UPDATE ... WHERE version = :v``, numbered events, pitch rows, dice
draws, the command id) → commit → publish. Nothing is published before the commit; a version
conflict (another process or task won the race) rolls back and retries from a fresh read, so a
move is never applied twice; a repeated command id returns the first answer.

A game this process played lately is held parsed (:mod:`app.games.live`), so the usual command
skips the read: its seat is checked inside the ``UPDATE`` and its command id by the unique
index, and any surprise (no row updated, a duplicate id, a refusal) is settled by running the
command again from a fresh read. Statements go to a connection as prebuilt Core statements,
without a session: the ORM's unit of work cost more than the rest of a command together.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Table, and_, bindparam, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from app.accounts.models import DeviceSession
from app.db import Database, insert_values, utcnow
from app.engine_catalog import EngineCatalog
from app.engines.interface import (
    PITCH_EVENT,
    EngineError,
    Event,
    GameEngine,
    Side,
    other_side,
    parse_side,
)
from app.errors import ApiError
from app.games import service
from app.games.broadcast import Broadcaster
from app.games.computer import (
    COMPUTER_ACTOR,
    computer_think_ms,
    pause_fraction,
    playing_computer,
)
from app.games.deadline_heap import DeadlineHeap
from app.games.fair_dice import RecordingDice
from app.games.group_write import GroupWriter
from app.games.hold import PASS_TYPE, Hold, active, visible_seq
from app.games.hooks import FinishedGame, GameEndHooks
from app.games.live import LiveGame, LiveGames
from app.games.models import Command, DiceDraw, Game, GameEvent, Pitch, PitchPlay
from app.games.pitches import pitch_values, play_values
from app.metrics import Metrics
from app.seats.models import Seat
from app.settings import Settings
from app.throttle import TokenBucket

CommandKind = Literal["action", "timeout", "claim", "resign", "stand_in"]
FORFEITS = ("claim", "resign")
STAND_IN = "stand_in"
"""The computer takes the other side, whose people are gone, and finishes the game."""
"""Commands that end the game without the engine: a claim wins it for the claimant, a resign
loses it for the resigning side."""
RATE_CAPPED_ACTIONS: dict[str, tuple[str, float]] = {
    "race_roll": ("race_max_rolls_per_sec", 4.0),
}
"""Action types whose rate per side the server caps: the option naming the rate, its default."""
SERVER_ACTOR = "server"
ACK = "ack"
"""Key of a broadcast naming the connection that sent its command and that command's answer:
``{"to": reply_to, "answer": response}``. Only that connection reads it; no viewer's frame
carries it as it is."""
log = logging.getLogger(__name__)


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
    session_id: str | None = None
    """The actor's device session (people only): the write applies only while it exists, so no
    command of a session is applied after its end (logout, a 4th device) has committed."""
    reply_to: str | None = None
    """An opaque token of the connection that sent it: the commit's broadcast names it beside
    the answer (``ACK``), so that connection may send the answer in the commit's own frame
    instead of a frame of its own (docs/protocol.md, ``ack``)."""


FINAL_REFUSALS = frozenset({"roll_rate"})
"""Refusals a held game cannot get wrong (they do not depend on the game's state)."""

_GAMES: Table = Game.__table__  # type: ignore[assignment]
_SEATS: Table = Seat.__table__  # type: ignore[assignment]
_SESSIONS: Table = DeviceSession.__table__  # type: ignore[assignment]


def _update_game(seat_guard: bool) -> Any:
    """``UPDATE games SET <the parameters' columns> WHERE id AND version [AND seated AND
    signed in]``: a person's command applies only while its seat and its session exist."""
    statement = update(_GAMES).where(
        _GAMES.c.id == bindparam("w_id"), _GAMES.c.version == bindparam("w_version")
    )
    if seat_guard:
        statement = statement.where(exists().where(
            _SEATS.c.room_id == bindparam("w_room"), _SEATS.c.account_id == bindparam("w_actor"),
            _SEATS.c.side == bindparam("w_side"), _SEATS.c.left_at.is_(None),
        )).where(exists().where(_SESSIONS.c.id == bindparam("w_session")))
    return statement


UPDATE_GAME = {False: _update_game(False), True: _update_game(True)}


@dataclass
class _Submission:
    """What one ``submit`` has done across its attempts."""

    rate_checked: bool = False
    """The roll-rate token was taken: a retry of the same command must not take another."""


Applied = tuple[GameEngine[Any], RecordingDice, Any, dict[str, Any]]
"""An applied action: the engine and dice that applied it, the new state, the action."""


@dataclass(frozen=True, slots=True)
class _Fold:
    """A pass the server was certain to make, applied in the commit before it."""

    side: Side
    until: datetime
    """Its ``pass_at``: when it may be seen."""
    state: Any
    events: list[Event]
    result: dict[str, Any] | None
    legal: service.Legal | None
    deadlines: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Commit:
    """What a write leaves to do: publish ``message`` now (``None``: nothing to show yet) and
    what ``held_message()`` builds at the hold's time, answer ``response``, keep ``after``,
    and wake the timers for ``next_at`` (the write's own ``next_deadline_at``)."""

    message: dict[str, Any] | None
    held_message: Callable[[], dict[str, Any]] | None
    response: dict[str, Any]
    after: LiveGame
    next_at: datetime | None


def _scheduled(seq: int) -> dict[str, Any]:
    """The answer to a pass that will be shown at its time, with the ``seq`` the sender sees."""
    return {"result": "scheduled", "first_seq": None, "seq": seq, "duplicate": False}


def _is_pass(request: CommandRequest) -> bool:
    return (request.action or {}).get("type") == PASS_TYPE


class _Conflict(Exception):
    """The version moved between read and write, or a held game was stale: read again."""


class CommandPath:
    """Takes what it uses, one by one (not the server's whole context), so that ``games``
    depends on nothing above it."""

    def __init__(
        self, *, settings: Settings, db: Database, catalog: EngineCatalog,
        broadcaster: Broadcaster, metrics: Metrics,
        wake_timers: Callable[[datetime], None] = lambda _at: None,
        on_game_end: GameEndHooks | None = None,
    ) -> None:
        self.settings, self.db, self.catalog = settings, db, catalog
        self.broadcaster, self.metrics, self.wake_timers = broadcaster, metrics, wake_timers
        self.on_game_end = on_game_end or GameEndHooks()
        """Run in the transaction that ends a game (the room's status, the ratings)."""
        self.live = LiveGames(settings.live_games_held)
        self.deadlines = DeadlineHeap()
        """The deadlines this process's commits set, for the timer runner."""
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._roll_buckets: dict[tuple[str, str], TokenBucket] = {}
        self._releases: set[asyncio.Task[None]] = set()
        """Publications of held passes under way (kept so that none is collected early)."""
        self._engine: AsyncEngine | None = None
        self._writes: GroupWriter | None = None
        """The usual command's write on PostgreSQL (made on first use: a path built without a
        database, as some tests do, never writes)."""

    def _check_roll_rate(
        self, game: LiveGame, side: str, action: dict[str, Any], submission: _Submission
    ) -> None:
        """Caps a side's race rolls (design note 2): rolls above the room's rate are refused
        before the engine sees them, so scripted clicking wins nothing. The buckets live in
        this process: a side whose members' sockets sit in two processes could roll at up to
        twice the rate (documented in docs/protocol.md)."""
        rule = RATE_CAPPED_ACTIONS.get(str(action.get("type")))
        if rule is None or submission.rate_checked:
            return
        submission.rate_checked = True
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
        metrics = self.metrics
        try:
            response = await self._submit(request)
        except ApiError as exc:
            metrics.labelled(metrics.commands, request.kind, exc.code).inc()
            if log.isEnabledFor(logging.DEBUG):
                log.debug("command refused", extra=self._log_fields(request, code=exc.code))
            raise
        result = "duplicate" if response.get("duplicate") else str(response["result"])
        metrics.labelled(metrics.commands, request.kind, result).inc()
        if log.isEnabledFor(logging.DEBUG):
            log.debug("command " + result,
                      extra=self._log_fields(request, seq=response.get("seq")))
        return response

    def _log_fields(self, request: CommandRequest, **more: Any) -> dict[str, Any]:
        """The structured fields of a command's log line."""
        held = self.live.get(request.game_id)
        return {"room_id": held.room_id if held else None, "game_id": request.game_id,
                "actor": request.actor, "side": request.side, "command_id": request.command_id,
                "kind": request.kind, "action": (request.action or {}).get("type"), **more}

    async def _submit(self, request: CommandRequest) -> dict[str, Any]:
        submission = _Submission()
        async with self._lock(request.game_id):
            for _attempt in range(self.settings.command_retries):
                fresh = request.kind in ("claim", STAND_IN)  # presence is read afresh
                held = None if fresh else self.live.get(request.game_id)
                try:
                    if held is not None:
                        try:
                            return await self._attempt(request, held, submission)
                        except ApiError as exc:
                            if exc.code in FINAL_REFUSALS:
                                raise
                            self.live.drop(request.game_id)  # confirm from a fresh read
                        except _Conflict:
                            self.metrics.version_conflicts.inc()
                            self.live.drop(request.game_id)  # stale or a duplicate: read
                    return await self._attempt(request, None, submission)
                except _Conflict:
                    self.metrics.version_conflicts.inc()
                    self.live.drop(request.game_id)
                    await asyncio.sleep(0.005)
        raise ApiError("conflict", "the game changed too often; send the command again", 409)

    async def _attempt(
        self, request: CommandRequest, held: LiveGame | None, submission: _Submission
    ) -> dict[str, Any]:
        # A held game on PostgreSQL needs no connection of SQLAlchemy's: its write is the one
        # statement, on the driver's own pool (app.raw_pool).
        opened: AbstractAsyncContextManager[AsyncConnection | None] = (
            nullcontext() if held is not None and self.db.raw is not None else self._connect()
        )
        async with opened as conn:
            if held is None:
                assert conn is not None
                game, first, seat_side = await self._read(conn, request)
                if first is not None:
                    return {**first, "duplicate": True}
            else:
                game, seat_side = held, request.side
            # A person's write re-checks seat and session in the same statement: both may end
            # between this process's read (or its held copy) and the write.
            seat_guard = request.actor not in (SERVER_ACTOR, COMPUTER_ACTOR)
            self._check(request, game, seat_side)
            early = False
            if request.kind == "action" and seat_guard and _is_pass(request):
                hold = active(game)
                if hold is not None and hold.side == request.side:
                    return _scheduled(hold.seq)  # its pass is written, shown at its time
                early = hold is None and self._early_pass(request, game)
            if request.kind in (*FORFEITS, STAND_IN):
                if request.kind in ("claim", STAND_IN):  # the other side must be gone
                    assert conn is not None  # claims are never held
                    await self._check_claim(conn, game, request.side)
                hold = active(game)
                if hold is not None:  # the game ends (or changes hands) after the pass shows
                    await asyncio.sleep((hold.until - utcnow()).total_seconds())
                commit = await self._write(conn, game, request, None, [], seat_guard)
            else:
                applied, events = self._apply(game, request, submission)
                if early and applied[0].outcome(applied[2]) is not None:
                    # A pass that ends the game is not held (the end is no secret to keep):
                    # the server applies it at its time instead.
                    return await self._schedule_pass(conn, game, request, seat_guard)
                commit = await self._write(
                    conn, game, request, applied, events, seat_guard, early=early
                )
        after = commit.after
        self.live.put(after)
        if commit.message is not None:
            if request.reply_to is not None:
                commit.message[ACK] = {"to": request.reply_to, "answer": commit.response}
            await self.broadcaster.publish(game.room_id, commit.message)
        if commit.held_message is not None:
            self._release_at(after, commit.held_message)
        next_at = commit.next_at
        self.deadlines.note(after.id, after.room_id, after.version, after.deadlines, next_at)
        if next_at is not None:
            self.wake_timers(next_at)
        return commit.response

    def _release_at(self, game: LiveGame, message: Callable[[], dict[str, Any]]) -> None:
        """Publishes the held part of a commit at its time. A process that dies first loses
        only this delivery: the row shows the pass by time, and every socket's heartbeat
        brings it (design note 7)."""
        assert game.hold is not None
        loop = asyncio.get_running_loop()
        delay = max(0.0, (game.hold.until - utcnow()).total_seconds())
        version = game.version

        async def release() -> None:
            kept = self.live.get(game.id)
            if kept is not None and kept.version == version:
                self.live.put(replace(kept, hold=None))
            await self.broadcaster.publish(game.room_id, message())

        def start() -> None:
            task = loop.create_task(release())
            self._releases.add(task)
            task.add_done_callback(self._releases.discard)

        loop.call_later(delay, start)

    def _early_pass(self, request: CommandRequest, game: LiveGame) -> bool:
        """Whether this person's pass comes before the window's ``pass_at`` (design note 1):
        shown at once, it would tell the other side that the hand held a card that could
        answer, since an empty hand is passed by the server only at ``pass_at``. So it is
        written now and held until then. A pass that is not legal now falls through to the
        usual refusal."""
        if game.options.get("fast_play"):
            return False
        due = service.pass_at(game.deadlines, request.side)
        if due is None or due <= utcnow():
            return False
        return {"side": request.side, "type": PASS_TYPE} in self._legal(game, request.side)

    def _legal(self, game: LiveGame, side: Side, person: bool = True) -> list[dict[str, Any]]:
        """``side``'s legal actions now: as the commit that made the state computed them, or,
        for a person while a pass is held, what the hold allows (the server's own deadlines
        all fall after it, and act on the game as written)."""
        hold = active(game) if person else None
        if hold is not None:
            return hold.legal(side)
        if game.legal is not None:
            return game.legal[side]
        return service.engine_for(self.catalog, game)[0].legal_actions(game.state, side)

    async def _schedule_pass(
        self, conn: AsyncConnection | None, game: LiveGame, request: CommandRequest,
        seat_guard: bool,
    ) -> dict[str, Any]:
        """Sets the side's deadline to pass at ``pass_at`` (a new version, no event): the timer
        runner then applies it through this path as ``pass:<version>:<side>``, exactly as an
        automatic pass. Answers ``scheduled``; the events follow when it is applied."""
        deadline = game.deadlines[request.side]
        response = _scheduled(game.seq)
        if deadline.get("acts") == "pass":  # already the server's to pass then
            return response
        deadlines = service.with_scheduled_pass(game.deadlines, request.side)
        due = service.next_deadline(deadlines)
        values = {"version": game.version + 1, "deadlines": deadlines, "next_deadline_at": due}
        seat = self._guard_values(game, request) if seat_guard else None
        async with self._transaction(conn) as tx:
            updated = await tx.execute(
                UPDATE_GAME[seat is not None],
                {**values, "w_id": game.id, "w_version": game.version, **(seat or {})},
            )
            if updated.rowcount != 1:
                await tx.rollback()
                raise _Conflict
            await tx.commit()
        self.live.put(replace(game, version=game.version + 1, deadlines=deadlines, hold=None))
        self.deadlines.note(game.id, game.room_id, game.version + 1, deadlines, due)
        if due is not None:
            self.wake_timers(due)
        return response

    @staticmethod
    def _guard_values(game: LiveGame, request: CommandRequest) -> dict[str, str]:
        return {"w_room": game.room_id, "w_actor": request.actor, "w_side": request.side,
                "w_session": request.session_id or ""}

    async def _read(
        self, conn: AsyncConnection, request: CommandRequest
    ) -> tuple[LiveGame, dict[str, Any] | None, str | None]:
        """One round trip: the game (with its pitch count, for the next pitch's number), the
        first answer to this command id if there was one, and the actor's seat."""
        found = (
            await conn.execute(
                select(
                    _GAMES.c.id, _GAMES.c.room_id, _GAMES.c.kind, _GAMES.c.number,
                    _GAMES.c.options, _GAMES.c.seed, _GAMES.c.seed_hash, _GAMES.c.status,
                    _GAMES.c.version, _GAMES.c.seq, _GAMES.c.draw_count, _GAMES.c.deadlines,
                    _GAMES.c.result, _GAMES.c.state, _GAMES.c.timers, _GAMES.c.rules_version,
                    _GAMES.c.stand_in, _GAMES.c.computer, _GAMES.c.hold, Command.response,
                    select(func.count()).select_from(Pitch).where(Pitch.game_id == _GAMES.c.id)
                    .scalar_subquery().label("pitch_count"),
                    Seat.side, _SESSIONS.c.id.label("session"),
                )
                .outerjoin(
                    Command,
                    and_(
                        Command.game_id == _GAMES.c.id,
                        Command.actor == request.actor,
                        Command.command_id == request.command_id,
                    ),
                )
                .outerjoin(
                    Seat,
                    and_(
                        Seat.room_id == _GAMES.c.room_id,
                        Seat.account_id == request.actor,
                        Seat.left_at.is_(None),
                    ),
                )
                .outerjoin(_SESSIONS, _SESSIONS.c.id == (request.session_id or ""))
                .where(_GAMES.c.id == request.game_id)
            )
        ).first()
        if found is None:
            raise ApiError("not_found", "no such game", 404)
        if request.session_id is not None and found.session is None:
            raise ApiError("session_ended", "this device's session has ended; sign in again", 401)
        game = LiveGame(
            id=found.id, room_id=found.room_id, kind=found.kind, number=found.number,
            options=found.options, seed=found.seed, seed_hash=found.seed_hash,
            status=found.status, version=found.version, seq=found.seq,
            draw_count=found.draw_count, deadlines=found.deadlines or {}, result=found.result,
            timers=found.timers or {}, state=found.state, stand_in=found.stand_in,
            computer=found.computer, pitch_count=found.pitch_count,
        )
        if game.status == "live":  # a finished game's state is only read by claims' views
            engine = service.engine_for(self.catalog, game)[0]
            service.check_rules(engine, game.id, found.rules_version)
            game.state = engine.from_json(found.state)
            hold = active(found)
            if hold is not None:
                game.hold = replace(hold, state=engine.from_json(hold.state_json))
        return game, found.response, found.side

    def _check(self, request: CommandRequest, game: LiveGame, seat_side: str | None) -> None:
        if game.status != "live":
            raise ApiError("game_over", "the game is over", 409)
        if request.expected_version is not None and request.expected_version != game.version:
            raise ApiError("stale_version", "the deadline was already handled", 409)
        seen = visible_seq(game)
        if request.expected_seq is not None and request.expected_seq != seen:
            raise ApiError(
                "stale_seq",
                f"you acted on event {request.expected_seq}; the game is at {seen}",
                409,
            )
        if request.actor == COMPUTER_ACTOR:
            if playing_computer(game) != request.side:
                raise ApiError("not_seated", "the computer does not play that side", 403)
        elif request.kind != "timeout" and request.actor != SERVER_ACTOR:
            if request.side == game.stand_in:
                raise ApiError("computer_side", "the computer plays that side for the rest of "
                               "this game", 409)
            if seat_side is None:
                raise ApiError("not_seated", "only a member of a side may act", 403)
            if seat_side != request.side:
                raise ApiError("wrong_side", f"you sit on the {seat_side} side", 403)

    async def _check_claim(self, conn: AsyncConnection, game: LiveGame, side: Side) -> None:
        """A side may claim the game when every member of the other side has been gone for
        the grace period (disconnected or left). Presence is each seat's ``last_seen_at``,
        refreshed by its open sockets every heartbeat, so it holds across processes. The
        computer (solo play) never leaves, so its side cannot be claimed."""
        if playing_computer(game) == other_side(side):
            raise ApiError("opponent_present", "the computer never leaves the table", 409)
        latest = await conn.scalar(
            select(func.max(Seat.last_seen_at)).where(
                Seat.room_id == game.room_id, Seat.side == other_side(side)
            )
        )
        grace = timedelta(seconds=self.settings.grace_seconds)
        if latest is not None and _aware(latest) > utcnow() - grace:
            raise ApiError("opponent_present", "the other side is still here", 409)

    def _apply(
        self, game: LiveGame, request: CommandRequest, submission: _Submission
    ) -> tuple[Applied, list[Event]]:
        engine, dice = service.engine_for(self.catalog, game)
        state = game.state
        legal = self._legal(game, request.side,
                            person=request.actor not in (SERVER_ACTOR, COMPUTER_ACTOR))
        if request.kind == "timeout":
            action = engine.timeout_action(state, request.side, legal) if legal else None
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
            # The server's and the computer's moves are paced by their delays, not by the cap.
            if request.actor not in (SERVER_ACTOR, COMPUTER_ACTOR):
                self._check_roll_rate(game, request.side, action, submission)
        try:
            new_state, events = engine.apply(state, action)
        except EngineError as exc:
            raise ApiError(exc.code, str(exc), 422) from exc
        return (engine, dice, new_state, action), events

    def _settle(
        self, engine: GameEngine[Any], game: LiveGame, state: Any, at: datetime,
        held: bool = False,
    ) -> tuple[dict[str, Any] | None, service.Legal | None, dict[str, Any]]:
        """What ``state`` leads to: its result, each side's legal actions, and its deadlines
        with the timers running from ``at`` (``held``: the state after a held pass)."""
        outcome = engine.outcome(state)
        if outcome is not None:
            return outcome.to_json(), None, {}
        legal = service.legal_by_side(engine, state)
        deadlines = service.compute_deadlines(
            engine, state, game.timers, at, game.options, computer=playing_computer(game),
            pause=pause_fraction(game.seed, game.id, game.version + 1, held=held),
            legal_now=legal, think_ms=computer_think_ms(self.catalog, game),
        )
        return None, legal, deadlines

    def _fold(
        self, engine: GameEngine[Any], dice: RecordingDice, game: LiveGame, state: Any,
        legal: service.Legal, deadlines: dict[str, Any], now: datetime,
    ) -> _Fold | None:
        """The pass the server is certain to make next (a side whose only legal action is
        ``pass`` while the other side waits), applied now: it goes into this commit and is
        held until its ``pass_at``. ``None`` when there is none, or when it would end the
        game (the timer applies that one, as before)."""
        found = next((s for s, d in deadlines.items()
                      if d.get("acts") == "pass" and not legal[other_side(parse_side(s))]), None)
        if found is None:
            return None
        side = parse_side(found)
        until = service.due_at(deadlines[side])
        drawn = dict(dice.draws)
        after, events = engine.apply(state, {"side": side, "type": PASS_TYPE})
        settled = self._settle(engine, game, after, max(until, now), held=True)
        if settled[0] is not None:
            dice.draws = drawn  # not written: the timer draws them again
            return None
        return _Fold(side, until, after, events, *settled)

    async def _write(
        self,
        conn: AsyncConnection | None,
        game: LiveGame,
        request: CommandRequest,
        applied: Applied | None,
        events: list[Event],
        seat_guard: bool,
        early: bool = False,
    ) -> _Commit:
        """Writes one command atomically (one statement on PostgreSQL unless the game ends, a
        transaction otherwise) and commits; returns what to publish now and at the held
        pass's time, the command's answer and the game as it now stands.

        ``early``: the command is a person's pass before its ``pass_at``; it is written now
        and all of it held until then. Otherwise a pass the server is certain to make next is
        written with it and held (:meth:`_fold`)."""
        now = utcnow()
        events = list(events)
        held_events: list[Event] = []
        hold: Hold | None = None
        folded: _Fold | None = None
        own: int | None = None
        """How many of the events are this command's own (the rest: the folded pass's)."""
        stand_in = game.stand_in
        if applied is not None:
            engine, dice, new_state, action = applied
            if early:  # viewers keep seeing the game as it is until the pass's time
                until = service.pass_at(game.deadlines, request.side)
                assert until is not None
                hold = Hold(until, game.seq, engine.to_json(game.state),
                            service.public_deadlines(game.deadlines), request.side, game.state)
                events, held_events = [], events
            result, legal, deadlines = self._settle(
                engine, game, new_state, now if hold is None else hold.until, early)
            if not early and result is None and legal is not None:
                folded = self._fold(engine, dice, game, new_state, legal, deadlines, now)
            if folded is not None:
                own = len(events)
                if folded.until > now:
                    hold = Hold(folded.until, game.seq + len(events),
                                engine.to_json(new_state), service.public_deadlines(deadlines),
                                folded.side, new_state)
                    held_events = folded.events
                else:  # its time has come already: nothing to hold
                    events += folded.events
                new_state, result = folded.state, folded.result
                legal, deadlines = folded.legal, folded.deadlines
            state_json = engine.to_json(new_state)
            draws = service.draw_values(game.id, dice)
        elif request.kind == STAND_IN:  # the state stays; from now on the computer plays there
            engine = service.engine_for(self.catalog, game)[0]
            new_state, action, state_json, result = game.state, {"type": STAND_IN}, None, None
            stand_in = other_side(request.side)
            events.append(Event(STAND_IN, {"side": stand_in}))
            legal = service.legal_by_side(engine, new_state)
            deadlines = service.compute_deadlines(
                engine, new_state, game.timers, now, game.options, computer=stand_in,
                pause=pause_fraction(game.seed, game.id, game.version + 1), legal_now=legal,
            )
            draws = []
        else:  # a claim or a resign: the engine's state stays, the game ends by forfeit
            engine = service.engine_for(self.catalog, game)[0]
            new_state, action, state_json = game.state, {"type": request.kind}, None
            result = service.forfeit_result(request.kind, request.side)
            deadlines, draws, legal = {}, [], None
        if result is not None:
            if stand_in is not None:  # finished by the computer: rated as abandoned by that side
                result = {**result, "stand_in": stand_in}
            events += service.closing_events(game, result)
        stored = service.stored_events(game.seq + 1, [*events, *held_events])
        shown, kept = stored[:len(events)], stored[len(events):]
        last_seq = game.seq + len(stored)
        pitch_count = game.pitch_count
        own_seq = last_seq if own is None else game.seq + own
        applied_answer = {"result": "applied", "first_seq": game.seq + 1, "seq": own_seq,
                          "duplicate": False}
        response = _scheduled(game.seq) if early else applied_answer
        values: dict[str, Any] = {
            "version": game.version + 1, "seq": last_seq, "deadlines": deadlines,
            "next_deadline_at": service.next_deadline(deadlines),
            "draw_count": game.draw_count + len(draws),
            "hold": None if hold is None else hold.to_json(),
        }
        if state_json is not None:
            values["state"] = state_json
        if stand_in != game.stand_in:
            values["stand_in"] = stand_in
        if result is not None:
            values.update(status="finished", result=result, finished_at=now)
        pitches = []
        plays = []
        for event in stored:
            if event["type"] == PITCH_EVENT:
                pitch_count += 1
                pitches.append(pitch_values(game.id, game.kind, event["seq"], pitch_count,
                                            event["data"]))
                plays += play_values(game.id, event["seq"], event["data"])
        commands = [{
            "game_id": game.id, "actor": request.actor, "command_id": request.command_id,
            "side": request.side, "action": action, "created_at": now,
            # an early pass's own row says what it made (the game's rebuild reads it)
            "response": applied_answer,
        }]
        if folded is not None:
            commands.append({
                "game_id": game.id, "actor": SERVER_ACTOR, "side": folded.side,
                "command_id": f"pass:{game.version + 1}:{folded.side}:with",
                "action": {"side": folded.side, "type": PASS_TYPE}, "created_at": now,
                "response": {"result": "applied", "first_seq": own_seq + 1, "seq": last_seq,
                             "duplicate": False},
            })
            self.metrics.labelled(self.metrics.passes_held, "server").inc()
        elif early:
            self.metrics.labelled(self.metrics.passes_held, "person").inc()
        seat = self._guard_values(game, request) if seat_guard else None
        appended = (service.event_values(game.id, stored), pitches, plays, draws, commands)
        # The usual command is one statement (together with other games' commands when the
        # database is behind: app.games.group_write); one that ends the game or hands a side
        # to the computer (rare) is a transaction of plain statements.
        writing = time.perf_counter()
        if result is None and request.kind != STAND_IN and self.db.raw is not None:
            try:
                if self._writes is None:
                    self._writes = GroupWriter(self.db.raw,
                                               self.metrics.write_batch_games.observe)
                moved = await self._writes.write(game.id, game.version, values, seat,
                                                 appended)
            except IntegrityError:  # the command id was used before: read again, answer again
                raise _Conflict from None
            if not moved:
                raise _Conflict
        else:
            async with self._transaction(conn) as tx:
                await self._write_transaction(tx, game, values, seat, appended, result, now)
        self.metrics.command_write_seconds.observe(time.perf_counter() - writing)
        after = replace(
            game, version=values["version"], seq=last_seq, draw_count=values["draw_count"],
            deadlines=deadlines, state=new_state, pitch_count=pitch_count,
            status=values.get("status", game.status), result=result, legal=legal,
            stand_in=stand_in, hold=hold,
        )
        if hold is None:
            views = service.per_viewer(engine, new_state, finished=result is not None,
                                       legal_now=legal)
            return _Commit(service.batch(after, shown, views), None, response, after,
                           values["next_deadline_at"])
        until = hold.until

        def held_message() -> dict[str, Any]:  # built at its time, off this command's path
            views = service.per_viewer(engine, after.state, finished=False, legal_now=legal)
            return service.batch_at(after, kept, views, until)

        if early:
            return _Commit(None, held_message, response, after, values["next_deadline_at"])
        shown_views = service.per_viewer(engine, hold.state, finished=False,
                                         allowed=hold.legal_by_side())
        # Its header as of ``now``, while the hold lasts: a write slower than the pause (a busy
        # server) would otherwise head the events before the pass with the seq after it, and
        # every socket would take the held events, published next, for ones it had.
        shown_message = service.batch_at(after, shown, shown_views, now)
        return _Commit(shown_message, held_message, response, after, values["next_deadline_at"])

    @asynccontextmanager
    async def _transaction(
        self, conn: AsyncConnection | None
    ) -> AsyncIterator[AsyncConnection]:
        """A connection in a transaction for a multi-statement write: ``conn`` itself, or, on
        PostgreSQL, where ``conn`` is in autocommit mode (see :meth:`_connect`) or absent,
        another one."""
        if conn is not None and conn.dialect.name != "postgresql":
            yield conn
            return
        async with self.db.engine.connect() as tx:
            yield tx

    def _connect(self) -> AsyncConnection:
        """A connection for one command. On PostgreSQL it runs in autocommit mode: the usual
        command is one atomic statement (:mod:`app.games.one_statement`), and a ``BEGIN`` would
        cost a round trip of its own; reads there need no transaction either, the version check
        in the write is what guards them."""
        if self._engine is None:
            engine = self.db.engine
            if engine.dialect.name == "postgresql":
                engine = engine.execution_options(isolation_level="AUTOCOMMIT")
            self._engine = engine
        return self._engine.connect()

    async def _write_transaction(
        self, conn: AsyncConnection, game: LiveGame, values: dict[str, Any],
        seat: dict[str, str] | None, appended: tuple[list[Any], ...],
        result: dict[str, Any] | None, now: datetime,
    ) -> None:
        """The write as a transaction of plain statements: SQLite, and the command that ends a
        game (it rates the players in the same transaction)."""
        updated = await conn.execute(
            UPDATE_GAME[seat is not None],
            {**values, "w_id": game.id, "w_version": game.version, **(seat or {})},
        )
        if updated.rowcount != 1:
            await conn.rollback()
            raise _Conflict
        events, pitches, plays, draws, command = appended
        await insert_values(conn, GameEvent, events)
        await insert_values(conn, Pitch, pitches)
        await insert_values(conn, PitchPlay, plays)
        await insert_values(conn, DiceDraw, draws)
        await insert_values(conn, Command, command)
        if result is not None:
            for bucket_key in [k for k in self._roll_buckets if k[0] == game.id]:
                del self._roll_buckets[bucket_key]
        try:
            if result is not None:  # the room and the ratings change in this transaction
                async with AsyncSession(bind=conn, expire_on_commit=False) as db:
                    await self.on_game_end.run(db, FinishedGame(
                        game_id=game.id, room_id=game.room_id, kind=game.kind,
                        options=game.options, result=result, finished_at=now,
                    ))
                    await db.flush()
            await conn.commit()
        except IntegrityError:
            # Same command id committed before (or by a concurrent request), or a lost version
            # race that slipped through on an engine without row versions: read again.
            await conn.rollback()
            raise _Conflict from None


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
