"""Pairing the play-now queue: nearest rating within a window that widens with waiting time.

A player enters with ``POST /api/play-now`` and is paired at once with the waiting player of
the same pool whose rating is nearest, if one is within the window; else they wait. Every
state poll (``GET /api/play-now``) of a waiting player tries again, so two players who entered
at the same moment (neither saw the other's uncommitted entry) and players whose windows have
since grown to reach each other are paired by the next poll, with no background job.

The window (display points, see :data:`app.stats.ratings.DISPLAY_SCALE`):
``WINDOW_BASE + WINDOW_STEP`` per full ``WINDOW_STEP_SECONDS`` the longer-waiting of the two
has waited: ±150 at once, ±400 after 50 s, ±1650 (anyone) after 300 s, the default lapse.
150 display points is 7.5 openskill points, less than one newcomer's uncertainty (sigma
8.33), so a fresh pairing is between players the ratings cannot tell far apart; widening by
50 every 10 s reaches ±450 after 60 s (from the middle of the 1300-2200 range people hold to
either end) and ±900 after 150 s (end to end), so nobody waits long only because few play at
their level.

Safe across processes and concurrent requests, on both backends:

- One entry per account: a unique ``account_id``.
- PostgreSQL: a pairing locks the caller's own row (``FOR UPDATE``, waiting for anyone pairing
  it right now, after which it reads as paired), then takes its chosen partner with
  ``FOR UPDATE SKIP LOCKED`` and ``room_id IS NULL`` re-checked under the lock: a row being
  paired by someone else is skipped, never taken twice. The lapse sweep skips locked rows too,
  so sweeps never wait on (or deadlock with) each other.
- SQLite: the first statement of the transaction is the lapse sweep, a write, so the whole
  pairing runs holding the database's one write lock (the driver begins the transaction at the
  first write; ``busy_timeout`` queues the others).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.editions.service import require_edition
from app.engine_catalog import EngineCatalog
from app.errors import ApiError
from app.matchmaking.models import PlayQueueEntry
from app.rooms import service as rooms
from app.rooms.models import Room
from app.rooms.schemas import GameOptions, RoomCreate
from app.settings import Settings
from app.stats import ratings
from app.stats.models import PlayerRating
from app.stats.store import DEFAULT_TIER, game_pool

WINDOW_BASE = 150
WINDOW_STEP = 50
WINDOW_STEP_SECONDS = 10.0
CANDIDATES = 200
"""Waiting entries of the pool read per pairing attempt, longest-waiting first."""
PLAY_NOW_OPTIONS = {"tier"}
"""The options a play-now entry may carry: what the lobby's Play now buttons choose."""


