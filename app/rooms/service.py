"""Creating rooms, taking and leaving seats, starting games and rematches.

A game starts by itself as soon as both sides hold at least one member (in solo play, as soon
as the human side does: the computer holds the other, see :mod:`app.games.computer`); a rematch
starts the next game in the same room, with the same seats and options, once the last one is
over.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.clubs import seating
from app.db import utcnow
from app.editions.service import require_edition
from app.engine_catalog import EngineCatalog
from app.engines.interface import EngineError
from app.errors import ApiError
from app.games.computer import computer_seat, computer_side, seat_side
from app.games.fair_dice import RecordingDice, new_seed
from app.games.hooks import FinishedGame
from app.games.models import GamePlayer
from app.games.service import NewGame, start_game
from app.rooms.models import Room
from app.rooms.schemas import RoomCreate
from app.seats.models import Seat
from app.settings import Settings


def check_options(catalog: EngineCatalog, kind: str, options: dict[str, Any]) -> None:
    """Lets the engine refuse options by starting a throw-away game with them."""
    if kind not in catalog.kinds:
        raise ApiError("unknown_kind", f"unknown game kind {kind!r}; one of {catalog.kinds}", 422)
    try:
        catalog.make(kind, RecordingDice(new_seed()[0], "options-check")).new_game(options)
    except EngineError as exc:
        raise ApiError("invalid_options", str(exc), 422) from exc


async def create_room(
    db: AsyncSession, catalog: EngineCatalog, settings: Settings, account: Account,
    body: RoomCreate,
) -> Room:
    options = body.options.for_engine()
    timers = {
        "response_seconds": body.timers.response_seconds or settings.default_response_seconds,
        "roll_seconds": body.timers.roll_seconds or settings.default_roll_seconds,
        "auto_pass_ms": _or(body.timers.auto_pass_ms, settings.auto_pass_ms),
        "computer_delay_ms": _or(body.timers.computer_delay_ms, settings.computer_delay_ms),
    }
    check_options(catalog, body.kind, options)
    chosen = body.computer.model_dump() if body.computer is not None else None
    implied = computer_side(options)
    if chosen is not None and implied is not None and chosen["side"] not in (None, implied):
        raise ApiError("invalid_options", f"solo mode puts the computer on {implied}", 422)
    if settings.require_edition_codes:
        edition = edition_needed(body.kind, options)
        if edition is not None:
            await require_edition(db, account.id, edition)
    seat_computer = computer_seat(options, chosen)
    wanted = body.clubs.model_dump() if body.clubs is not None else {}
    clubs, club_rows = await seating.room_clubs(db, account.id, wanted, seat_computer is not None)
    room = Room(
        id=secrets.token_urlsafe(9), kind=body.kind, options=options,
        teams=seating.team_defaults(club_rows, body.options.teams()), invites=new_invites(),
        clubs=clubs or None,
        timers=timers, private=body.private, status="open",
        computer=seat_computer,
        created_by=account.id, created_at=utcnow(), games_played=0,
    )
    db.add(room)
    await db.flush()
    return room


def edition_needed(kind: str, options: dict[str, Any]) -> str | None:
    """The edition creating such a room needs when ``REQUIRE_EDITION_CODES`` is on: ``pro``
    for a Pro-tier Base on Board room (a room without a tier is Pro, the engine's default
    in ``app/engines/base_on_board/state.py``), else none."""
    if kind == "base-on-board" and options.get("tier", "pro") == "pro":
        return "pro"
    return None


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def sides_to_fill(room: Room) -> set[str]:
    """The sides people must hold for a game to start: both, or the human's in solo play."""
    return {"home", "away"} - {seat_side(room.computer)}


async def get_room(db: AsyncSession, room_id: str, for_update: bool = False) -> Room:
    """``for_update`` locks the row (PostgreSQL) so two joins cannot both, or neither, start
    the game; SQLite serialises writers by itself."""
    room = await db.get(Room, room_id, with_for_update=for_update or None)
    if room is None:
        raise ApiError("not_found", "no such room", 404)
    return room


