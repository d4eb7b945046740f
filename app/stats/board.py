"""The leaderboard page of one rating pool: established and provisional players, recent games.

One answer per pool (``"base-on-board:<tier>"`` or ``"bottom-of-the-9th"``), from the stored
ratings (:mod:`app.stats.store`) and the finished games:

- **Established**: :func:`app.stats.queries.leaderboard` (the rules of
  :func:`app.stats.ratings.leaderboard`): not provisional, last rated game at most
  ``active_days`` (30) old, highest display rating (mu − 3·sigma) first; ties by more games,
  then account id. ``rank`` is the place in this list.
- **Provisional**: players of the pool who are still provisional (fewer than 10 rated games, or
  sigma above 6.5), also only those whose last rated game is at most ``active_days`` old. They
  are not ranked against the established players (their rating is shown with a "?", as lichess
  does); ``rank`` is the place in their own list, most recently active first (ties: more games,
  then account id).
- **W / L / T** of a listed player: over its rated games of the pool (its ``rating_history``
  rows), from the side it sat on and the game's ``winner`` (a claimed game's winner is the
  claimant; ``winner`` ``None`` is a tie), so wins + losses + ties = games.
- **Recent games**: the last 20 finished games of the pool, newest first (finish time, then game
  id), rated or not, with the names seated on each side (``game_player``: guests included),
  the score and the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.games.models import Game, GamePlayer
from app.stats import queries, ratings
from app.stats.models import PlayerRating, RatingHistory

RECENT_GAMES = 20


async def provisional(
    db: AsyncSession, pool: str, now: datetime, limit: int = 50,
    active_days: int = ratings.ACTIVE_DAYS,
) -> list[dict[str, Any]]:
    """Provisional, recently active players of the pool, most recently active first."""
    rows = (await db.execute(
        select(PlayerRating, Account.name)
        .join(Account, Account.id == PlayerRating.account_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.last_played >= now - timedelta(days=active_days),
            or_(PlayerRating.games < ratings.MIN_GAMES,
                PlayerRating.sigma > ratings.PROVISIONAL_SIGMA),
        )
        .order_by(PlayerRating.last_played.desc(), PlayerRating.games.desc(),
                  PlayerRating.account_id)
        .limit(limit)
    )).all()
    return [
        {"rank": i + 1, "name": name,
         **ratings.Rating(row.mu, row.sigma, row.games, row.last_played).to_json()}
        for i, (row, name) in enumerate(rows)
    ]


async def records(db: AsyncSession, pool: str, names: Sequence[str]
                  ) -> dict[str, dict[str, int]]:
    """Wins, losses and ties over the rated games of the pool, for the named accounts."""
    if not names:
        return {}
    winner = Game.result["winner"].as_string()
    rows = (await db.execute(
        select(
            Account.name,
            func.count(RatingHistory.id),
            func.coalesce(func.sum(case((winner == GamePlayer.side, 1), else_=0)), 0),
            func.coalesce(func.sum(case((winner.is_(None), 1), else_=0)), 0),
        )
        .select_from(RatingHistory)
        .join(Account, Account.id == RatingHistory.account_id)
        .join(Game, Game.id == RatingHistory.game_id)
        .join(GamePlayer, (GamePlayer.game_id == RatingHistory.game_id)
              & (GamePlayer.account_id == RatingHistory.account_id))
        .where(RatingHistory.pool == pool, Account.name.in_(list(names)))
        .group_by(Account.name)
    )).all()
    return {
        name: {"wins": int(wins), "losses": int(games) - int(wins) - int(ties), "ties": int(ties)}
        for name, games, wins, ties in rows
    }


async def recent_games(db: AsyncSession, pool: str, limit: int = RECENT_GAMES
                       ) -> list[dict[str, Any]]:
    """The last ``limit`` finished games of the pool with the names on each side."""
    games = (await db.execute(
        select(Game.id, Game.result, Game.finished_at)
        .where(Game.status == "finished", queries._pool_filter(pool))
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(limit)
    )).all()
    ids = [game_id for game_id, _, _ in games]
    sides: dict[str, dict[str, list[str]]] = {g: {"away": [], "home": []} for g in ids}
    if ids:
        for game_id, side, name in (await db.execute(
            select(GamePlayer.game_id, GamePlayer.side, Account.name)
            .join(Account, Account.id == GamePlayer.account_id)
            .where(GamePlayer.game_id.in_(ids))
            .order_by(GamePlayer.game_id, GamePlayer.side, Account.name)
        )).all():
            sides[game_id].setdefault(side, []).append(name)
    out = []
    for game_id, result, finished in games:
        result = result or {}
        score = result.get("score") or {}
        out.append({
            "game_id": game_id, "away": sides[game_id]["away"], "home": sides[game_id]["home"],
            "score": {"away": int(score.get("away", 0)), "home": int(score.get("home", 0))},
            "winner": result.get("winner"),
            "finished_at": finished.isoformat() if finished else None,
        })
    return out


async def board(db: AsyncSession, pool: str, now: datetime, limit: int = 50) -> dict[str, Any]:
    """Everything the leaderboard page shows for one pool."""
    established = await queries.leaderboard(db, pool, now, limit)
    unsure = await provisional(db, pool, now, limit)
    wlt = await records(db, pool, [row["name"] for row in established + unsure])
    zero = {"wins": 0, "losses": 0, "ties": 0}
    return {
        "pool": pool,
        "rules": {"min_games": ratings.MIN_GAMES, "max_sigma": ratings.PROVISIONAL_SIGMA,
                  "active_days": ratings.ACTIVE_DAYS},
        "established": [{**row, **wlt.get(row["name"], zero)} for row in established],
        "provisional": [{**row, **wlt.get(row["name"], zero)} for row in unsure],
        "recent_games": await recent_games(db, pool),
    }
