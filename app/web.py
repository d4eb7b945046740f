"""The browser client: its pages and assets from ``static/``, and the JSON it needs that the game
API does not already give (the word catalogues, a game's record with box score and play-by-play,
and the charts of a player page).

Every page is the same HTML shell (``static/index.html``); the ES modules under
``static/js/`` read the address and draw the page. Nothing here is built: the files are served
as they are in the repository.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse, Response
from sqlalchemy import select

from app.accounts.models import Account
from app.catalogue import CatalogueKeyError, for_client
from app.db import utcnow
from app.deps import Ctx, Db
from app.errors import ApiError
from app.games.computer import computer_side
from app.games.models import Game, GamePlayer, Pitch
from app.games.pitches import pitch_out
from app.realtime.presence import seat_connected
from app.rooms.models import Room, Seat
from app.rooms.views import lobby as lobby_rooms
from app.stats import ratings
from app.stats.baselines import dice_table
from app.stats.models import PlayerRating
from app.stats.queries import dice_counts, rating_history
from app.stats.store import game_pool, rating_preview

STATIC = Path(__file__).resolve().parent.parent / "static"
GAMES = ("base-on-board", "bottom-of-the-9th")

router = APIRouter(tags=["web"])

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".html": "text/html; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}


def _shell() -> HTMLResponse:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
@router.get("/lobby", include_in_schema=False)
@router.get("/signin", include_in_schema=False)
@router.get("/leaderboard", include_in_schema=False)
@router.get("/rules", include_in_schema=False)
async def page() -> HTMLResponse:
    return _shell()


@router.get("/rules/{game}", include_in_schema=False)
async def rules_shell(game: str) -> HTMLResponse:
    return _shell()


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    """The web app manifest (the site installs like an app), at the root so its scope is "/"."""
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, served from the root so it may control every page."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/rooms/{room_id}", include_in_schema=False)
async def room_page(room_id: str) -> HTMLResponse:
    return _shell()


@router.get("/players/{name}", include_in_schema=False)
async def player_page(name: str) -> HTMLResponse:
    return _shell()


@router.get("/games/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> HTMLResponse:
    return _shell()


@router.get("/static/{path:path}", include_in_schema=False)
async def asset(path: str) -> Response:
    """A file under ``static/``; nothing outside it, no directory listings."""
    target = (STATIC / path).resolve()
    if not target.is_relative_to(STATIC) or not target.is_file():
        return Response("not found", status_code=404, media_type="text/plain")
    media = _TYPES.get(target.suffix, "application/octet-stream")
    return FileResponse(target, media_type=media, headers={"Cache-Control": "no-cache"})


# --- words -------------------------------------------------------------------------------------


@router.get("/api/catalogue/{game}")
async def get_catalogue(game: str) -> Response:
    try:
        words = for_client(game)
    except CatalogueKeyError as missing:
        raise ApiError("not_found", str(missing), 404) from None
    body = json.dumps(words, ensure_ascii=False, separators=(",", ":"))
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "public, max-age=300"})


@router.get("/api/rules/{game}")
async def get_rules(game: str, lang: str = Query("en", pattern="^(en|ko)$")) -> Response:
    """The rules page of a game in one language: ``title`` and ``html`` (app/guide.py)."""
    from app.guide import rules_page

    body = json.dumps(rules_page(game, lang), ensure_ascii=False, separators=(",", ":"))
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "public, max-age=300"})


# --- records and player charts -------------------------------------------------------------------


async def _records(db: Db, game_id: str) -> list[dict[str, Any]]:
    rows = await db.scalars(select(Pitch).where(Pitch.game_id == game_id).order_by(Pitch.seq))
    return [pitch_out(row) for row in rows]


@router.get("/api/games/{game_id}/record", tags=["stats"])
async def game_record(game_id: str, db: Db, ctx: Ctx) -> Response:
    """Box score, play-by-play (ko and en) and the situation after every pitch, for the game
    record page and its replay scrubber. While a game is live this is what has been thrown."""
    game = await db.get(Game, game_id)
    if game is None:
        raise ApiError("not_found", "no such game", 404)
    return await ctx.cpu.json(_record_document, await _records(db, game_id), game.id, game.kind)


def _record_document(records: list[dict[str, Any]], game_id: str, kind: str) -> dict[str, Any]:
    from app.stats.replay import export_game, states

    document = export_game(records, {"game_id": game_id, "kind": kind})
    document["states"] = states(records)
    document.pop("pitches", None)
    document["seqs"] = [r["seq"] for r in records]
    document["dice"] = [r.get("dice") or [] for r in records]
    return document


@router.get("/api/players/{name}/charts", tags=["stats"])
async def player_charts(name: str, db: Db, limit: int = Query(200, ge=1, le=1000)
                        ) -> dict[str, Any]:
    """What the player page draws: results in order (for the rating line and the outcome
    shares) and the faces of every die this player's games rolled (for dice fairness, counted
    by the database)."""
    account = await db.scalar(select(Account).where(Account.name_key == name.casefold()))
    if account is None:
        raise ApiError("not_found", "no such player", 404)
    rows = (await db.execute(
        select(Game.id, Game.kind, Game.result, Game.finished_at, GamePlayer.side)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.account_id == account.id, Game.status == "finished")
        .order_by(Game.finished_at)
        .limit(limit)
    )).all()
    games = []
    fairness: dict[str, Any] = {}
    for game_id, kind, result, finished, side in rows:
        winner = (result or {}).get("winner")
        outcome = "tie" if winner is None else ("win" if winner == side else "loss")
        games.append({"game_id": game_id, "kind": kind, "side": side, "outcome": outcome,
                      "finished_at": finished.isoformat() if finished else None})
    for kind in GAMES:
        ids = [g["game_id"] for g in games if g["kind"] == kind]
        if ids:
            fairness[kind] = dice_table(kind, await dice_counts(db, ids))
    return {"name": account.name, "games": games, "dice": fairness,
            "ratings": await rating_history(db, account.id)}


@router.get("/api/rooms/{room_id}/presence", tags=["rooms"])
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


# --- ratings before a game, and the lobby ------------------------------------------------------


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
    reason = rating_preview(teams, guests, computer_side(room.options))
    return {"rated": reason is None, "reason": reason, "pool": game_pool(room.kind, room.options)}


@router.get("/api/rooms/{room_id}/rating", tags=["rooms"])
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
        view = engine.view(engine.from_json(game.state), None)
    except Exception:  # a game of a kind this server no longer hosts must not break the lobby
        return None
    if game.kind == "base-on-board":
        return {"inning": view.get("inning"), "half": view.get("half"),
                "score": view.get("score"), "outs": view.get("outs")}
    return {"inning": 9, "half": "bottom", "runs": view.get("runs"), "outs": view.get("outs")}


@router.get("/api/lobby", tags=["rooms"])
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
