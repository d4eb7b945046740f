"""What the game read endpoints return."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class InningLine(BaseModel):
    inning: int
    away: int | None = Field(description="Runs of the away side in this inning (the top half "
                             "unless home bats first); null when it did not bat")
    home: int | None = Field(description="Runs of the home side in this inning; null when it "
                             "did not bat")


class GameSummary(BaseModel):
    id: str
    room_id: str
    kind: str
    number: int
    status: str
    options: dict[str, Any]
    seq: int
    seed_hash: str
    result: dict[str, Any] | None
    players: dict[str, list[str]]
    line_score: list[InningLine]
    runs: dict[str, int]
    pitches: int
    started_at: datetime
    finished_at: datetime | None
    box_score: dict[str, Any] | None = Field(
        None, description="Line score (R/H/E), batting and pitching lines per side "
        "(app.stats.boxscore; conventions in docs/stats.md)")


class Draw(BaseModel):
    index: int
    n: int
    value: int


class Fairness(BaseModel):
    game_id: str
    seed_hash: str = Field(description="SHA-256 (hex) of the seed's bytes, shown at the start")
    seed: str | None = Field(description="Hex seed, revealed when the game is over")
    algorithm: str
    draw_count: int
    draws: list[Draw] = Field(description="Every draw, once the seed is revealed")


class PlayerLine(BaseModel):
    name: str
    games: int
    wins: int
    losses: int
    ties: int


class PlayerPage(PlayerLine):
    recent: list[dict[str, Any]]
