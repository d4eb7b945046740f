"""Club ratings: openskill over each club as a one-entity team, per pool.

The rules are the players' (:mod:`app.stats.ratings`, :mod:`app.stats.store`): the same pools,
the same mapping of a stored result to finished / abandoned (a claim, a resignation or a
computer stand-in is a loss for the side that left), the same model and defaults. On top:

- A game is rated for clubs only when **both** sides played for a club (``game_clubs`` has a
  row for each). A club against a pick-up side counts in the club's record and lines but
  moves no club rating: the pick-up side has no rating to put against it. Solo rooms have no
  clubs at all (``app.clubs.seating.room_clubs``).
- :func:`rate_club_game` is a game-end hook (``main.py``), so a result and its club ratings
  commit together; the club rows are read ``FOR UPDATE`` on PostgreSQL, so two games of one
  club finishing at once are rated one after the other.
- :func:`rebuild` replays every finished club game in :func:`app.stats.ratings.order_games`
  order, as ``bob ratings rebuild`` does for players, and gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clubs.models import ClubRating, GameClub
from app.db import insert_rows
from app.games.hooks import FinishedGame
from app.games.models import Game
from app.stats import ratings
from app.stats.store import game_pool, game_result


def club_game(
    game_id: str, kind: str, options: Mapping[str, Any] | None, result: Mapping[str, Any],
    finished_at: datetime | None, clubs: Mapping[str, str],
) -> ratings.GameResult | None:
    """Rating input of one game whose sides played for ``clubs`` (side → club id), or
    ``None`` unless both sides had a club."""
    if set(clubs) != {"home", "away"}:
        return None
    teams = {"home": [clubs["home"]], "away": [clubs["away"]]}
    return game_result(game_id, game_pool(kind, options), teams, result, finished_at)


def _rate(game: ratings.GameResult, table: Mapping[str, ratings.Rating]
          ) -> dict[str, ratings.Rating]:
    ranks = ratings.outcome_ranks(game)
    if ranks is None:
        return {}
    return ratings.rate_game(game.teams, table, None, when=game.finished_at, ranks=ranks)


async def rate_club_game(db: AsyncSession, game: FinishedGame) -> dict[str, ratings.Rating]:
    """Game-end hook: rates the two clubs of a club-against-club game."""
    clubs = {side: club for side, club in (await db.execute(
        select(GameClub.side, GameClub.club_id).where(GameClub.game_id == game.game_id)
    )).all()}
    rated = club_game(game.game_id, game.kind, game.options, game.result, game.finished_at,
                      clubs)
    if rated is None or ratings.outcome_ranks(rated) is None:
        return {}
    found = await db.scalars(
        select(ClubRating)
        .where(ClubRating.pool == rated.pool, ClubRating.club_id.in_(sorted(clubs.values())))
        .order_by(ClubRating.club_id).with_for_update()
        .execution_options(populate_existing=True))
    stored = {row.club_id: row for row in found}
    table = {c: ratings.Rating(r.mu, r.sigma, r.games, r.last_played) for c, r in stored.items()}
    new = _rate(rated, table)
    for club_id, rating in new.items():
        row = stored.get(club_id)
        if row is None:
            db.add(ClubRating(club_id=club_id, pool=rated.pool, mu=rating.mu, sigma=rating.sigma,
                              games=rating.games, last_played=rating.last_played))
        else:
            row.mu, row.sigma = rating.mu, rating.sigma
            row.games, row.last_played = rating.games, rating.last_played
    await db.flush()
    return new


async def finished_club_games(db: AsyncSession) -> list[ratings.GameResult]:
    """Every finished club-against-club game as rating input, in rating order."""
    rows = (await db.execute(
        select(Game.id, Game.kind, Game.options, Game.result, Game.finished_at, GameClub.side,
               GameClub.club_id)
        .join(GameClub, GameClub.game_id == Game.id)
        .where(Game.status == "finished")
    )).all()
    games: dict[str, tuple[Any, ...]] = {}
    clubs: dict[str, dict[str, str]] = {}
    for game_id, kind, options, result, finished_at, side, club_id in rows:
        games[game_id] = (kind, options, result, finished_at)
        clubs.setdefault(game_id, {})[side] = club_id
    out = []
    for game_id, (kind, options, result, finished_at) in games.items():
        rated = club_game(game_id, kind, options, result or {}, finished_at, clubs[game_id])
        if rated is not None:
            out.append(rated)
    return ratings.order_games(out)


async def rebuild(db: AsyncSession) -> dict[str, dict[str, ratings.Rating]]:
    """Recomputes ``club_ratings`` from the finished games; commits."""
    pools = ratings.rebuild(await finished_club_games(db))
    await db.execute(delete(ClubRating))
    await insert_rows(db, [
        ClubRating(club_id=c, pool=pool, mu=r.mu, sigma=r.sigma, games=r.games,
                   last_played=r.last_played)
        for pool, table in pools.items() for c, r in table.items()
    ])
    await db.commit()
    return pools


async def stored(db: AsyncSession) -> dict[str, dict[str, ratings.Rating]]:
    """Every stored club rating: pool → club id → rating."""
    out: dict[str, dict[str, ratings.Rating]] = {}
    for row in await db.scalars(select(ClubRating)):
        out.setdefault(row.pool, {})[row.club_id] = ratings.Rating(
            row.mu, row.sigma, row.games, row.last_played)
    return out
