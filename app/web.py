"""The browser client: its pages and assets from ``static/``, and the JSON it needs that the game
API does not already give (the word catalogues, a game's record with box score and play-by-play,
and the charts of a player page).

Every page is the same HTML shell (``static/index.html``); the ES modules under
``static/js/`` read the address and draw the page. Nothing here is built: the files are served
as they are in the repository.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse, Response
from sqlalchemy import select

from app.accounts.models import Account
from app.db import utcnow
from app.deps import Ctx, Db
from app.errors import ApiError
from app.games.models import Game, GamePlayer, Pitch
from app.games.pitches import pitch_out
from app.realtime.presence import seat_connected
from app.rooms.models import Seat
from app.stats.queries import rating_history

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
}


def _shell() -> HTMLResponse:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
@router.get("/lobby", include_in_schema=False)
@router.get("/signin", include_in_schema=False)
@router.get("/leaderboard", include_in_schema=False)
async def page() -> HTMLResponse:
    return _shell()


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


@cache
def catalogue(game: str) -> dict[str, Any]:
    """Every word the tables show, in Korean and English, from the engines' own data."""
    if game == "base-on-board":
        raw = resources.files("app.catalogue").joinpath("base_on_board.json").read_text("utf-8")
        return {"game": game, **json.loads(raw)}
    if game == "bottom-of-the-9th":
        from app.engines.bottom_of_the_ninth import codes

        package = resources.files("app.engines.bottom_of_the_ninth")
        cards = json.loads(package.joinpath("cards.json").read_text("utf-8"))
        challenges = json.loads(package.joinpath("challenges.json").read_text("utf-8"))

        def table(rows: dict[str, tuple[str, str]]) -> dict[str, dict[str, str]]:
            return {code: {"en": en, "ko": ko} for code, (en, ko) in rows.items()}

        return {
            "game": game,
            "results": table(codes.RESULT_CODES),
            "pa": table(codes.PA_CODES),
            "terms": table(codes.TERMS),
            "cards": {card["id"]: card for card in cards["cards"]},
            "challenges": {c["id"]: c for c in challenges["challenges"]},
        }
    raise ApiError("not_found", f"no catalogue for {game!r}; one of {GAMES}", 404)


@router.get("/api/catalogue/{game}")
async def get_catalogue(game: str) -> Response:
    body = json.dumps(catalogue(game), ensure_ascii=False, separators=(",", ":"))
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "public, max-age=300"})


# --- records and player charts -------------------------------------------------------------------


async def _records(db: Db, game_id: str) -> list[dict[str, Any]]:
    rows = await db.scalars(select(Pitch).where(Pitch.game_id == game_id).order_by(Pitch.seq))
    return [pitch_out(row) for row in rows]


@router.get("/api/games/{game_id}/record", tags=["stats"])
async def game_record(game_id: str, db: Db) -> dict[str, Any]:
    """Box score, play-by-play (ko and en) and the situation after every pitch, for the game
    record page and its replay scrubber. While a game is live this is what has been thrown."""
    from app.stats.records import as_records
    from app.stats.replay import export_game, state_at

    game = await db.get(Game, game_id)
    if game is None:
        raise ApiError("not_found", "no such game", 404)
    records = await _records(db, game_id)
    document = export_game(records, {"game_id": game.id, "kind": game.kind})
    rows = as_records(records)
    document["states"] = [state_at(rows, n) for n in range(len(rows) + 1)]
    document.pop("pitches", None)
    document["seqs"] = [r["seq"] for r in records]
    return document


@router.get("/api/players/{name}/charts", tags=["stats"])
async def player_charts(name: str, db: Db, limit: int = Query(200, ge=1, le=1000)
                        ) -> dict[str, Any]:
    """What the player page draws: results in order (for the rating line and the outcome
    shares) and the faces of every die this player's games rolled (for dice fairness)."""
    from app.stats.analysis import dice_fairness

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
        if not ids:
            continue
        pitches = await db.scalars(select(Pitch).where(Pitch.game_id.in_(ids)))
        records = [pitch_out(p) for p in pitches]
        try:
            fairness[kind] = [d.to_json() for d in dice_fairness(records, kind).values()]
        except Exception:  # a young engine's die names must not break the page
            fairness[kind] = []
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
