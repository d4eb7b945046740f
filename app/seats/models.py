"""A seat is a credential: only its holder may act for its side."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UtcDateTime, utcnow


class Seat(Base):
    """One person on one side of a room. ``left_at`` keeps the row so presence stays honest."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("room_id", "account_id", name="uq_seats_room_account"),
        Index("ix_seats_account", "account_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    side: Mapped[str] = mapped_column(String(8))
    joined_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
