"""A league (one game kind and its options), its entrants and its schedule of games."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.accounts.models import Account
from app.db import Base, JsonColumn, UtcDateTime, utcnow


class League(Base):
    __tablename__ = "leagues"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(48))
    name_key: Mapped[str] = mapped_column(String(48), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    """The game every league game is (``base-on-board`` / ``bottom-of-the-9th``)."""
    options: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    """The game options every scheduled room gets (tier, innings, ...)."""
    entrant_type: Mapped[str] = mapped_column(String(8), default="club")
    """``club`` or ``player``."""
    rounds: Mapped[int] = mapped_column(default=1)
    """1: single round robin, 2: double (each pair meets at each end)."""
    deadline_hours: Mapped[int] = mapped_column(default=72)
    """Hours a scheduled game has, from its round's opening, before the deadline rule decides it."""
    knockout: Mapped[int] = mapped_column(default=0)
    """Entrants that go on to a knock-out stage after the season (0: none, 2 or 4)."""
    status: Mapped[str] = mapped_column(String(12), default="forming")
    """forming (entrants join), season, knockout, finished."""
    created_by: Mapped[str] = mapped_column(ForeignKey(Account.id))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class LeagueEntrant(Base):
    """A club or a single player in a league (exactly one of the two is set)."""

    __tablename__ = "league_entrants"
    __table_args__ = (
        UniqueConstraint("league_id", "club_id", name="uq_league_entrants_club"),
        UniqueConstraint("league_id", "account_id", name="uq_league_entrants_account"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    league_id: Mapped[str] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    club_id: Mapped[str | None] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    account_id: Mapped[str | None] = mapped_column(ForeignKey(Account.id, ondelete="CASCADE"))
    joined_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class LeagueGame(Base):
    """One scheduled game: who plays whom, by when, the room it is played in and how it ended."""

    __tablename__ = "league_games"
    __table_args__ = (
        Index("ix_league_games_league", "league_id", "stage", "round"),
        Index("ix_league_games_room", "room_id"),
        Index("ix_league_games_deadline", "status", "deadline_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    league_id: Mapped[str] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    stage: Mapped[str] = mapped_column(String(12), default="season")
    """``season`` or ``knockout``."""
    round: Mapped[int]
    home_entrant: Mapped[int] = mapped_column(ForeignKey("league_entrants.id", ondelete="CASCADE"))
    away_entrant: Mapped[int] = mapped_column(ForeignKey("league_entrants.id", ondelete="CASCADE"))
    opens_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    deadline_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id", ondelete="SET NULL"))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    status: Mapped[str] = mapped_column(String(12), default="scheduled")
    """scheduled, live, final (played to the end or resigned/claimed), forfeit (decided by the
    deadline rule)."""
    home_runs: Mapped[int | None]
    away_runs: Mapped[int | None]
    winner_entrant: Mapped[int | None] = mapped_column(ForeignKey("league_entrants.id"))
    """``None`` for a tie or a double forfeit."""
    decided_by: Mapped[str | None] = mapped_column(String(16))
    """How the result came: ``play``, ``resign``, ``claim``, ``deadline``."""
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
