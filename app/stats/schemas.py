"""Response models of the stats API (the OpenAPI document shows them with an example)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field


class BoardPlayer(BaseModel):
    rank: int = Field(description="Place in its own list (established or provisional)")
    name: str
    rating: int = Field(description="Display rating: 1500 + 20·(mu − 3·sigma), at least 0")
    ordinal: float = Field(description="mu − 3·sigma, 2 decimals (the order of the board)")
    mu: float
    sigma: float
    games: int = Field(description="Rated games in this pool")
    wins: int
    losses: int
    ties: int
    provisional: bool = Field(description="Fewer than 10 rated games or sigma above 6.5")
    last_played: datetime | None = Field(description="Finish time of the last rated game")


class BoardGame(BaseModel):
    game_id: str
    away: list[str] = Field(description="Names seated on the away side (guests included)")
    home: list[str] = Field(description="Names seated on the home side (guests included)")
    score: dict[Literal["away", "home"], int]
    winner: Literal["away", "home"] | None = Field(description="null: a tie")
    finished_at: datetime | None


class BoardRules(BaseModel):
    min_games: int = Field(description="Rated games before a rating is established")
    max_sigma: float = Field(description="Highest sigma of an established rating")
    active_days: int = Field(description="Days since the last rated game to be listed")


class Leaderboard(BaseModel):
    game: Literal["base-on-board", "bottom-of-the-9th"]
    tier: Literal["lite", "lite-extended", "pro"] | None = Field(
        description="Base on Board's tier; null for Bottom of the 9th")
    pool: str = Field(description="The rating pool: base-on-board:<tier> or bottom-of-the-9th")
    rules: BoardRules
    established: list[BoardPlayer] = Field(
        description="Established, recently active players by display rating (ties: more "
                    "games, then account id)")
    provisional: list[BoardPlayer] = Field(
        description="Provisional, recently active players, most recently active first; "
                    "not ranked against the established ones")
    recent_games: list[BoardGame] = Field(
        description="The last 20 finished games of the pool, newest first")
