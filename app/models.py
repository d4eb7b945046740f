"""Imports every model so ``Base.metadata`` is complete (Alembic and tests rely on it)."""

from app.accounts.models import Account, DeviceSession
from app.db import Base
from app.editions.models import EditionCode
from app.games.models import Command, DiceDraw, Game, GameEvent, GamePlayer, Pitch, PitchPlay
from app.matchmaking.models import PlayQueueEntry
from app.rooms.models import Room
from app.seats.models import Seat
from app.stats.models import PlayerRating, RatingHistory

__all__ = [
    "Account",
    "Base",
    "Command",
    "DeviceSession",
    "DiceDraw",
    "EditionCode",
    "Game",
    "GameEvent",
    "GamePlayer",
    "Pitch",
    "PitchPlay",
    "PlayQueueEntry",
    "PlayerRating",
    "RatingHistory",
    "Room",
    "Seat",
]
