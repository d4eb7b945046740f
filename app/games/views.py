"""Read endpoints: a game's pitches, events (filtered), fairness (its summary with the box
score is the stats' business: ``app.stats.views``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import select

from app.deps import Db, MaybeAccount
from app.engines.dice import hmac_below
from app.engines.interface import Side, parse_side
from app.errors import ApiError
from app.games import service
from app.games.hold import held_back
from app.games.models import DiceDraw, Game
from app.games.pitches import pitch_records
from app.games.schemas import Fairness
from app.seats.models import Seat
from app.validation import MAX_SEQ

router = APIRouter(prefix="/api", tags=["games"])

ALGORITHM = (
    "seed_hash = sha256(bytes.fromhex(seed)). Draw i of range n: digest = "
    "HMAC-SHA256(key=bytes.fromhex(seed), msg=f'{game_id}:{i}'); read eight 4-byte big-endian "
    "candidates; the first below 2**32 - 2**32 % n, modulo n, is the value; if none is, "
    "repeat with msg f'{game_id}:{i}:1', ':2', ... (app.engines.dice.hmac_below)."
)


async def _game(db: Db, game_id: str) -> Game:
    game = await db.get(Game, game_id)
    if game is None:
        raise ApiError("not_found", "no such game", 404)
    return game


@router.get("/games/{game_id}/pitches")
async def game_pitches(game_id: str, db: Db) -> list[dict[str, Any]]:
    """One row per pitch, in order, with the engine's record keys."""
    game = await _game(db, game_id)
    return await pitch_records(db, game)


@router.get("/games/{game_id}/events")
async def game_events(
    game_id: str, db: Db, account: MaybeAccount,
    after: int = Query(0, ge=0, le=MAX_SEQ), limit: int = Query(500, ge=1, le=5000),
) -> dict[str, Any]:
    """The log as the caller may see it: its side's view when seated in the room, else the
    spectators' view."""
    game = await _game(db, game_id)
    side: Side | None = None
    if account is not None:
        seat_side = await db.scalar(
            select(Seat.side).where(
                Seat.room_id == game.room_id, Seat.account_id == account.id,
                Seat.left_at.is_(None),
            )
        )
        side = parse_side(seat_side) if seat_side else None
    through = held_back(game)  # a pass held until its time is not there yet
    rows = await service.events_after(db, game.id, after, through, limit)
    return {
        "game_id": game.id, "viewer": side or "spectator",
        "seq": game.seq if through is None else through,
        "events": [
            {"seq": r.seq, "event": service.filter_event(service.stored_event(r), side)}
            for r in rows
        ],
    }


@router.get("/games/{game_id}/fairness", response_model=Fairness)
async def fairness(game_id: str, db: Db) -> Fairness:
    """The commitment always; the seed and every draw once the game is over (draws include
    deck shuffles, so they stay secret while the game is on)."""
    game = await _game(db, game_id)
    over = game.status != "live"
    draws = []
    if over:
        rows = await db.scalars(
            select(DiceDraw).where(DiceDraw.game_id == game.id).order_by(DiceDraw.draw_index)
        )
        draws = [{"index": r.draw_index, "n": r.n, "value": r.value} for r in rows]
    return Fairness(
        game_id=game.id, seed_hash=game.seed_hash, seed=game.seed if over else None,
        algorithm=ALGORITHM, draw_count=game.draw_count, draws=draws,
    )


def verify_draws(seed_hex: str, game_id: str, draws: list[dict[str, int]]) -> bool:
    """What the fairness page does; the tests use it too."""
    seed = bytes.fromhex(seed_hex)
    return all(hmac_below(seed, game_id, d["index"], d["n"]) == d["value"] for d in draws)
