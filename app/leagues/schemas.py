"""What the leagues API accepts and returns."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.rooms.schemas import GameOptions
from app.validation import ApiModel


class LeagueCreate(ApiModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=2, max_length=48,
                      description="Unique, case-insensitively; runs of spaces count as one")
    kind: str = Field(max_length=32, description="base-on-board or bottom-of-the-9th")
    options: GameOptions = Field(
        default_factory=GameOptions,
        description="The game options of every league game, as rooms accept them (team "
        "names and colours are the entrants')")
    entrant_type: Literal["club", "player"] = "club"
    rounds: Literal[1, 2] = Field(1, description="1: single round robin, 2: double")
    deadline_hours: int = Field(72, ge=1, le=720,
                                description="Hours each round has, one round after another")
    knockout: Literal[0, 2, 4] = Field(0, description="Entrants that go on to a knock-out "
                                       "stage after the season (0: none)")

    @field_validator("name")
    @classmethod
    def _visible_name(cls, name: str) -> str:
        """Spaces around and between words are tidied, so "  A   B " and "A B" are one name."""
        tidy = " ".join(name.split())
        if len(tidy) < 2:
            raise ValueError("a league's name needs at least two visible characters")
        return tidy


class EnterRequest(ApiModel):
    model_config = ConfigDict(extra="forbid")

    club_id: str | None = Field(None, min_length=1, max_length=32,
                                description="The club to enter (club leagues; you own it)")


class EntrantOut(BaseModel):
    id: int
    name: str
    club_id: str | None
    account_id: str | None
    code: str | None = Field(None, description="The club's short code")
    seed: int | None = Field(None, description="Knock-out seed (1 is the best), if it got in")


class LeagueOut(BaseModel):
    id: str
    name: str
    kind: str
    options: dict[str, Any]
    entrant_type: Literal["club", "player"]
    rounds: int
    deadline_hours: int
    knockout: int
    status: Literal["forming", "season", "knockout", "finished"]
    created_by: str
    created_at: datetime
    started_at: datetime | None
    entrants: list[EntrantOut]
    champion: int | None = Field(None, description="The entrant that won the league, once over")
    mine: list[int] = Field(default_factory=list,
                            description="Entrants the caller plays for (club member or self)")


class LeagueSummary(BaseModel):
    id: str
    name: str
    kind: str
    entrant_type: Literal["club", "player"]
    status: Literal["forming", "season", "knockout", "finished"]
    entrants: int
    created_at: datetime


class ScheduledGameOut(BaseModel):
    id: int
    stage: Literal["season", "knockout"]
    round: int
    home: int
    away: int
    opens_at: datetime | None
    deadline_at: datetime | None
    room_id: str | None
    game_id: str | None
    status: Literal["scheduled", "live", "final", "forfeit"]
    home_runs: int | None
    away_runs: int | None
    winner: int | None
    decided_by: str | None
    finished_at: datetime | None
    play_url: str | None = Field(None, description="The room, when the caller plays this open "
                                 "game for one of its sides")
    box_score_url: str | None = Field(None, description="The game's page, once it has a game")


class StandingOut(BaseModel):
    rank: int
    entrant_id: int
    name: str
    games: int
    wins: int
    losses: int
    ties: int
    pct: float
    games_behind: float
    runs_for: int
    runs_against: int
    run_diff: int
    streak: str
    forfeit_losses: int


class LeaderOut(BaseModel):
    rank: int
    account_id: str
    name: str
    value: float
    of: int = Field(description="What the rate is over (PA, cards, challenges) or games")


class LeaderCategory(BaseModel):
    key: str
    group: Literal["batting", "pitching", "cards"]
    leaders: list[LeaderOut]


class CardRate(BaseModel):
    code: str
    played: int
    succeeded: int
    rate: float | None


class LeadersOut(BaseModel):
    games: int = Field(description="League games whose stats count (finished games)")
    min_pa: int
    min_cards: int
    min_challenges: int
    categories: list[LeaderCategory]
    cards: list[CardRate]
