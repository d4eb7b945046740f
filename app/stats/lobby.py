"""What a player wants to know of a room before sitting down: whether its game will be rated
(and why not) and the players' display ratings; and the lobby with those facts per room.

In ``stats`` because it reads ratings; it reads rooms and games as every stats read does.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import select

from app.accounts.models import Account
from app.deps import Ctx, Db
from app.errors import ApiError
from app.games.computer import seat_side
from app.games.hold import active
from app.games.models import Game
from app.rooms.models import Room
from app.rooms.views import lobby as lobby_rooms
from app.seats.models import Seat
from app.stats import ratings
from app.stats.models import PlayerRating
from app.stats.store import game_pool, rating_preview

router = APIRouter(prefix="/api", tags=["rooms"])


async def _seated(db: Db, room_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Per room, its seated accounts: name, side, whether a guest."""
    rows = (await db.execute(
        select(Seat.room_id, Seat.side, Account.id, Account.name, Account.is_guest)
        .join(Account, Account.id == Seat.account_id)
        .where(Seat.room_id.in_(room_ids), Seat.left_at.is_(None))
        .order_by(Seat.id)
    )).all()
    out: dict[str, list[dict[str, Any]]] = {}
    for room_id, side, account_id, name, guest in rows:
        out.setdefault(room_id, []).append(
            {"account_id": account_id, "name": name, "side": side, "guest": guest})
    return out


async def _ratings(db: Db, pools: dict[str, set[str]]) -> dict[tuple[str, str], ratings.Rating]:
    """Stored ratings of the given accounts per pool (a newcomer has none yet)."""
    out: dict[tuple[str, str], ratings.Rating] = {}
    for pool, accounts in pools.items():
        rows = await db.scalars(select(PlayerRating).where(
            PlayerRating.pool == pool, PlayerRating.account_id.in_(sorted(accounts))))
        for row in rows:
            out[(pool, row.account_id)] = ratings.Rating(row.mu, row.sigma, row.games,
                                                         row.last_played)
    return out


def _player(seat: dict[str, Any], rating: ratings.Rating | None) -> dict[str, Any]:
    found = rating or ratings.Rating()
    return {"name": seat["name"], "side": seat["side"], "guest": seat["guest"],
            "rating": None if seat["guest"] else found.display,
            "provisional": None if seat["guest"] else found.provisional()}


def _preview(room: Room, seats: list[dict[str, Any]]) -> dict[str, Any]:
    teams: dict[str, list[str]] = {"home": [], "away": []}
    for seat in seats:
        teams.setdefault(seat["side"], []).append(seat["account_id"])
    guests = {seat["account_id"] for seat in seats if seat["guest"]}
    reason = rating_preview(teams, guests, seat_side(room.computer))
    return {"rated": reason is None, "reason": reason, "pool": game_pool(room.kind, room.options)}


@router.get("/rooms/{room_id}/rating")
async def room_rating(room_id: str, db: Db) -> dict[str, Any]:
    """Whether the room's game will be rated, and why not (``solo``: the computer plays a
    side; ``empty``: a side has nobody yet; ``guest``: a side has only guests), with each
    seated player's display rating in the room's pool (``app.stats.store.rating_preview``)."""
    room = await db.get(Room, room_id)
    if room is None:
        raise ApiError("not_found", "no such room", 404)
    seats = (await _seated(db, [room.id])).get(room.id, [])
    pool = game_pool(room.kind, room.options)
    found = await _ratings(db, {pool: {s["account_id"] for s in seats if not s["guest"]}})
    return {**_preview(room, seats),
            "players": [_player(s, found.get((pool, s["account_id"]))) for s in seats]}


def _situation(ctx: Any, game: Game) -> dict[str, Any] | None:
    """Where a live game stands, from the engine's public view (the only way state leaves
    an engine): the inning and half and score, or Bottom of the 9th's runs and outs."""
    try:
        engine = ctx.catalog.make(game.kind, None)
        hold = active(game)  # a pass held until its time has not happened yet
        view = engine.view(engine.from_json(game.state if hold is None else hold.state_json),
                           None)
    except Exception:  # a game of a kind this server no longer hosts must not break the lobby
        return None
    if game.kind == "base-on-board":
        return {"inning": view.get("inning"), "half": view.get("half"),
                "score": view.get("score"), "outs": view.get("outs")}
    return {"inning": 9, "half": "bottom", "runs": view.get("runs"), "outs": view.get("outs")}


@router.get("/lobby")
async def lobby_page(ctx: Ctx, db: Db, kind: str | None = None,
                     limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
    """The lobby: ``GET /api/rooms`` plus what a player wants to know before joining, per
    room: the seated players' display ratings in the room's pool, whether its game is rated
    (and why not), and for a live game where it stands (``live``)."""
    rooms = await lobby_rooms(ctx, db, kind, limit)
    ids = [room.id for room in rooms]
    seated = await _seated(db, ids)
    stored = {r.id: r for r in await db.scalars(select(Room).where(Room.id.in_(ids)))}
    pools: dict[str, set[str]] = {}
    for room in rooms:
        pool = game_pool(room.kind, room.options)
        pools.setdefault(pool, set()).update(
            s["account_id"] for s in seated.get(room.id, []) if not s["guest"])
    found = await _ratings(db, pools)
    games = {g.room_id: g for g in await db.scalars(select(Game).where(
        Game.room_id.in_(ids), Game.status == "live"))}
    out = []
    for room in rooms:
        pool = game_pool(room.kind, room.options)
        seats = seated.get(room.id, [])
        live = games.get(room.id)
        out.append({
            **room.model_dump(mode="json"),
            **_preview(stored[room.id], seats),
            "players": [_player(s, found.get((pool, s["account_id"]))) for s in seats],
            "live": _situation(ctx, live) if live is not None else None,
        })
    return {"rooms": out}
