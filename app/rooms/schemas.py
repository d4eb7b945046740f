"""Room options as the API accepts them.

Pydantic checks shapes and ranges here; the engine's ``new_game`` then checks that the options
make a game it can play. Keys this model does not know are passed to the engine unchanged (each
engine documents its own options in ``docs/rules/``, e.g. Bottom of the 9th's ``mode``,
``setup``, ``race``), so a new engine option needs no server change; values must be plain JSON
(or short lists of plain values). Team names and colours stay with the room: engines never see
them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.games.computer import DEFAULT_THINK_MS, MAX_THINK_MS, MIN_THINK_MS
from app.validation import ApiModel

SideName = Literal["home", "away"]
Colour = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")


TEAM_KEYS = ("home_name", "away_name", "home_color", "away_color")
_PLAIN = (str, int, float, bool, type(None))


class GameOptions(ApiModel):
    model_config = ConfigDict(extra="allow")

    home_name: str | None = Field(None, min_length=1, max_length=24)
    away_name: str | None = Field(None, min_length=1, max_length=24)
    home_color: str | None = Colour
    away_color: str | None = Colour
    innings: Literal[3, 5, 7, 9] | None = None
    tier: Literal["lite", "lite-extended", "pro"] | None = None
    bats_first: SideName | None = None
    fast_play: bool | None = Field(
        None, description="Skip response windows nobody can use (leaks timing; see NOTES)"
    )

    @model_validator(mode="after")
    def _plain_extras(self) -> GameOptions:
        for key, value in (self.model_extra or {}).items():
            values = value if isinstance(value, list) and len(value) <= 20 else [value]
            if len(key) > 40 or not all(isinstance(v, _PLAIN) for v in values):
                raise ValueError(f"option {key!r} must be a short key with a plain value")
        return self

    def for_engine(self) -> dict[str, Any]:
        """Everything but the team names and colours, which are the server's, not the rules'."""
        return self.model_dump(exclude_none=True, exclude=set(TEAM_KEYS))

    def teams(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True, include=set(TEAM_KEYS))


class Timers(ApiModel):
    """Seconds before the server acts for a side; unset ones take the server's defaults
    (``DEFAULT_RESPONSE_SECONDS``, ``DEFAULT_ROLL_SECONDS``)."""

    model_config = ConfigDict(extra="forbid")

    response_seconds: float | None = Field(None, ge=0.2, le=600)
    roll_seconds: float | None = Field(None, ge=0.2, le=600)
    auto_pass_ms: int | None = Field(
        None, ge=0, le=10_000,
        description="Pause before the server passes for a side that can only pass (AUTO_PASS_MS)",
    )
    computer_delay_ms: int | None = Field(
        None, ge=0, le=10_000,
        description="Pause before each move of the computer in solo play (COMPUTER_DELAY_MS)",
    )


class ComputerSeat(ApiModel):
    model_config = ConfigDict(extra="forbid")

    side: SideName | None = Field(
        None, description="The side the computer plays (Bottom of the 9th: implied by its "
        "solo mode)")
    level: Literal["easy", "normal", "hard"] = "normal"
    think_ms: int = Field(
        DEFAULT_THINK_MS, ge=MIN_THINK_MS, le=MAX_THINK_MS,
        description="How long a level that searches (Base on Board's hard) thinks over each "
        "move, in ms; the computer's pause (computer_delay_ms) includes it")


class RoomClubs(ApiModel):
    """The club each side plays for (club id or code); a side without one is a pick-up side
    anyone may join."""

    model_config = ConfigDict(extra="forbid")

    home: str | None = Field(None, min_length=1, max_length=32)
    away: str | None = Field(None, min_length=1, max_length=32)


class RoomCreate(ApiModel):
    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="base-on-board or bottom-of-the-9th")
    options: GameOptions = Field(default_factory=GameOptions)
    timers: Timers = Field(default_factory=Timers)
    private: bool = Field(False, description="Private rooms are reachable by invite link only")
    side: SideName | None = Field(None, description="Seat the creator on this side")
    computer: ComputerSeat | None = Field(
        None, description="Play against the computer: its side and level (unrated)")
    clubs: RoomClubs | None = Field(
        None, description="Club against club, or a club against a pick-up side: only a "
        "club's members may sit on its side; the creator must be in one of the clubs")


class JoinRequest(ApiModel):
    model_config = ConfigDict(extra="forbid")

    side: SideName
    invite: str | None = Field(
        None, max_length=64,
        description="The side's invitation token: needed to join once a game has started",
    )


class InviteOut(BaseModel):
    side: SideName
    token: str
    link: str = Field(description="The room's page with this side's invitation in the address")


class SeatOut(BaseModel):
    account_id: str
    name: str
    side: SideName
    joined_at: datetime
    connected: bool = Field(
        description="A socket of this seat was seen within three presence heartbeats"
    )


class RoomOut(BaseModel):
    id: str
    kind: str
    options: dict[str, Any]
    teams: dict[str, Any]
    timers: dict[str, Any]
    private: bool
    status: Literal["open", "live", "finished"]
    created_by: str
    invite_link: str
    ws_url: str
    current_game_id: str | None
    games_played: int
    seats: list[SeatOut]
    computer_side: SideName | None = Field(
        None, description="The side the computer plays (solo play), else null"
    )
    computer_level: Literal["easy", "normal", "hard"] | None = Field(
        None, description="How well the computer plays, when it plays a side")
    computer_think_ms: int | None = Field(
        None, description="How long the computer may think over a move (used by levels that "
        "search: Base on Board's hard), when it plays a side")
    rematch_offer: SideName | None = Field(
        None, description="The side that offered a rematch the other has not accepted yet"
    )
    clubs: dict[str, Any] = Field(
        default_factory=dict,
        description="Side → {id, name, code, colors} of the club it plays for")
    description: str = Field(
        "", description="Notes for the lobby, e.g. 'fast play' when that option is on"
    )
    created_at: datetime
