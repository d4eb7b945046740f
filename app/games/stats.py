"""A game's simple line score from the pitch table (the rating leaderboard is
:mod:`app.stats.board`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.hold import held_back
from app.games.models import Game, Pitch


async def line_score(db: AsyncSession, game: Game) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Runs per inning and half, summed from the pitch table (what may be seen now)."""
    query = select(Pitch.inning, Pitch.offense, Pitch.runs).where(Pitch.game_id == game.id)
    through = held_back(game)
    if through is not None:
        query = query.where(Pitch.seq <= through)
    rows = (await db.execute(query.order_by(Pitch.seq))).all()
    innings: dict[int, dict[str, int | None]] = {}
    runs = {"home": 0, "away": 0}
    for inning, offense, scored in rows:
        line = innings.setdefault(inning, {"away": None, "home": None})
        line[offense] = (line[offense] or 0) + scored  # who bats first is a room option
        runs[offense] = runs.get(offense, 0) + scored
    return [{"inning": i, **innings[i]} for i in sorted(innings)], runs