async def active_seats(db: AsyncSession, room_id: str) -> list[Seat]:
    rows = await db.scalars(
        select(Seat).where(Seat.room_id == room_id, Seat.left_at.is_(None)).order_by(Seat.id)
    )
    return list(rows)


def new_invites() -> dict[str, str]:
    """One invitation token per side: whoever holds it may join that side of a started game."""
    return {side: secrets.token_urlsafe(12) for side in ("home", "away")}


def has_started(room: Room) -> bool:
    """Sides are teams from the room's first game on: membership then changes by invitation."""
    return room.status != "open" or room.games_played > 0


async def invite_for(db: AsyncSession, room: Room, account: Account) -> tuple[str, str]:
    """The side ``account`` sits on and its invitation token; only a member may invite."""
    seat = await db.scalar(
        select(Seat).where(
            Seat.room_id == room.id, Seat.account_id == account.id, Seat.left_at.is_(None)
        )
    )
    if seat is None:
        raise ApiError("not_seated", "only a member of a side may invite to it", 403)
    return seat.side, room.invites[seat.side]


def _check_invite(room: Room, side: str, invite: str | None) -> None:
    if invite is None:
        raise ApiError(
            "invite_required",
            "the game has started: joining a side needs an invitation from one of its members",
            403,
        )
    expected = (room.invites or {}).get(side, "")
    if not expected or not hmac.compare_digest(expected.encode(), invite.encode()):
        raise ApiError("bad_invite", "that invitation is not for this side of this room", 403)


async def admit(db: AsyncSession, room: Room, account: Account, side: str) -> None:
    """Who may sit on ``side`` at all, whatever the seat rules: the accounts the side is
    reserved for (a player league's game), and the members of the club the side plays for
    (``room.clubs``). Kept in one function so the clubs' and the leagues' rules are checked in
    one place; refusals are ``403 side_reserved`` / ``403 not_club_member``."""
    reserved = (room.reserved or {}).get(side)
    if reserved is not None and account.id not in reserved:
        raise ApiError("side_reserved", f"this room's {side} side is kept for its league "
                       "entrant", 403)
    await seating.check_seat(db, room.clubs, side, account.id)


async def join(
    db: AsyncSession, catalog: EngineCatalog, room: Room, account: Account, side: str,
    invite: str | None = None,
) -> dict[str, Any] | None:
    """Seats ``account`` on ``side``; the seat rules are in docs/protocol.md (*Seats*).

    Before the first game anyone may sit on either side and move between them. From then on
    a member keeps the side it has (it may leave and come back to it), and a newcomer needs
    that side's invitation, unless the side plays for a club: then membership of the club
    (checked by :func:`admit`) is the credential, so any member may join their club's side at
    any time. Returns the broadcast of a game this join started, for the caller to publish
    after commit.
    """
    if side == seat_side(room.computer):
        raise ApiError("computer_side", "the computer plays that side in this solo room", 409)
    await admit(db, room, account, side)
    seat = await db.scalar(
        select(Seat).where(Seat.room_id == room.id, Seat.account_id == account.id)
    )
    started = has_started(room)
    now = utcnow()
    if seat is None:
        if started and not (room.clubs or {}).get(side):
            _check_invite(room, side, invite)
        seat = Seat(room_id=room.id, account_id=account.id, side=side, joined_at=now,
                    last_seen_at=now)
        db.add(seat)
    else:
        if started and seat.side != side:
            raise ApiError(
                "side_locked", f"you play for {seat.side} in this room; sides are fixed once "
                "a game has started", 409,
            )
        seat.side, seat.left_at, seat.last_seen_at = side, None, now
    await db.flush()
    if room.status == "live" and room.current_game_id:
        existing = await db.get(GamePlayer, (room.current_game_id, account.id))
        if existing is None:
            db.add(GamePlayer(game_id=room.current_game_id, account_id=account.id, side=side))
        return None
    if room.status == "open":
        return await _maybe_start(db, catalog, room)
    return None


