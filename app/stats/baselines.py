"""Precomputed analysis tables: what ``/api/analysis/*`` answers, computed away from requests.

Analysis over many games (run expectancy, win probability, card value, dice fairness) costs
seconds of CPU and memory that grows with the number of games. So no request computes it: a
job (``bob analysis refresh``, in its own process) computes a small fixed set of tables and
stores them in ``analysis_table``, and the endpoints read one row.

- **Simulated** baselines: :data:`SIMULATED_GAMES` games of ``bob simulate``'s policies (seed
  :data:`SIMULATED_SEED`) for each Base on Board tier and length (3, 5, 7, 9 innings) and for
  Bottom of the 9th. They depend only on the engines, so the job computes the missing ones.
- **Real** tables: the last :data:`REAL_GAMES` finished games of each pool, recomputed when
  games have finished since the last run.

The server runs the job in a child process at start-up and every ``ANALYSIS_REFRESH_SECONDS``
(one process of several, through a :class:`~app.stats.models.JobClaim`), so the event loop
never waits on it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import Database, insert_values, utcnow
from app.games.models import Game, Pitch
from app.games.pitches import pitch_out
from app.stats import analysis
from app.stats.models import AnalysisTable, JobClaim
from app.stats.queries import _tier_column
from app.stats.simulated import simulated_games

BOB, B9 = "base-on-board", "bottom-of-the-9th"
TIERS = ("lite", "lite-extended", "pro")
INNINGS = (3, 5, 7, 9)
SIMULATED_GAMES = 200
SIMULATED_SEED = 1
REAL_GAMES = 1000
JOB = "analysis"
Games = list[tuple[list[dict[str, Any]], str | None]]
"""Each game's pitch records and its winner."""


def simulated_key(kind: str, tier: str | None, innings: int | None) -> str:
    if kind == B9:
        return f"simulated:{B9}"
    return f"simulated:{kind}:{tier}:{innings}"


def real_key(table: str, kind: str, tier: str | None = None, innings: int | None = None) -> str:
    """``table`` is ``re`` (run expectancy), ``wp`` (win probability, per length), ``cv``
    (card value) or ``dice`` (per kind, every tier)."""
    parts = ["real", table, kind]
    if kind == BOB and tier is not None:
        parts.append(tier)
    if kind == BOB and innings is not None:
        parts.append(str(innings))
    return ":".join(parts)


def simulated_pools() -> list[tuple[str, str | None, int | None]]:
    return [(BOB, tier, innings) for tier in TIERS for innings in INNINGS] + [(B9, None, None)]


def _tables(games: Games, kind: str) -> dict[str, Any]:
    records = [r for r, _ in games]
    out: dict[str, Any] = {
        "re": analysis.run_expectancy(records).to_json(),
        "wp": [c.to_json() for c in analysis.win_probability(games)],
    }
    if kind == BOB:
        out["cv"] = [c.to_json() for c in analysis.card_value(records).values()]
    return out


def simulated_tables(
    kind: str, tier: str | None, innings: int | None, games_count: int = SIMULATED_GAMES
) -> dict[str, Any]:
    games = [
        (g.records, g.winner)
        for g in simulated_games(kind, games_count, SIMULATED_SEED, tier or "pro", innings or 9)
    ]
    return _tables(games, kind)


def dice_counts(games: Iterable[Iterable[dict[str, Any]]]) -> dict[str, dict[str, int]]:
    counts: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for records in games:
        for record in records:
            for roll in record.get("dice") or ():
                counts[str(roll.get("die"))][str(roll.get("face"))] += 1
    return {die: dict(faces) for die, faces in counts.items()}


