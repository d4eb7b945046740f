"""Stored ratings: the current rating per account per pool, and one history row per rated game.

Written in the same transaction that finishes a game (:mod:`app.stats.store`); ``bob ratings
rebuild`` recomputes both tables from the finished games and gives the same numbers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, BigId, JsonColumn, UtcDateTime


class PlayerRating(Base):
    """openskill ``mu`` / ``sigma`` of one account in one pool (``app.stats.ratings.pool``)."""

    __tablename__ = "rating"
    __table_args__ = (Index("ix_rating_pool_board", "pool", "last_played"),)

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(48), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int]
    last_played: Mapped[datetime | None] = mapped_column(UtcDateTime)


class RatingHistory(Base):
    """The rating an account had after one rated game (for the player page's chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("game_id", "account_id", name="uq_rating_history_game_account"),
        Index("ix_rating_history_account", "account_id", "pool", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(48))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int]
    played_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class AnalysisTable(Base):
    """One precomputed analysis table (``app.stats.baselines``): the analysis endpoints read
    these rows and never compute over many games while a request waits."""

    __tablename__ = "analysis_table"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    """What the table is: ``simulated:<kind>:<tier>:<innings>``, ``real:re:<kind>:<tier>``..."""
    payload: Mapped[Any] = mapped_column(JsonColumn)
    games: Mapped[int]
    computed_at: Mapped[datetime] = mapped_column(UtcDateTime)


class JobClaim(Base):
    """Which process runs a periodic job now: a process claims it with one ``UPDATE ... WHERE
    until < now``, so among several processes one runs it per period."""

    __tablename__ = "job_claim"

    name: Mapped[str] = mapped_column(String(48), primary_key=True)
    until: Mapped[datetime] = mapped_column(UtcDateTime)