async def _maybe_start(
    db: AsyncSession, catalog: EngineCatalog, room: Room
) -> dict[str, Any] | None:
    seats = await active_seats(db, room.id)
    if {s.side for s in seats} >= sides_to_fill(room):
        return await _start(db, catalog, room, seats)
    return None


async def _start(
    db: AsyncSession, catalog: EngineCatalog, room: Room, seats: list[Seat]
) -> dict[str, Any]:
    """Starts the room's next game with the people seated now; returns its broadcast."""
    game, message = await start_game(db, catalog, NewGame(
        room_id=room.id, kind=room.kind, number=room.games_played + 1, options=room.options,
        timers=room.timers, players=[(s.account_id, s.side) for s in seats if s.left_at is None],
        computer=room.computer,
    ))
    seating.write_game_clubs(db, game.id, room.clubs)
    room.current_game_id = game.id
    room.games_played += 1
    room.status = "live"
    await db.flush()
    return message


async def leave(db: AsyncSession, room: Room, account: Account) -> None:
    seat = await db.scalar(
        select(Seat).where(
            Seat.room_id == room.id, Seat.account_id == account.id, Seat.left_at.is_(None)
        )
    )
    if seat is None:
        raise ApiError("not_seated", "you have no seat in this room", 409)
    now = utcnow()
    seat.left_at = now
    seat.last_seen_at = now
    if (room.rematch_offer or {}).get("by") == account.id:
        room.rematch_offer = None  # whoever offered is gone


async def rematch(
    db: AsyncSession, catalog: EngineCatalog, room: Room, account: Account
) -> dict[str, Any] | None:
    """A rematch is an offer the other side accepts. The first seated player to ask offers it
    for their side (``None``: no game yet); a member of the other side asking accepts it, and
    the next game starts with the sides swapped (seats, team names and colours, invitations;
    in solo play the computer simply accepts). Returns the new game's broadcast."""
    seats = await active_seats(db, room.id)
    mine = next((s for s in seats if s.account_id == account.id), None)
    if mine is None:
        raise ApiError("not_seated", "only a seated player may ask for a rematch", 403)
    if room.status != "finished":
        raise ApiError("game_live", "the current game is not over", 409)
    if not {s.side for s in seats} >= sides_to_fill(room):
        raise ApiError("side_empty", "both sides need a member for a rematch", 409)
    offer = room.rematch_offer or {}
    if room.computer is None and offer.get("side") in (None, mine.side):
        if not offer:
            room.rematch_offer = {"side": mine.side, "by": account.id, "at": utcnow().isoformat()}
        return None
    swap_sides(room, seats)
    room.rematch_offer = None
    return await _start(db, catalog, room, seats)


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def swap_sides(room: Room, seats: list[Seat]) -> None:
    """Home becomes away and away home: every seated member, the team names and colours, the
    invitations (each team keeps its own link), the clubs and, in solo play, the computer's
    side."""
    for seat in seats:
        seat.side = _other(seat.side)
    room.invites = {_other(side): token for side, token in (room.invites or {}).items()}
    if room.clubs:
        room.clubs = {_other(side): club for side, club in room.clubs.items()}
    teams = {}
    for key, value in (room.teams or {}).items():
        side, _, rest = key.partition("_")
        teams[f"{_other(side)}_{rest}" if side in ("home", "away") and rest else key] = value
    room.teams = teams
    if room.computer is not None:
        room.computer = {**room.computer, "side": _other(str(room.computer["side"]))}
    if computer_side(room.options) is not None:  # Bottom of the 9th's solo mode
        room.options = {**room.options,
                        "solo_side": _other(str(room.options.get("solo_side") or "home"))}


async def mark_finished(db: AsyncSession, game: FinishedGame) -> None:
    """Game-end hook (registered in ``main.py``): the room's game is over, in the same
    transaction as its result."""
    await db.execute(update(Room).where(Room.id == game.room_id).values(status="finished"))
