"""A club, its members and invitations, the club each side of a game played for, and the
club's rating per pool."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.accounts.models import Account
from app.db import Base, JsonColumn, UtcDateTime, utcnow


class Club(Base):
    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """Case-folded name, as for accounts: "Tigers" and "tigers" may not both exist."""
    code: Mapped[str] = mapped_column(String(4), unique=True)
    """Short code for scoreboards (2–4 upper-case letters or digits), unique."""
    colors: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    """``{"primary": "#rrggbb", "secondary": "#rrggbb"}``."""
    created_by: Mapped[str] = mapped_column(ForeignKey(Account.id))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ClubMember(Base):
    """One account in one club; ``role`` is ``owner`` or ``member``."""

    __tablename__ = "club_members"
    __table_args__ = (Index("ix_club_members_account", "account_id"),)

    club_id: Mapped[str] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey(Account.id, ondelete="CASCADE"), primary_key=True)
    role: Mapped[str] = mapped_column(String(8), default="member")
    joined_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ClubInvite(Base):
    """An owner's standing invitation to one account, until accepted, declined or withdrawn."""

    __tablename__ = "club_invites"
    __table_args__ = (Index("ix_club_invites_account", "account_id"),)

    club_id: Mapped[str] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey(Account.id, ondelete="CASCADE"), primary_key=True)
    invited_by: Mapped[str] = mapped_column(ForeignKey(Account.id))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class GameClub(Base):
    """The club a side of a game played for, written when the game starts."""

    __tablename__ = "game_clubs"
    __table_args__ = (Index("ix_game_clubs_club", "club_id"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))


class ClubRating(Base):
    """openskill ``mu`` / ``sigma`` of a club as one team, per pool (as ``PlayerRating``)."""

    __tablename__ = "club_ratings"

    club_id: Mapped[str] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    pool: Mapped[str] = mapped_column(String(48), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int]
    last_played: Mapped[datetime | None] = mapped_column(UtcDateTime)
