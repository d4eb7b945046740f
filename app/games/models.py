"""A game's stored state, its append-only event log, its pitches, dice draws and command ids."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, BigId, JsonColumn, UtcDateTime, utcnow


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_room", "room_id", "number"),
        Index("ix_games_deadline", "status", "next_deadline_at"),
        Index("ix_games_kind_finished", "kind", "finished_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(default=1)
    kind: Mapped[str] = mapped_column(String(32))
    rules_version: Mapped[str] = mapped_column(String(16), default="1", server_default="1")
    """The engine's ``rules_version`` when the game started (docs/rules/README.md)."""
    options: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    timers: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    computer: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """``{"side", "level", "think_ms"}``: the computer's seat from the start (solo play), else
    ``None``."""
    stand_in: Mapped[str | None] = mapped_column(String(8))
    """The side the computer plays since its people left and the other side asked it to
    finish the game (``app.games.computer``); ``None`` while people play both sides."""
    """The room's timers, copied at the start: a command reads its game, never its room."""
    state: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    version: Mapped[int] = mapped_column(default=1)
    """Optimistic lock: every write is ``UPDATE ... WHERE version = :read_version``."""
    seq: Mapped[int] = mapped_column(default=0)
    """Sequence number of the last event written."""
    status: Mapped[str] = mapped_column(String(16), default="live")
    seed: Mapped[str] = mapped_column(String(64))
    """Hex server seed: secret until the game ends (never sent before)."""
    seed_hash: Mapped[str] = mapped_column(String(64))
    draw_count: Mapped[int] = mapped_column(default=0)
    deadlines: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    """Per side: {"at": iso time, "action": timeout action, "timer": "response"|"roll"}."""
    next_deadline_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    hold: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """The game as viewers see it while a pass folded into the last commit is held (its
    ``until``, ``seq``, ``state``, public ``deadlines`` and the passing ``side``;
    :mod:`app.games.hold`), else ``None``. Every reader of a live game goes through
    ``app.games.hold.visible`` so that nothing after ``seq`` shows before ``until``."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonColumn)
    """{"winner", "score", "reason"} once finished (engine outcome or a claim)."""
    started_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class GameEvent(Base):
    """Append-only. Stored once with its private parts; each viewer gets its own filtered copy."""

    __tablename__ = "game_event"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_event_seq"),
        Index("ix_game_event_type", "type"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(String(48))
    data: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    private: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


STATS_INCLUDE = (
    "offense", "defense", "pa_result", "runs", "rbi", "outs", "outs_after", "thrown", "strike",
)
"""Columns the SQL player stats read (``app.stats.queries``): on PostgreSQL the index below
covers them, so a player's pitches are read by an index-only scan."""


