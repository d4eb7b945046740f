"""What the clubs API accepts and returns.

Names and codes are checked here, where they enter; uniqueness (case-insensitive for names) is
the database's, answered 409 by the service.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.validation import ApiModel

HexColour = Field(pattern=r"^#[0-9a-fA-F]{6}$")
CODE_PATTERN = r"^[A-Za-z0-9]{2,4}$"
Role = Literal["owner", "member"]


class ClubColors(ApiModel):
    model_config = ConfigDict(extra="forbid")

    primary: str = HexColour
    secondary: str = HexColour


def clean_name(value: str) -> str:
    """Trimmed, and free of control and format characters (a name is drawn on scoreboards
    and in other people's pages: no invisible or direction-changing characters)."""
    value = value.strip()
    if not value:
        raise ValueError("a club name needs at least one visible character")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in value):
        raise ValueError("a club name must not contain control characters")
    if len(value.casefold()) > 32:  # the case-folded key is stored too (ß is ss)
        raise ValueError("a club name must be at most 32 characters, case-folded")
    return value


class ClubCreate(ApiModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=32, description="Unique, case-insensitive")
    code: str = Field(pattern=CODE_PATTERN,
                      description="2–4 letters or digits for scoreboards, unique; stored "
                      "upper-case")
    colors: ClubColors = Field(
        default_factory=lambda: ClubColors(primary="#1d4ed8", secondary="#ffffff"))

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)

    @field_validator("code")
    @classmethod
    def _code(cls, value: str) -> str:
        return value.upper()


class InviteCreate(ApiModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=32, description="The account to invite")


class ClubBrief(BaseModel):
    """A club as rooms, invitations and lists show it."""

    id: str
    name: str
    code: str
    colors: dict[str, Any]


class ClubListItem(ClubBrief):
    members: int
    created_at: datetime


class ClubList(BaseModel):
    clubs: list[ClubListItem]
    total: int = Field(description="Clubs matching the search, for paging")
    limit: int
    offset: int


class MyClub(ClubBrief):
    role: Role


class MemberOut(BaseModel):
    account_id: str
    name: str
    role: Role
    joined_at: datetime


class InvitationOut(BaseModel):
    """An invitation: to the signed-in account (``club``) or, for a club's owners, from it
    (``account_id`` / ``name``)."""

    club: ClubBrief
    account_id: str
    name: str
    invited_by: str
    created_at: datetime


class ClubOut(ClubBrief):
    created_by: str
    created_at: datetime
    members: list[MemberOut]
    my_role: Role | None = Field(None, description="The caller's role, if a member")
    invited: bool = Field(False, description="The caller has a standing invitation")


class ClubPage(ClubOut):
    """Everything the club page draws, from one request: see ``clubs.summary``."""

    record: dict[str, Any] = Field(description="All pools: games, wins, losses, ties, runs")
    pools: dict[str, Any] = Field(description="Per rating pool: record, batting and pitching "
                                  "lines, the club's rating (null until rated)")
    recent: list[dict[str, Any]]