def dice_table(kind: str, counts: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """The fairness of each die of ``kind`` from face counts (one game's, or many)."""
    return [
        analysis.fairness_of(die, faces, counts.get(die, {})).to_json()
        for die, faces in analysis.die_faces(kind).items()
    ]


async def finished_games(
    db: AsyncSession, kind: str, tier: str | None, limit: int
) -> list[tuple[list[dict[str, Any]], str | None, dict[str, Any]]]:
    """The last ``limit`` finished games of a pool: records, winner and options of each."""
    query = select(Game.id, Game.result, Game.options).where(
        Game.status == "finished", Game.kind == kind)
    if kind == BOB and tier is not None:
        query = query.where(_tier_column() == tier)
    found = (await db.execute(query.order_by(Game.finished_at.desc()).limit(limit))).all()
    ids = [g[0] for g in found]
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for start in range(0, len(ids), 500):
        for row in await db.scalars(
            select(Pitch).where(Pitch.game_id.in_(ids[start:start + 500]))
            .order_by(Pitch.game_id, Pitch.seq)
        ):
            by_game[row.game_id].append(pitch_out(row))
    return [(by_game[g[0]], (g[1] or {}).get("winner"), g[2] or {}) for g in found]


async def _real_tables(db: AsyncSession) -> dict[str, tuple[Any, int]]:
    out: dict[str, tuple[Any, int]] = {}
    for kind in (BOB, B9):
        dice: defaultdict[str, Counter[str]] = defaultdict(Counter)
        played = 0
        for tier in TIERS if kind == BOB else (None,):
            rows = await finished_games(db, kind, tier, REAL_GAMES)
            games: Games = [(records, winner) for records, winner, _ in rows]
            played += len(games)
            for die, faces in dice_counts(r for r, _ in games).items():
                dice[die].update(faces)
            tables = _tables(games, kind)
            out[real_key("re", kind, tier)] = (tables["re"], len(games))
            if kind == BOB:
                out[real_key("cv", kind, tier)] = (tables["cv"], len(games))
            for innings in INNINGS if kind == BOB else (None,):
                chosen = [
                    (records, winner) for records, winner, options in rows
                    if innings is None or int(options.get("innings", 9)) == innings
                ]
                cells = [c.to_json() for c in analysis.win_probability(chosen)]
                out[real_key("wp", kind, tier, innings)] = (cells, len(chosen))
        counts = {die: dict(faces) for die, faces in dice.items()}
        out[real_key("dice", kind)] = (dice_table(kind, counts), played)
    return out


async def _store(db: AsyncSession, tables: dict[str, tuple[Any, int]], now: datetime) -> None:
    if not tables:
        return
    await db.execute(delete(AnalysisTable).where(AnalysisTable.key.in_(list(tables))))
    await insert_values(db, AnalysisTable, [
        {"key": key, "payload": payload, "games": games, "computed_at": now}
        for key, (payload, games) in tables.items()
    ])


async def refresh(
    database_url: str, simulated: bool = True, real: bool = True,
    simulated_games_count: int = SIMULATED_GAMES,
) -> list[str]:
    """Computes the missing simulated baselines and, when games finished since the last run,
    the real tables; returns the keys it wrote. Run in its own process (``bob analysis
    refresh``): it takes seconds of CPU. ``simulated_games_count`` is for tests."""
    database = Database(database_url, pool_size=1)
    written: list[str] = []
    try:
        async with database.session() as db:
            have = set(await db.scalars(select(AnalysisTable.key)))
            now = utcnow()
            if simulated:
                missing = {
                    simulated_key(*pool): pool for pool in simulated_pools()
                    if simulated_key(*pool) not in have
                }
                tables = {
                    key: (simulated_tables(*pool, simulated_games_count), simulated_games_count)
                    for key, pool in missing.items()
                }
                await _store(db, tables, now)
                written += tables
            if real and await _new_games_since_last_run(db):
                tables = await _real_tables(db)
                await _store(db, tables, now)
                written += tables
            await db.commit()
    finally:
        await database.dispose()
    return written


async def _new_games_since_last_run(db: AsyncSession) -> bool:
    last_run = await db.scalar(
        select(func.max(AnalysisTable.computed_at)).where(AnalysisTable.key.like("real:%"))
    )
    latest = await db.scalar(select(func.max(Game.finished_at)).where(Game.status == "finished"))
    return last_run is None or (latest is not None and latest > last_run)


async def read(db: AsyncSession, keys: Sequence[str]) -> dict[str, AnalysisTable]:
    rows = await db.scalars(select(AnalysisTable).where(AnalysisTable.key.in_(list(keys))))
    return {row.key: row for row in rows}


async def claim(db: AsyncSession, period_seconds: float) -> bool:
    """Whether this process runs the job now: true for one process per period."""
    now = utcnow()
    claimed = await db.execute(
        update(JobClaim).where(JobClaim.name == JOB, JobClaim.until < now)
        .values(until=now + timedelta(seconds=period_seconds))
    )
    await db.commit()
    return bool(claimed.rowcount)  # type: ignore[attr-defined]
