"""First, simple standings: games, wins, losses and ties per player from finished games.

A player is credited with a game when seated on a side when it started or joined during it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.games.models import Game, GamePlayer, Pitch


async def _finished_rows(db: AsyncSession, account_id: str | None = None) -> list[Any]:
    query = (
        select(Account.name, GamePlayer.side, Game.id, Game.kind, Game.result, Game.finished_at)
        .join(GamePlayer, GamePlayer.account_id == Account.id)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(Game.status == "finished")
        .order_by(Game.finished_at.desc())
    )
    if account_id is not None:
        query = query.where(Account.id == account_id)
    return list((await db.execute(query)).all())


def _tally(rows: list[Any]) -> dict[str, dict[str, Any]]:
    lines: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"games": 0, "wins": 0, "losses": 0, "ties": 0}
    )
    for name, side, _game_id, _kind, result, _finished in rows:
        line = lines[name]
        line["games"] += 1
        winner = (result or {}).get("winner")
        if winner is None:
            line["ties"] += 1
        elif winner == side:
            line["wins"] += 1
        else:
            line["losses"] += 1
    return lines


async def leaderboard(db: AsyncSession, limit: int) -> list[dict[str, Any]]:
    lines = _tally(await _finished_rows(db))
    ranked = sorted(lines.items(), key=lambda kv: (-kv[1]["wins"], kv[1]["losses"], kv[0]))
    return [{"name": name, **line} for name, line in ranked[:limit]]


async def line_score(db: AsyncSession, game: Game) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Runs per inning and half, summed from the pitch table."""
    rows = (
        await db.execute(
            select(Pitch.inning, Pitch.offense, Pitch.runs)
            .where(Pitch.game_id == game.id)
            .order_by(Pitch.seq)
        )
    ).all()
    innings: dict[int, dict[str, int | None]] = {}
    runs = {"home": 0, "away": 0}
    for inning, offense, scored in rows:
        line = innings.setdefault(inning, {"away": None, "home": None})
        line[offense] = (line[offense] or 0) + scored  # who bats first is a room option
        runs[offense] = runs.get(offense, 0) + scored
    return [{"inning": i, **innings[i]} for i in sorted(innings)], runs
