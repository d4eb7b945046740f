"""Rooms: a table to play at, its options, timers and invitations (seats: ``app.seats``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JsonColumn, UtcDateTime, utcnow


class Room(Base):
    __tablename__ = "rooms"
    __table_args__ = (Index("ix_rooms_lobby", "private", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    """The engine's game options, as validated by pydantic and then by ``new_game``."""
    teams: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    """Team names and colours: presentation, never passed to the engine."""
    timers: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    invites: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    """Per side, the invitation token its members hand out (``rooms.service.invite_for``):
    the only way to join a side once a game has started."""
    private: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str] = mapped_column(String(16), default="open")
    """open (waiting for both sides), live (a game is on), finished (last game over)."""
    created_by: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    current_game_id: Mapped[str | None] = mapped_column(String(32))
    games_played: Mapped[int] = mapped_column(default=0)
    computer: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """``{"side", "level", "think_ms"}``: the side the computer plays in this room's games, or
    ``None``."""
    clubs: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """``{"home": club_id, "away": club_id}`` (either may be absent) when a side plays for a
    club: only that club's members may sit on it."""
    reserved: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """``{"home": [account_id, ...], "away": [...]}`` when a side is kept for certain accounts
    (a player league's scheduled game): only they may sit on it (``rooms.service.admit``)."""
    rematch_offer: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """``{"side", "by", "at"}`` while one side offers a rematch the other has not accepted."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