class Pitch(Base):
    """One row per ``pitch`` event; typed columns for stats, the rest in ``extras``."""

    __tablename__ = "pitch"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_pitch_game_seq"),
        Index("ix_pitch_kind_result", "kind", "result"),
        Index("ix_pitch_kind_pa_result", "kind", "pa_result"),
        Index("ix_pitch_pitcher", "pitcher"),
        Index("ix_pitch_batter_card", "batter_card"),
        Index("ix_pitch_game_inning", "game_id", "inning", "half"),
        Index("ix_pitch_game_stats", "game_id", postgresql_include=list(STATS_INCLUDE)),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    number: Mapped[int]
    """The pitch's number in its game, from 1."""
    kind: Mapped[str] = mapped_column(String(32))
    inning: Mapped[int]
    half: Mapped[str] = mapped_column(String(8))
    offense: Mapped[str] = mapped_column(String(8))
    defense: Mapped[str] = mapped_column(String(8))
    batter: Mapped[int]
    batter_card: Mapped[str | None] = mapped_column(String(48))
    pitcher: Mapped[str | None] = mapped_column(String(48))
    balls: Mapped[int]
    strikes: Mapped[int]
    outs: Mapped[int]
    bases: Mapped[str] = mapped_column(String(3))
    balls_after: Mapped[int]
    strikes_after: Mapped[int]
    outs_after: Mapped[int]
    bases_after: Mapped[str] = mapped_column(String(3))
    dice: Mapped[list[Any]] = mapped_column(JsonColumn)
    result: Mapped[str] = mapped_column(String(32))
    pa_result: Mapped[str | None] = mapped_column(String(32))
    runs: Mapped[int] = mapped_column(default=0)
    rbi: Mapped[int] = mapped_column(default=0)
    cards: Mapped[list[Any]] = mapped_column(JsonColumn)
    challenge_side: Mapped[str | None] = mapped_column(String(8))
    challenge_call: Mapped[str | None] = mapped_column(String(32))
    challenge_result: Mapped[str | None] = mapped_column(String(16))
    extras: Mapped[dict[str, Any]] = mapped_column(JsonColumn, default=dict)
    thrown: Mapped[bool] = mapped_column(default=False, server_default=false())
    """A pitch was thrown (``app.records.calls.pitch_thrown``), set when the row is written."""
    strike: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Thrown and called a strike (``app.records.calls.is_strike``), for SQL pitching lines."""
    direction_read: Mapped[bool | None]
    location_read: Mapped[bool | None]
    """Bottom of the 9th: the stare-down's reads (``stare.direction_read`` /
    ``location_read``); both ``None`` when the record has no stare-down."""
    fatigue_direction: Mapped[int | None]
    fatigue_location: Mapped[int | None]
    """Bottom of the 9th: the pitcher's fatigue token rows after the stare-down
    (``stare.fatigue``), ``None`` without one. Relief (a row going back up the track with the
    same pitcher) and benching (a pitcher change) are read in SQL from the previous such row of
    the game (``app.stats.queries``), as ``app.stats.players.ninth_stats`` reads them."""
    race_winner: Mapped[str | None] = mapped_column(String(8))
    """Bottom of the 9th: the side that won the pitch's race (``race.winner``), if any."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


PLAY_INCLUDE = ("side", "offense", "code", "succeeded", "sb", "cs")
"""Columns the SQL card / challenge / steal stats read: covered by the index below on
PostgreSQL, like :data:`STATS_INCLUDE`."""


class PitchPlay(Base):
    """One row per card played and per challenge made on a pitch (Base on Board), written with
    the pitch row (``app.games.pitches.play_rows``) so card usage, challenge success and
    SB / CS are plain SQL sums. Outcomes follow ``app.stats.cards``."""

    __tablename__ = "pitch_play"
    __table_args__ = (
        Index("ix_pitch_play_game_stats", "game_id", postgresql_include=list(PLAY_INCLUDE)),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    """The pitch event's ``seq`` (``pitch.seq``)."""
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    """``"card"`` or ``"challenge"``."""
    position: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    """Index in the record's ``cards`` (or ``challenges``) list."""
    side: Mapped[str] = mapped_column(String(8))
    """Who played the card or made the challenge."""
    offense: Mapped[str] = mapped_column(String(8))
    """The pitch's offense: ``sb`` / ``cs`` are credited to it."""
    code: Mapped[str] = mapped_column(String(32))
    """The card code, or the challenged call."""
    succeeded: Mapped[bool]
    """The card succeeded / the challenge reversed the call."""
    result: Mapped[str | None] = mapped_column(String(16))
    """A challenge's result (``"reverse"``, ``"stand"``...); ``None`` for a card."""
    sb: Mapped[int] = mapped_column(default=0)
    cs: Mapped[int] = mapped_column(default=0)
    """Stolen bases / caught stealing this card gave the offense (``app.records.plays.steals``)."""


class DiceDraw(Base):
    """Every draw the engine took from the HMAC stream, so anyone can recompute it."""

    __tablename__ = "dice_draw"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    draw_index: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    n: Mapped[int]
    value: Mapped[int]


class Command(Base):
    """A client's command id once applied: a repeat gets ``response`` back, never a second move."""

    __tablename__ = "command"
    __table_args__ = (
        UniqueConstraint("game_id", "actor", "command_id", name="uq_command_actor_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    actor: Mapped[str] = mapped_column(String(40))
    """Account id, or ``server`` for timer actions."""
    command_id: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(8))
    action: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    response: Mapped[dict[str, Any]] = mapped_column(JsonColumn)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class GamePlayer(Base):
    """Who played a game on which side, for the leaderboard and player pages."""

    __tablename__ = "game_player"
    __table_args__ = (Index("ix_game_player_account", "account_id"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(String(8))
