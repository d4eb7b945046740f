"""The play-now queue: one row per account that asked to play now (``app.matchmaking``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, BigId, JsonColumn, UtcDateTime


class PlayQueueEntry(Base):
    """Waiting while ``room_id`` is null; paired (both rows name the same room) after.

    ``account_id`` is unique: one entry per account, held by the database for every process.
    """

    __tablename__ = "play_queue"
    __table_args__ = (Index("ix_play_queue_pool", "pool", "room_id", "since"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), unique=True
    )
    pool: Mapped[str] = mapped_column(String(48))
    """The rating pool (``app.stats.store.game_pool``): players are paired within one pool."""
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    """The engine options of the room a pairing creates (Base on Board: ``{"tier"}``)."""
    rating: Mapped[int]
    """The player's display rating in ``pool`` when they entered (1500 without one)."""
    since: Mapped[datetime] = mapped_column(UtcDateTime)
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    paired_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
