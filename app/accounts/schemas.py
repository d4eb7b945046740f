"""What the accounts API accepts and returns."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from app.validation import ApiModel

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_\-]{1,23}$"


class Credentials(ApiModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=NAME_PATTERN, description="2-24 letters, digits, _ or -")
    password: str = Field(min_length=8, max_length=200)


class GuestRequest(ApiModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, pattern=NAME_PATTERN)


class AccountSettings(ApiModel):
    """What an account may change about itself; a guest picks a password to keep its account."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, pattern=NAME_PATTERN)
    password: str | None = Field(None, min_length=8, max_length=200)


class AccountOut(BaseModel):
    id: str
    name: str
    is_guest: bool
    created_at: datetime


class SessionOut(BaseModel):
    token: str = Field(description="Bearer token; shown once, only its hash is stored")
    account: AccountOut
    ended_sessions: int = Field(
        description="Older device sessions this sign-in ended (at most 3 devices per account)"
    )
