"""Ratings in the database: updated when a game finishes, rebuilt from the game history.

:func:`record_game` runs inside the transaction that writes a game's result (the command path,
``app/games/commands.py``), so a finished game and its rating change commit together or not at
all. It reads the rated players' current rows (``FOR UPDATE`` on PostgreSQL, so two games
finishing at once with a shared player are rated one after the other), rates the game with
:func:`app.stats.ratings.rate_game` and writes the new ``rating`` rows and one
``rating_history`` row per rated player.

How a stored result maps to the rules of :mod:`app.stats.ratings`:

- ``reason == "claim"`` (the other side was gone for the grace period and this side claimed
  the game) and ``reason == "resign"`` (a side gave the game up) are **abandoned** games: a
  loss for the side that left or resigned. So is a game with ``stand_in`` (its people left
  and the computer finished it for them, whoever won).
- Any other result is **finished**; ``winner`` ``None`` is a tie.
- Games still ``live`` are unfinished and never rated.
- The players of a side are the game's ``game_player`` rows (everyone seated on it while the
  game ran); guest accounts are left out as the rules say.

:func:`rebuild` deletes both tables and replays every finished game in
:func:`app.stats.ratings.order_games` order (finish time, then game id); it gives the same
numbers as the incremental updates because those happen in commit order, which is finish-time
order (``finished_at`` is stamped in the committing transaction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.db import insert_rows
from app.games.hooks import FinishedGame
from app.games.models import Game, GamePlayer
from app.stats import ratings
from app.stats.models import PlayerRating, RatingHistory

DEFAULT_TIER = "pro"


def game_pool(kind: str, options: Mapping[str, Any] | None) -> str:
    """The rating pool of a game: Base on Board by tier, other kinds by kind."""
    if kind == "base-on-board":
        return ratings.pool(kind, str((options or {}).get("tier") or DEFAULT_TIER))
    return ratings.pool(kind)


def game_result(
    game_id: str, pool: str, teams: Mapping[str, Sequence[str]], result: Mapping[str, Any],
    finished_at: datetime | None,
) -> ratings.GameResult:
    winner = result.get("winner")
    if result.get("stand_in") in ("home", "away"):  # its people left; the computer finished
        return ratings.GameResult(game_id, pool, teams, "abandoned", left=result["stand_in"],
                                  finished_at=finished_at)
    if result.get("reason") in ("claim", "resign") and winner in ("home", "away"):
        left = "away" if winner == "home" else "home"
        return ratings.GameResult(game_id, pool, teams, "abandoned", left=left,
                                  finished_at=finished_at)
    return ratings.GameResult(game_id, pool, teams, "finished", winner=winner,
                              finished_at=finished_at)


def rating_preview(
    teams: Mapping[str, Sequence[str]], guests: set[str], computer: str | None
) -> str | None:
    """Why a game with these seats would not be rated (``None``: it would be): ``solo`` (the
    computer holds a side: only people are rated, :func:`record_game` sees one side), ``empty``
    (a side has nobody yet) or ``guest`` (a side has only guests). The same rule as
    :func:`app.stats.ratings.rated_teams`, asked before the game."""
    if computer is not None:
        return "solo"
    if any(not teams.get(side) for side in ("home", "away")):
        return "empty"
    if ratings.rated_teams({s: list(teams[s]) for s in ("home", "away")}, guests) is None:
        return "guest"
    return None


async def _teams(db: AsyncSession, game_id: str) -> tuple[dict[str, list[str]], set[str]]:
    rows = (await db.execute(
        select(GamePlayer.side, GamePlayer.account_id, Account.is_guest)
        .join(Account, Account.id == GamePlayer.account_id)
        .where(GamePlayer.game_id == game_id)
        .order_by(GamePlayer.side, GamePlayer.account_id)
    )).all()
    teams: dict[str, list[str]] = {"away": [], "home": []}
    guests: set[str] = set()
    for side, account_id, is_guest in rows:
        teams.setdefault(side, []).append(account_id)
        if is_guest:
            guests.add(account_id)
    return teams, guests


def _new_ratings(
    game: ratings.GameResult, table: Mapping[str, ratings.Rating], guests: set[str]
) -> dict[str, ratings.Rating]:
    ranks = ratings.outcome_ranks(game)
    if ranks is None:
        return {}
    return ratings.rate_game(game.teams, table, None, guests=guests, when=game.finished_at,
                             ranks=ranks)


async def record_game(
    db: AsyncSession, game_id: str, kind: str, options: Mapping[str, Any] | None,
    result: Mapping[str, Any], finished_at: datetime,
) -> dict[str, ratings.Rating]:
    """Rates one game that is finishing in ``db``'s transaction; returns the new ratings."""
    pool = game_pool(kind, options)
    teams, guests = await _teams(db, game_id)
    game = game_result(game_id, pool, teams, result, finished_at)
    if ratings.outcome_ranks(game) is None:
        return {}
    players = sorted({p for members in teams.values() for p in members} - guests)
    found = await db.execute(
        select(PlayerRating)
        .where(PlayerRating.pool == pool, PlayerRating.account_id.in_(players))
        .order_by(PlayerRating.account_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    stored = {row.account_id: row for row in found.scalars()}
    table = {
        p: ratings.Rating(r.mu, r.sigma, r.games, r.last_played) for p, r in stored.items()
    }
    new = _new_ratings(game, table, guests)
    await _write(db, game_id, pool, new, stored)
    return new


async def _write(
    db: AsyncSession, game_id: str, pool: str, new: Mapping[str, ratings.Rating],
    stored: Mapping[str, PlayerRating],
) -> None:
    inserts = []
    for player, rating in new.items():
        row = stored.get(player)
        if row is None:
            inserts.append(PlayerRating(account_id=player, pool=pool, mu=rating.mu,
                                        sigma=rating.sigma, games=rating.games,
                                        last_played=rating.last_played))
        else:
            row.mu, row.sigma = rating.mu, rating.sigma
            row.games, row.last_played = rating.games, rating.last_played
    await insert_rows(db, inserts)
    await insert_rows(db, [
        RatingHistory(game_id=game_id, account_id=player, pool=pool, mu=r.mu, sigma=r.sigma,
                      games=r.games, played_at=r.last_played)
        for player, r in new.items()
    ])
    await db.flush()


async def finished_games(db: AsyncSession) -> tuple[list[ratings.GameResult], set[str]]:
    """Every finished game as rating input, in rating order, and the guest accounts."""
    games = (await db.execute(
        select(Game.id, Game.kind, Game.options, Game.result, Game.finished_at)
        .where(Game.status == "finished")
    )).all()
    seats = (await db.execute(
        select(GamePlayer.game_id, GamePlayer.side, GamePlayer.account_id, Account.is_guest)
        .join(Account, Account.id == GamePlayer.account_id)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(Game.status == "finished")
        .order_by(GamePlayer.game_id, GamePlayer.side, GamePlayer.account_id)
    )).all()
    teams: dict[str, dict[str, list[str]]] = {}
    guests: set[str] = set()
    for game_id, side, account_id, is_guest in seats:
        teams.setdefault(game_id, {"away": [], "home": []}).setdefault(side, []).append(
            account_id)
        if is_guest:
            guests.add(account_id)
    results = [
        game_result(game_id, game_pool(kind, options), teams.get(game_id, {}),
                    result or {}, finished_at)
        for game_id, kind, options, result, finished_at in games
    ]
    return ratings.order_games(results), guests


async def rebuild(db: AsyncSession) -> dict[str, dict[str, ratings.Rating]]:
    """Recomputes ``rating`` and ``rating_history`` from the finished games; commits."""
    games, guests = await finished_games(db)
    await db.execute(delete(RatingHistory))
    await db.execute(delete(PlayerRating))
    pools: dict[str, dict[str, ratings.Rating]] = {}
    history: list[RatingHistory] = []
    for game in games:
        table = pools.setdefault(game.pool, {})
        new = _new_ratings(game, table, guests)
        table.update(new)
        history.extend(
            RatingHistory(game_id=game.game_id, account_id=p, pool=game.pool, mu=r.mu,
                          sigma=r.sigma, games=r.games, played_at=r.last_played)
            for p, r in new.items()
        )
    await insert_rows(db, [
        PlayerRating(account_id=p, pool=pool, mu=r.mu, sigma=r.sigma, games=r.games,
                     last_played=r.last_played)
        for pool, table in pools.items() for p, r in table.items()
    ])
    for start in range(0, len(history), 5000):
        await insert_rows(db, history[start:start + 5000])
    await db.commit()
    return pools


async def stored_ratings(db: AsyncSession) -> dict[str, dict[str, ratings.Rating]]:
    """Every stored rating: pool → account id → rating."""
    out: dict[str, dict[str, ratings.Rating]] = {}
    for row in await db.scalars(select(PlayerRating)):
        out.setdefault(row.pool, {})[row.account_id] = ratings.Rating(
            row.mu, row.sigma, row.games, row.last_played)
    return out


async def rate_finished_game(db: AsyncSession, game: FinishedGame) -> None:
    """Game-end hook (registered in ``main.py``): rates the game in the transaction that
    writes its result."""
    await record_game(db, game.game_id, game.kind, game.options, game.result, game.finished_at)
