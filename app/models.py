"""Imports every model so ``Base.metadata`` is complete (Alembic and tests rely on it)."""

from app.accounts.models import Account, DeviceSession
from app.clubs.models import Club, ClubInvite, ClubMember, ClubRating, GameClub
from app.db import Base
from app.editions.models import EditionCode
from app.games.models import Command, DiceDraw, Game, GameEvent, GamePlayer, Pitch, PitchPlay
from app.leagues.models import League, LeagueEntrant, LeagueGame
from app.matchmaking.models import PlayQueueEntry
from app.rooms.models import Room
from app.seats.models import Seat
from app.stats.models import PlayerRating, RatingHistory

__all__ = [
    "Account",
    "Base",
    "Club",
    "ClubInvite",
    "ClubMember",
    "ClubRating",
    "Command",
    "DeviceSession",
    "DiceDraw",
    "EditionCode",
    "Game",
    "GameClub",
    "GameEvent",
    "GamePlayer",
    "League",
    "LeagueEntrant",
    "LeagueGame",
    "Pitch",
    "PitchPlay",
    "PlayQueueEntry",
    "PlayerRating",
    "RatingHistory",
    "Room",
    "Seat",
]
