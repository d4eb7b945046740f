"""A club's page in a few SQL statements: record, runs, batting and pitching lines per pool,
ratings and recent games.

The lines are the player pages' aggregates (:func:`app.stats.queries.side_stat_columns`,
:func:`~app.stats.queries.side_steal_columns`) with the side taken from ``game_clubs``
instead of ``game_player``: the club's games come from the ``ix_game_clubs_club`` index, their
pitch rows by ``game_id``, and nothing per game or per pitch comes into Python. A game counts
when it is ``finished`` and the club played a side of it (against a club or a pick-up side).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.clubs.models import Club, ClubRating, GameClub
from app.games.models import Game, Pitch, PitchPlay
from app.stats import queries, ratings

RECENT = 20


@cache
def _lines_query() -> Any:
    columns = queries.side_stat_columns(GameClub.side)
    pool = queries.pool_column()
    return (
        select(pool.label("pool"), *(c.label(k) for k, c in columns.items()))
        .select_from(GameClub)
        .join(Game, Game.id == GameClub.game_id)
        .outerjoin(Pitch, Pitch.game_id == GameClub.game_id)
        .where(GameClub.club_id == bindparam("club_id"), Game.status == "finished")
        .group_by(pool)
    )


@cache
def _steals_query() -> Any:
    steals = queries.side_steal_columns(GameClub.side)
    pool = queries.pool_column()
    return (
        select(pool.label("pool"), steals["sb"].label("sb"), steals["cs"].label("cs"))
        .select_from(GameClub)
        .join(Game, Game.id == GameClub.game_id)
        .join(PitchPlay, PitchPlay.game_id == GameClub.game_id)
        .where(GameClub.club_id == bindparam("club_id"), Game.status == "finished")
        .group_by(pool)
    )


async def pool_lines(db: AsyncSession, club_id: str) -> dict[str, dict[str, Any]]:
    """Per pool the club played: record, runs, batting and pitching lines, and its rating
    (``None`` until a club-against-club game of that pool rated it)."""
    params = {"club_id": club_id}
    found = {row.pool: row for row in (await db.execute(_lines_query(), params)).all()}
    steals = {row.pool: (int(row.sb), int(row.cs))
              for row in (await db.execute(_steals_query(), params)).all()}
    rated = {row.pool: ratings.Rating(row.mu, row.sigma, row.games, row.last_played)
             for row in await db.scalars(select(ClubRating).where(ClubRating.club_id == club_id))}
    out: dict[str, dict[str, Any]] = {}
    for pool in sorted(set(found) | set(rated)):
        row = found.get(pool)
        values = {k: int(row._mapping[k]) if row is not None else 0 for k in queries.STAT_KEYS}
        sb, cs = steals.get(pool, (0, 0))
        rating = rated.get(pool)
        out[pool] = {"pool": pool, **queries.stat_lines(values, sb, cs),
                     "rating": None if rating is None else rating.to_json()}
    return out


def record(pools: dict[str, dict[str, Any]]) -> dict[str, int]:
    """The record over every pool."""
    keys = ("games", "wins", "losses", "ties", "runs_for", "runs_against")
    return {k: sum(int(p[k]) for p in pools.values()) for k in keys}


async def recent_games(db: AsyncSession, club_id: str, limit: int = RECENT
                       ) -> list[dict[str, Any]]:
    """The club's last finished games, newest first, with the opponent's club if it had one."""
    other = aliased(GameClub)
    rival = aliased(Club)
    rows = (await db.execute(
        select(Game.id, Game.kind, Game.options, Game.result, Game.finished_at, GameClub.side,
               rival.id, rival.name, rival.code)
        .select_from(GameClub)
        .join(Game, Game.id == GameClub.game_id)
        .outerjoin(other, (other.game_id == GameClub.game_id) & (other.side != GameClub.side))
        .outerjoin(rival, rival.id == other.club_id)
        .where(GameClub.club_id == club_id, Game.status == "finished")
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(limit)
    )).all()
    out = []
    for game_id, kind, options, result, finished, side, rival_id, rival_name, rival_code in rows:
        result = result or {}
        winner = result.get("winner")
        score = result.get("score") or {}
        out.append({
            "game_id": game_id, "link": f"/games/{game_id}", "kind": kind,
            "tier": (options or {}).get("tier"), "side": side,
            "outcome": "tie" if winner is None else ("win" if winner == side else "loss"),
            "score": score if isinstance(score, dict) else {},
            "opponent": None if rival_id is None else
            {"id": rival_id, "name": rival_name, "code": rival_code},
            "finished_at": finished.isoformat() if finished else None,
        })
    return out
