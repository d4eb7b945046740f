"""``/api/rooms``: create, lobby, details, join a side, leave, rematch.

Spectating needs no call here: open ``/ws/rooms/{id}`` without a token.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.clubs.seating import briefs
from app.context import ServerContext
from app.db import utcnow
from app.deps import Address, Ctx, CurrentAccount, Db
from app.games.computer import seat_side, seat_think_ms
from app.rooms import service
from app.rooms.models import Room
from app.rooms.presence import seat_connected
from app.rooms.schemas import InviteOut, JoinRequest, RoomCreate, RoomOut, SeatOut
from app.seats.models import Seat

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


def describe(room: Room) -> str:
    """Short notes the lobby shows with a room: what changes how the game is played."""
    notes = []
    computer = seat_side(room.computer)
    if computer is not None:
        notes.append(f"solo: the computer plays {computer}")
    if room.options.get("fast_play"):
        notes.append("fast play: windows nobody can use are skipped (the pause can tell)")
    return "; ".join(notes)


async def room_out(ctx: ServerContext, db: AsyncSession, room: Room) -> RoomOut:
    rows = await db.execute(
        select(Seat, Account.name)
        .join(Account, Account.id == Seat.account_id)
        .where(Seat.room_id == room.id, Seat.left_at.is_(None))
        .order_by(Seat.id)
    )
    base = ctx.settings.public_url.rstrip("/")
    ws_base = base.replace("http", "ws", 1)
    now = utcnow()
    heartbeat = ctx.settings.presence_heartbeat_seconds
    return RoomOut(
        id=room.id, kind=room.kind, options=room.options, teams=room.teams,
        timers=room.timers,
        private=room.private, status=room.status,
        created_by=room.created_by, invite_link=f"{base}/rooms/{room.id}",
        ws_url=f"{ws_base}/ws/rooms/{room.id}", current_game_id=room.current_game_id,
        games_played=room.games_played,
        seats=[
            SeatOut(account_id=s.account_id, name=name, side=s.side,
                    joined_at=s.joined_at,
                    connected=seat_connected(s.last_seen_at, now, heartbeat))
            for s, name in rows.all()
        ],
        computer_side=seat_side(room.computer),
        computer_level=(room.computer or {}).get("level"),
        computer_think_ms=seat_think_ms(room.computer) if room.computer else None,
        rematch_offer=(room.rematch_offer or {}).get("side"),
        clubs=await briefs(db, room.clubs),
        description=describe(room),
        created_at=room.created_at,
    )


async def commit_and_publish(
    ctx: ServerContext, db: AsyncSession, room_id: str, game_message: dict[str, Any] | None
) -> None:
    """Commit first, then tell the room's sockets: seats changed (they re-check their side),
    and a game started, if one did."""
    await db.commit()
    await ctx.broadcaster.publish(room_id, {"kind": "seats", "room_id": room_id})
    if game_message is not None:
        await ctx.broadcaster.publish(room_id, game_message)


@router.post("", response_model=RoomOut, status_code=201)
async def create_room(
    body: RoomCreate, ctx: Ctx, db: Db, account: CurrentAccount, address: Address
) -> RoomOut:
    """At most ``LIMIT_ROOMS_ADDRESS`` new rooms per client address (429 ``rate_limited``).
    With ``REQUIRE_EDITION_CODES`` on, a Pro-tier Base on Board room (``tier`` ``pro`` or
    none) needs the creator to hold the ``pro`` edition (403 ``edition_required``; see
    ``/api/editions``)."""
    await ctx.throttle.hit(ctx.settings.limit_rooms_address, "rooms-address", address)
    room = await service.create_room(db, ctx.catalog, ctx.settings, account, body)
    message = None
    if body.side is not None:
        message = await service.join(db, ctx.catalog, room, account, body.side)
    await commit_and_publish(ctx, db, room.id, message)
    return await room_out(ctx, db, room)


@router.get("", response_model=list[RoomOut])
async def lobby(
    ctx: Ctx, db: Db, kind: str | None = Query(None, max_length=32),
    limit: int = Query(50, ge=1, le=200),
) -> list[RoomOut]:
    """Public rooms that are open (waiting for players) or live (watchable), newest first."""
    query = (
        select(Room)
        .where(Room.private.is_(False), Room.status.in_(("open", "live")))
        .order_by(Room.created_at.desc())
        .limit(limit)
    )
    if kind is not None:
        query = query.where(Room.kind == kind)
    return [await room_out(ctx, db, room) for room in await db.scalars(query)]


@router.get("/{room_id}", response_model=RoomOut)
async def room_details(room_id: str, ctx: Ctx, db: Db) -> RoomOut:
    return await room_out(ctx, db, await service.get_room(db, room_id))


@router.post("/{room_id}/join", response_model=RoomOut)
async def join(
    room_id: str, body: JoinRequest, ctx: Ctx, db: Db, account: CurrentAccount
) -> RoomOut:
    """Takes a seat on a side; the game starts when both sides have someone."""
    room = await service.get_room(db, room_id, for_update=True)
    message = await service.join(db, ctx.catalog, room, account, body.side, body.invite)
    await commit_and_publish(ctx, db, room.id, message)
    return await room_out(ctx, db, room)


@router.get("/{room_id}/invite", response_model=InviteOut)
async def invite(room_id: str, ctx: Ctx, db: Db, account: CurrentAccount) -> InviteOut:
    """Your side's invitation: give it to a teammate so they may join your side, also during
    a game. Only members of a side see its invitation."""
    room = await service.get_room(db, room_id)
    side, token = await service.invite_for(db, room, account)
    base = ctx.settings.public_url.rstrip("/")
    return InviteOut(side=side, token=token,
                     link=f"{base}/rooms/{room.id}?side={side}&invite={token}")


@router.post("/{room_id}/leave", response_model=RoomOut)
async def leave(room_id: str, ctx: Ctx, db: Db, account: CurrentAccount) -> RoomOut:
    room = await service.get_room(db, room_id, for_update=True)
    await service.leave(db, room, account)
    await commit_and_publish(ctx, db, room.id, None)
    return await room_out(ctx, db, room)


@router.post("/{room_id}/rematch", response_model=RoomOut)
async def rematch(room_id: str, ctx: Ctx, db: Db, account: CurrentAccount) -> RoomOut:
    """Offers a rematch for your side, or accepts the other side's offer: then the next game
    starts with the same options and the sides swapped (``rematch_offer`` says who offered)."""
    room = await service.get_room(db, room_id, for_update=True)
    message = await service.rematch(db, ctx.catalog, room, account)
    await commit_and_publish(ctx, db, room.id, message)
    return await room_out(ctx, db, room)


@router.get("/{room_id}/presence")
async def presence(room_id: str, ctx: Ctx, db: Db) -> dict[str, Any]:
    """Who of each side has a socket open, as far as its heartbeat tells: a seat seen within
    three heartbeats counts as connected (the same rule as ``seats[].connected`` of the room)."""
    now = utcnow()
    rows = (await db.execute(
        select(Account.name, Seat.side, Seat.last_seen_at)
        .join(Account, Account.id == Seat.account_id)
        .where(Seat.room_id == room_id, Seat.left_at.is_(None))
    )).all()
    heartbeat = ctx.settings.presence_heartbeat_seconds
    seats = [
        {"name": name, "side": side, "connected": seat_connected(seen, now, heartbeat)}
        for name, side, seen in rows
    ]
    return {"room_id": room_id, "seats": seats}