def window(waited_seconds: float) -> int:
    """The rating difference (display points) a pairing allows after this long a wait."""
    steps = int(max(0.0, waited_seconds) // WINDOW_STEP_SECONDS)
    return WINDOW_BASE + WINDOW_STEP * steps


def waited(entry: PlayQueueEntry, now: datetime) -> float:
    return (now - entry.since).total_seconds()


def choose(
    mine: PlayQueueEntry, candidates: list[PlayQueueEntry], now: datetime
) -> list[PlayQueueEntry]:
    """The candidates ``mine`` may be paired with, best first: nearest rating, then the
    longest-waiting. The window is that of whichever of the two has waited longer."""
    fits = [
        c for c in candidates
        if c.account_id != mine.account_id and c.room_id is None
        and abs(c.rating - mine.rating) <= window(max(waited(c, now), waited(mine, now)))
    ]
    return sorted(fits, key=lambda c: (abs(c.rating - mine.rating), c.since, c.id))


def entry_options(catalog: EngineCatalog, kind: str, options: GameOptions) -> dict[str, Any]:
    """Checks ``options`` as room creation does, and allows only what Play now offers."""
    engine = options.for_engine()
    extra = set(engine) - PLAY_NOW_OPTIONS
    if extra:
        raise ApiError("invalid_options", f"play now takes only {sorted(PLAY_NOW_OPTIONS)}; "
                       f"not {sorted(extra)}", 422)
    if kind == "base-on-board":
        engine = {"tier": engine.get("tier") or DEFAULT_TIER}
    elif engine:
        raise ApiError("invalid_options", f"{kind} has no tiers", 422)
    rooms.check_options(catalog, kind, engine)
    return engine


async def display_rating(db: AsyncSession, account_id: str, pool: str) -> int:
    row = await db.get(PlayerRating, (account_id, pool))
    if row is None:
        return ratings.Rating().display
    return ratings.Rating(row.mu, row.sigma, row.games, row.last_played).display


async def lapse(db: AsyncSession, now: datetime, timeout: float) -> None:
    """Deletes entries that waited, or stayed paired, longer than ``timeout`` seconds."""
    cutoff = now - timedelta(seconds=timeout)
    old = (
        select(PlayQueueEntry.id)
        .where(or_(
            (PlayQueueEntry.room_id.is_(None)) & (PlayQueueEntry.since < cutoff),
            PlayQueueEntry.paired_at < cutoff,
        ))
        .with_for_update(skip_locked=True)
    )
    await db.execute(delete(PlayQueueEntry).where(PlayQueueEntry.id.in_(old)))


async def own_entry(db: AsyncSession, account_id: str) -> PlayQueueEntry | None:
    return await db.scalar(
        select(PlayQueueEntry).where(PlayQueueEntry.account_id == account_id)
        .with_for_update().execution_options(populate_existing=True)
    )


@dataclass
class Outcome:
    entry: PlayQueueEntry | None
    room: Room | None = None
    message: dict[str, Any] | None = None
    """The broadcast of the game a pairing started: publish after commit."""


async def enter(
    db: AsyncSession, catalog: EngineCatalog, settings: Settings, account: Account,
    kind: str, options: GameOptions, now: datetime,
) -> Outcome:
    engine = entry_options(catalog, kind, options)
    if settings.require_edition_codes:
        edition = rooms.edition_needed(kind, engine)
        if edition is not None:
            await require_edition(db, account.id, edition)
    pool = game_pool(kind, engine)
    rating = await display_rating(db, account.id, pool)
    await lapse(db, now, settings.play_now_timeout_seconds)
    mine = await own_entry(db, account.id)
    if mine is not None and (mine.room_id is not None or mine.pool != pool):
        await db.delete(mine)  # paired before, or waiting for another pool: start afresh
        await db.flush()
        mine = None
    if mine is None:
        mine = PlayQueueEntry(account_id=account.id, pool=pool, kind=kind, options=engine,
                              rating=rating, since=now)
        db.add(mine)
        try:
            await db.flush()
        except IntegrityError as exc:  # the same account entering twice at once
            raise ApiError("queue_busy", "you are entering the queue already", 409) from exc
    return await pair(db, catalog, settings, mine, now)


async def state(
    db: AsyncSession, catalog: EngineCatalog, settings: Settings, account: Account,
    now: datetime,
) -> Outcome:
    """The caller's entry after lapsing old ones and, while it waits, one pairing attempt."""
    await lapse(db, now, settings.play_now_timeout_seconds)
    mine = await own_entry(db, account.id)
    if mine is None:
        return Outcome(None)
    if mine.room_id is not None:
        return Outcome(mine, await db.get(Room, mine.room_id))
    return await pair(db, catalog, settings, mine, now)


async def leave(db: AsyncSession, account: Account) -> None:
    await db.execute(delete(PlayQueueEntry).where(PlayQueueEntry.account_id == account.id))


async def pair(
    db: AsyncSession, catalog: EngineCatalog, settings: Settings, mine: PlayQueueEntry,
    now: datetime,
) -> Outcome:
    """Pairs ``mine`` (locked by the caller) with the best waiting partner it can lock."""
    cutoff = now - timedelta(seconds=settings.play_now_timeout_seconds)
    waiting = list(await db.scalars(
        select(PlayQueueEntry)
        .where(PlayQueueEntry.pool == mine.pool, PlayQueueEntry.room_id.is_(None),
               PlayQueueEntry.account_id != mine.account_id, PlayQueueEntry.since >= cutoff)
        .order_by(PlayQueueEntry.since, PlayQueueEntry.id)
        .limit(CANDIDATES)
    ))
    for candidate in choose(mine, waiting, now):
        partner = await db.scalar(
            select(PlayQueueEntry)
            .where(PlayQueueEntry.id == candidate.id, PlayQueueEntry.room_id.is_(None))
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
        if partner is None:
            continue  # being paired by someone else right now, or already paired
        room, message = await _open_room(db, catalog, settings, partner, mine)
        for entry in (partner, mine):
            entry.room_id, entry.paired_at = room.id, now
        await db.flush()
        return Outcome(mine, room, message)
    return Outcome(mine)


async def _open_room(
    db: AsyncSession, catalog: EngineCatalog, settings: Settings, first: PlayQueueEntry,
    second: PlayQueueEntry,
) -> tuple[Room, dict[str, Any] | None]:
    """A public room created by the longer-waiting player, both seated on random sides, its
    game started."""
    creator = await db.get(Account, first.account_id)
    other = await db.get(Account, second.account_id)
    assert creator is not None and other is not None
    body = RoomCreate(kind=first.kind, options=GameOptions(**first.options), private=False)
    room = await rooms.create_room(db, catalog, settings, creator, body)
    sides = ["home", "away"]
    if secrets.randbelow(2):
        sides.reverse()
    message = None
    for account, side in zip((creator, other), sides, strict=True):
        message = await rooms.join(db, catalog, room, account, side) or message
    return room, message
