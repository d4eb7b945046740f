"""Stats API: leaderboard, player pages, game records (play-by-play, replay, export), analysis.

Conventions and rules are in docs/stats.md (copied from the ``app.stats`` module texts).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Literal

from fastapi import APIRouter, Query
from sqlalchemy import select

from app.accounts.models import Account
from app.db import utcnow
from app.deps import Ctx, Db
from app.errors import ApiError
from app.games.models import Game, Pitch
from app.games.pitches import pitch_out
from app.stats import analysis, board, gamelog, queries
from app.stats.playbyplay import plate_appearances, play_by_play
from app.stats.replay import state_at_seq
from app.stats.schemas import Leaderboard
from app.stats.simulated import cached_games
from app.stats.store import DEFAULT_TIER, game_pool

router = APIRouter(prefix="/api", tags=["stats"])

GameKind = Literal["base-on-board", "bottom-of-the-9th"]
Tier = Literal["lite", "lite-extended", "pro"]


def _example(value: Any) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"application/json": {"example": value}}}}


LEADERBOARD_EXAMPLE = {
    "game": "base-on-board", "tier": "pro", "pool": "base-on-board:pro",
    "rules": {"min_games": 10, "max_sigma": 6.5, "active_days": 30},
    "established": [{
        "rank": 1, "name": "ace", "rating": 22.5, "mu": 31.2, "sigma": 2.9, "games": 42,
        "wins": 27, "losses": 14, "ties": 1, "provisional": False,
        "last_played": "2026-11-28T20:15:00Z"}],
    "provisional": [{
        "rank": 1, "name": "rookie", "rating": 1.12, "mu": 26.9, "sigma": 8.6, "games": 2,
        "wins": 2, "losses": 0, "ties": 0, "provisional": True,
        "last_played": "2026-11-29T09:40:00Z"}],
    "recent_games": [{
        "game_id": "9f2c1ab04d5e6f70", "away": ["rookie"], "home": ["ace"],
        "score": {"away": 3, "home": 2}, "winner": "away",
        "finished_at": "2026-11-29T09:40:00Z"}],
}


@router.get("/leaderboard", response_model=Leaderboard,
            responses=_example(LEADERBOARD_EXAMPLE))
async def leaderboard(
    db: Db, game: GameKind, tier: Tier | None = None,
    limit: int = Query(50, ge=1, le=500, description="most players in each list"),
) -> dict[str, Any]:
    """The leaderboard page of one rating pool: ``game`` (and ``tier`` for Base on Board).

    ``established``: players with 10+ rated games and sigma ≤ 6.5 whose last rated game is at
    most 30 days old, by display rating (mu − 3·sigma). ``provisional``: the other recently
    active players of the pool, most recently active first (shown with a "?"). Both with W/L/T
    over their rated games. ``recent_games``: the pool's last 20 finished games. ``tier``
    defaults to pro and is ignored for Bottom of the 9th."""
    chosen = (tier or DEFAULT_TIER) if game == "base-on-board" else None
    pool = game_pool(game, {"tier": chosen})
    return {"game": game, "tier": chosen, **await board.board(db, pool, utcnow(), limit)}


PLAYER_EXAMPLE = {
    "name": "ace", "games": 12, "wins": 7, "losses": 5, "ties": 0,
    "ratings": {"base-on-board:pro": {"mu": 27.1, "sigma": 6.1, "games": 12, "rating": 8.8,
                                      "provisional": False, "last_played": "2026-11-28T20:15:00"}},
    "stats": {"base-on-board:pro": {
        "pool": "base-on-board:pro", "games": 12, "wins": 7, "losses": 5, "ties": 0,
        "runs_for": 51, "runs_against": 44,
        "batting": {"PA": 480, "AB": 420, "H": 110, "2B": 20, "3B": 3, "HR": 12, "BB": 50,
                    "HBP": 4, "K": 90, "R": 51, "SB": 9, "CS": 4, "AVG": 0.262, "OBP": 0.344,
                    "SLG": 0.41, "OPS": 0.754},
        "pitching": {"pitches": 1900, "strikes": 1200, "strike_pct": 0.632, "K": 85, "BB": 48,
                     "H": 101, "HR": 10, "R": 44},
        "cards": {"SB2": {"played": 11, "succeeded": 8, "success_rate": 0.727},
                  "CS2": {"played": 5, "succeeded": 3, "success_rate": 0.6}},
        "challenges": 14, "challenges_won": 6, "challenge_success_rate": 0.429,
        "bottom_of_the_9th": None},
      "bottom-of-the-9th": {
        "pool": "bottom-of-the-9th", "games": 4, "wins": 2, "losses": 2, "ties": 0,
        "runs_for": 9, "runs_against": 8,
        "batting": {"PA": 40, "AB": 36, "H": 11, "R": 5},
        "pitching": {"pitches": 120, "strikes": 70, "strike_pct": 0.583, "K": 9, "R": 3},
        "cards": {}, "challenges": 0, "challenges_won": 0, "challenge_success_rate": None,
        "bottom_of_the_9th": {
            "stares": 70, "direction_reads": 31, "location_reads": 27, "full_reads": 12,
            "direction_read_rate": 0.443, "location_read_rate": 0.386, "full_read_rate": 0.171,
            "races": 6, "race_wins": 4, "race_win_rate": 0.667, "max_fatigue": 4,
            "recoveries": 2, "benched": 1}}},
    "recent": [{"game_id": "9f2c1ab04d5e6f70", "kind": "base-on-board", "tier": "pro",
                "side": "home", "outcome": "win", "finished_at": "2026-11-28T20:15:00+00:00"}],
}


@router.get("/players/{name}", responses=_example(PLAYER_EXAMPLE))
async def player(
    name: str, db: Db, game: GameKind | None = None, tier: Tier | None = None,
) -> dict[str, Any]:
    """Ratings, stats per pool (SQL over the pitch table) and recent games of one account.

    Stats cover every pool the account played, or the one ``game`` / ``tier`` names; the
    top-level games / wins / losses / ties are their sums. Each pool's stats are all-time:
    batting (with SB / CS) and pitching lines, and (Base on Board) ``cards`` (played,
    succeeded and success rate per card code, for the side the account was on) and its
    challenges (made, won: the call reversed, success rate); ``bottom_of_the_9th`` (Bottom of
    the 9th pool, else ``null``): stare-downs and the batter's reads (direction, location, both
    = MVP, with rates), races and race wins of the account's side, its pitcher's highest fatigue
    row, reliefs (``recoveries``) and pitcher changes (``benched``)."""
    account = await db.scalar(select(Account).where(Account.name_key == name.casefold()))
    if account is None:
        raise ApiError("not_found", "no such player", 404)
    stats = await queries.player_stats_by_pool(db, account.id, queries.pools_of(game, tier))
    totals = {k: sum(s[k] for s in stats.values()) for k in ("games", "wins", "losses", "ties")}
    return {
        "name": account.name, "guest": account.is_guest, **totals,
        "ratings": await queries.player_ratings(db, account.id),
        "stats": stats,
        "recent": await queries.recent_games(db, account.id),
    }


async def _game(db: Db, game_id: str) -> Game:
    game = await db.get(Game, game_id)
    if game is None:
        raise ApiError("not_found", "no such game", 404)
    return game


@router.get("/games/{game_id}/playbyplay", responses=_example({
    "game_id": "9f2c1ab04d5e6f70", "lang": "ko", "by": "pitch",
    "lines": [{"seq": 12, "inning": 1, "half": "top", "text": "1회초 1번 타자: 볼 (B)"}],
}))
async def playbyplay(
    game_id: str, db: Db, lang: Literal["ko", "en"] = "en",
    by: Literal["pitch", "pa"] = Query("pitch", description="one line per pitch or per PA"),
) -> dict[str, Any]:
    """Play-by-play in Korean or English, from the pitch records."""
    game = await _game(db, game_id)
    rows = await gamelog.records(db, game.id)
    lines = play_by_play(rows, lang, game.kind) if by == "pitch" else plate_appearances(
        rows, lang, game.kind)
    return {"game_id": game.id, "lang": lang, "by": by, "lines": [x.to_json() for x in lines]}


@router.get("/games/{game_id}/replay", responses=_example({
    "game_id": "9f2c1ab04d5e6f70", "seq": 40,
    "situation": {"pitches": 9, "seq": 38, "inning": 1, "half": "bottom", "offense": "home",
                  "batter": 3, "balls": 1, "strikes": 0, "outs": 1, "bases": "100",
                  "score": {"away": 1, "home": 0}, "hits": {"away": 2, "home": 1},
                  "line": {"away": [1], "home": [0]}},
    "engine": {"applied_seq": 40, "view": {"...": "the spectators' view"}, "state": {}},
}))
async def replay(game_id: str, db: Db, ctx: Ctx, seq: int = Query(..., ge=0)) -> dict[str, Any]:
    """The game right after event ``seq``: the public situation from the pitch records, and
    (once the game is over) the engine's state and spectator view rebuilt from the stored
    actions and the revealed seed."""
    game = await _game(db, game_id)
    if seq > game.seq:
        raise ApiError("bad_seq", f"the game is at seq {game.seq}", 422)
    rows = await gamelog.records(db, game.id)
    engine = None
    if game.status != "live":
        engine = await gamelog.engine_state_at(db, ctx.catalog, game, seq)
    return {"game_id": game.id, "seq": seq, "situation": state_at_seq(rows, seq),
            "engine": engine}


@router.get("/games/{game_id}/export", responses=_example({
    "format": "bob-game-export", "version": 1, "game_id": "9f2c1ab04d5e6f70",
    "kind": "base-on-board", "options": {"tier": "pro", "innings": 9}, "seed": "…64 hex…",
    "actions": [{"first_seq": 2, "seq": 3, "side": "away", "server": False,
                 "action": {"type": "roll", "side": "away"}}],
    "pitches": ["…records…"], "box_score": {}, "play_by_play": {"ko": [], "en": []},
}))
async def export(game_id: str, db: Db) -> dict[str, Any]:
    """The whole game as JSON: options, seed and actions (once over), pitch records, box
    score, play-by-play. ``app.stats.gamelog.replay_export`` replays it with the engine."""
    return await gamelog.export(db, await _game(db, game_id))


# ------------------------------------------------------------------------------ analysis


async def _real_games(
    db: Db, game: str, tier: str | None, innings: int | None, limit: int
) -> list[tuple[list[dict[str, Any]], str | None]]:
    """The last ``limit`` finished games of a kind (and tier / innings), records and winner."""
    query = select(Game.id, Game.result, Game.options).where(
        Game.status == "finished", Game.kind == game)
    if game == "base-on-board":
        query = query.where(queries._tier_column() == (tier or DEFAULT_TIER))
    found = (await db.execute(query.order_by(Game.finished_at.desc()).limit(limit))).all()
    if innings is not None:
        found = [g for g in found if int((g[2] or {}).get("innings", 9)) == innings]
    ids = [g[0] for g in found]
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for start in range(0, len(ids), 500):
        for row in await db.scalars(
            select(Pitch).where(Pitch.game_id.in_(ids[start:start + 500]))
            .order_by(Pitch.game_id, Pitch.seq)
        ):
            by_game[row.game_id].append(pitch_out(row))
    return [(by_game[g[0]], (g[1] or {}).get("winner")) for g in found]


def _simulated(game: str, tier: str | None, innings: int | None, n: int
               ) -> list[tuple[list[dict[str, Any]], str | None]]:
    if n <= 0:
        return []
    games = cached_games(game, n, 1, tier or DEFAULT_TIER, innings or 9)
    return [(g.records, g.winner) for g in games]


@router.get("/analysis/dice", responses=_example({
    "game": "base-on-board", "games": 1,
    "dice": [{"die": "pitch", "rolls": 120, "chi_square": 3.1, "df": 4, "p_value": 0.54,
              "faces": [{"face": "B", "observed": 41, "expected": 40.0}]}],
}))
async def dice(
    db: Db, game: GameKind = "base-on-board", game_id: str | None = None,
    games: int = Query(1000, ge=1, le=20000, description="last N finished games"),
) -> dict[str, Any]:
    """Dice fairness (observed vs expected per face, chi-square and p-value) for one game
    (``game_id``) or over the last ``games`` finished games of a kind."""
    if game_id is not None:
        found = await _game(db, game_id)
        records, kind, count = await gamelog.records(db, game_id), found.kind, 1
    else:
        real = await _real_games(db, game, None, None, games) if game == "bottom-of-the-9th" \
            else [r for t in ("lite", "lite-extended", "pro")
                  for r in await _real_games(db, game, t, None, games)]
        records = [r for rows, _ in real for r in rows]
        kind, count = game, len(real)
    fairness = analysis.dice_fairness(records, kind)
    return {"game": kind, "game_id": game_id, "games": count,
            "dice": [d.to_json() for d in fairness.values()]}


@router.get("/analysis/run-expectancy", responses=_example({
    "game": "base-on-board", "tier": "pro",
    "real": {"games": 310, "table": [{"bases": "000", "outs": 0, "count": 2790, "runs": 0.52}]},
    "simulated": {"games": 200, "table": [{"bases": "000", "outs": 0, "count": 1800,
                                           "runs": 0.49}]},
}))
async def run_expectancy(
    db: Db, game: GameKind = "base-on-board", tier: Tier | None = None,
    games: int = Query(2000, ge=1, le=20000), simulated: int = Query(200, ge=0, le=2000),
) -> dict[str, Any]:
    """The 24 base-out states' expected runs from real games beside ``bob simulate``'s
    (``simulated`` games, seed 1)."""
    real = await _real_games(db, game, tier, None, games)
    sim = _simulated(game, tier, None, simulated)
    return {
        "game": game, "tier": tier if game == "base-on-board" else None,
        "real": {"games": len(real),
                 "table": analysis.run_expectancy(r for r, _ in real).to_json()},
        "simulated": {"games": len(sim),
                      "table": analysis.run_expectancy(r for r, _ in sim).to_json()},
    }


@router.get("/analysis/win-probability", responses=_example({
    "game": "base-on-board", "innings": 9,
    "real": {"games": 120, "cells": [{"inning": 1, "half": "top", "lead": 0, "games": 120,
                                      "wins": 58, "ties": 3, "probability": 0.4958}]},
    "simulated": {"games": 200, "cells": []},
}))
async def win_probability(
    db: Db, game: GameKind = "base-on-board", tier: Tier | None = None,
    innings: int = Query(9, description="game length (Base on Board: 3, 5, 7 or 9)"),
    games: int = Query(2000, ge=1, le=20000), simulated: int = Query(200, ge=0, le=2000),
) -> dict[str, Any]:
    """The batting side's chance to win from the start of each half, by inning and lead,
    from real games of one length beside simulated ones."""
    length = innings if game == "base-on-board" else None
    real = await _real_games(db, game, tier, length, games)
    sim = _simulated(game, tier, length, simulated)
    return {
        "game": game, "innings": length,
        "real": {"games": len(real),
                 "cells": [c.to_json() for c in analysis.win_probability(real)]},
        "simulated": {"games": len(sim),
                      "cells": [c.to_json() for c in analysis.win_probability(sim)]},
    }


@router.get("/analysis/card-value", responses=_example({
    "tier": "pro", "real": {"games": 310, "cards": [
        {"code": "SB2", "plays": 40, "runs_after": 0.71, "expected": 0.62, "value": 0.09}]},
    "simulated": {"games": 200, "cards": []},
}))
async def card_value(
    db: Db, tier: Tier | None = None, games: int = Query(2000, ge=1, le=20000),
    simulated: int = Query(200, ge=0, le=2000),
) -> dict[str, Any]:
    """Base on Board: each card's mean run value (runs to the end of the half minus the run
    expectancy of the state it was played in), real games beside simulated."""
    real = await _real_games(db, "base-on-board", tier, None, games)
    sim = _simulated("base-on-board", tier, None, simulated)
    return {
        "tier": tier or DEFAULT_TIER,
        "real": {"games": len(real),
                 "cards": [c.to_json() for c in analysis.card_value(r for r, _ in real).values()]},
        "simulated": {"games": len(sim), "cards": [
            c.to_json() for c in analysis.card_value(r for r, _ in sim).values()]},
    }
