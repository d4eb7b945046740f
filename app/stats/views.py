"""Stats API: leaderboard, player pages, game records (play-by-play, replay, export), analysis.

Conventions and rules are in docs/stats.md (copied from the ``app.stats`` module texts).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response
from sqlalchemy import select

from app.accounts.models import Account
from app.db import utcnow
from app.deps import Ctx, Db
from app.errors import ApiError
from app.games.hold import visible_seq
from app.games.models import Game, GamePlayer
from app.games.pitches import pitch_records
from app.games.schemas import GameSummary
from app.games.stats import line_score
from app.stats import baselines, board, gamelog, queries
from app.stats.boxscore import box_score
from app.stats.models import AnalysisTable
from app.stats.playbyplay import plate_appearances, play_by_play
from app.stats.replay import state_at_seq
from app.stats.schemas import Leaderboard
from app.stats.store import DEFAULT_TIER, game_pool
from app.validation import MAX_SEQ

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
    game_id: str, db: Db, ctx: Ctx, lang: Literal["ko", "en"] = "en",
    by: Literal["pitch", "pa"] = Query("pitch", description="one line per pitch or per PA"),
) -> dict[str, Any]:
    """Play-by-play in Korean or English, from the pitch records."""
    game = await _game(db, game_id)
    rows = await pitch_records(db, game)
    lines = await ctx.cpu.run(
        play_by_play if by == "pitch" else plate_appearances, rows, lang, game.kind)
    return {"game_id": game.id, "lang": lang, "by": by, "lines": [x.to_json() for x in lines]}


@router.get("/games/{game_id}/replay", responses=_example({
    "game_id": "9f2c1ab04d5e6f70", "seq": 40,
    "situation": {"pitches": 9, "seq": 38, "inning": 1, "half": "bottom", "offense": "home",
                  "batter": 3, "balls": 1, "strikes": 0, "outs": 1, "bases": "100",
                  "score": {"away": 1, "home": 0}, "hits": {"away": 2, "home": 1},
                  "line": {"away": [1], "home": [0]}},
    "engine": {"applied_seq": 40, "view": {"...": "the spectators' view"}, "state": {}},
}))
async def replay(
    game_id: str, db: Db, ctx: Ctx, seq: int = Query(..., ge=0, le=MAX_SEQ)
) -> dict[str, Any]:
    """The game right after event ``seq``: the public situation from the pitch records, and
    (once the game is over) the engine's state and spectator view rebuilt from the stored
    actions and the revealed seed."""
    game = await _game(db, game_id)
    seen = visible_seq(game)
    if seq > seen:
        raise ApiError("bad_seq", f"the game is at seq {seen}", 422)
    rows = await pitch_records(db, game)
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
async def export(game_id: str, db: Db, ctx: Ctx) -> Response:
    """The whole game as JSON: options, seed and actions (once over), pitch records, box
    score, play-by-play. ``app.stats.gamelog.replay_export`` replays it with the engine."""
    return await gamelog.export(db, await _game(db, game_id), ctx.cpu)


# ------------------------------------------------------------------------------ analysis
# Every answer below is read from ``analysis_table`` (app.stats.baselines): nothing here
# computes over many games while a request waits, and the parameters are a fixed small set.

SIMULATED_DOC = (f"0 leaves the simulated column out; {baselines.SIMULATED_GAMES} (the default) "
                 "is the only other choice")
Simulated = Annotated[int, Query(description=SIMULATED_DOC)]
Innings = Annotated[int, Query(description="game length: 3, 5, 7 or 9 (Base on Board)")]


def _one_of(name: str, value: int, allowed: tuple[int, ...]) -> int:
    """Query numbers outside the precomputed set are refused (422), never computed."""
    if value not in allowed:
        raise ApiError("invalid_request", f"query.{name}: one of {allowed}", 422)
    return value


def _column(row: AnalysisTable | None, field: str, payload: Any = None) -> dict[str, Any]:
    """One column of an answer: ``games`` and the table (empty until the job has run)."""
    if row is None:
        return {"games": 0, "computed_at": None, field: []}
    return {"games": row.games, "computed_at": row.computed_at.isoformat(),
            field: row.payload if payload is None else payload}


async def _answer(
    db: Db, real: str, simulated: str | None, field: str, part: str | None = None
) -> dict[str, Any]:
    rows = await baselines.read(db, [real] + ([simulated] if simulated else []))
    sim_row = rows.get(simulated) if simulated else None
    sim_payload = sim_row.payload[part] if sim_row is not None and part else None
    answer = {"real": _column(rows.get(real), field)}
    if simulated is not None:
        answer["simulated"] = _column(sim_row, field, sim_payload)
    else:
        answer["simulated"] = {"games": 0, "computed_at": None, field: []}
    return answer


def _simulated_key(game: str, tier: str | None, innings: int | None, n: int) -> str | None:
    if _one_of("simulated", n, (0, baselines.SIMULATED_GAMES)) == 0:
        return None
    return baselines.simulated_key(game, tier or DEFAULT_TIER, innings or 9)


@router.get("/analysis/dice", responses=_example({
    "game": "base-on-board", "games": 1, "computed_at": "2026-12-01T08:00:00+00:00",
    "dice": [{"die": "pitch", "rolls": 120, "chi_square": 3.1, "df": 4, "p_value": 0.54,
              "faces": [{"face": "B", "observed": 41, "expected": 40.0}]}],
}))
async def dice(
    db: Db, game: GameKind = "base-on-board", game_id: str | None = None,
) -> dict[str, Any]:
    """Dice fairness (observed vs expected per face, chi-square and p-value) for one game
    (``game_id``), or over the last 1,000 finished games of each pool of a kind (precomputed;
    ``computed_at`` says when)."""
    if game_id is not None:
        found = await _game(db, game_id)
        counts = baselines.dice_counts([await pitch_records(db, found)])
        return {"game": found.kind, "game_id": game_id, "games": 1, "computed_at": None,
                "dice": baselines.dice_table(found.kind, counts)}
    row = (await baselines.read(db, [baselines.real_key("dice", game)])).get(
        baselines.real_key("dice", game))
    return {"game": game, "game_id": None, **_column(row, "dice")}


@router.get("/analysis/run-expectancy", responses=_example({
    "game": "base-on-board", "tier": "pro",
    "real": {"games": 310, "computed_at": "2026-12-01T08:00:00+00:00",
             "table": [{"bases": "000", "outs": 0, "count": 2790, "runs": 0.52}]},
    "simulated": {"games": 200, "computed_at": "2026-12-01T08:00:00+00:00",
                  "table": [{"bases": "000", "outs": 0, "count": 1800, "runs": 0.49}]},
}))
async def run_expectancy(
    db: Db, game: GameKind = "base-on-board", tier: Tier | None = None,
    simulated: Simulated = baselines.SIMULATED_GAMES,
) -> dict[str, Any]:
    """The 24 base-out states' expected runs: the last 1,000 finished games of the pool beside
    ``bob simulate``'s 200 (9 innings, seed 1). Both precomputed."""
    chosen = (tier or DEFAULT_TIER) if game == "base-on-board" else None
    answer = await _answer(db, baselines.real_key("re", game, chosen),
                           _simulated_key(game, chosen, 9, simulated), "table", "re")
    return {"game": game, "tier": chosen, **answer}


@router.get("/analysis/win-probability", responses=_example({
    "game": "base-on-board", "tier": "pro", "innings": 9,
    "real": {"games": 120, "computed_at": "2026-12-01T08:00:00+00:00",
             "cells": [{"inning": 1, "half": "top", "lead": 0, "games": 120, "wins": 58,
                        "ties": 3, "probability": 0.4958}]},
    "simulated": {"games": 200, "computed_at": "2026-12-01T08:00:00+00:00", "cells": []},
}))
async def win_probability(
    db: Db, game: GameKind = "base-on-board", tier: Tier | None = None,
    innings: Innings = 9,
    simulated: Simulated = baselines.SIMULATED_GAMES,
) -> dict[str, Any]:
    """The batting side's chance to win from the start of each half, by inning and lead, from
    the pool's last 1,000 finished games of that length beside simulated ones (precomputed)."""
    chosen = (tier or DEFAULT_TIER) if game == "base-on-board" else None
    length = _one_of("innings", innings, baselines.INNINGS) if game == "base-on-board" else None
    answer = await _answer(db, baselines.real_key("wp", game, chosen, length),
                           _simulated_key(game, chosen, length, simulated), "cells", "wp")
    return {"game": game, "tier": chosen, "innings": length, **answer}


@router.get("/analysis/card-value", responses=_example({
    "tier": "pro",
    "real": {"games": 310, "computed_at": "2026-12-01T08:00:00+00:00", "cards": [
        {"code": "SB2", "plays": 40, "runs_after": 0.71, "expected": 0.62, "value": 0.09}]},
    "simulated": {"games": 200, "computed_at": "2026-12-01T08:00:00+00:00", "cards": []},
}))
async def card_value(
    db: Db, tier: Tier | None = None,
    simulated: Simulated = baselines.SIMULATED_GAMES,
) -> dict[str, Any]:
    """Base on Board: each card's mean run value (runs to the end of the half minus the run
    expectancy of the state it was played in), the pool's last 1,000 finished games beside
    simulated ones (9 innings). Precomputed."""
    chosen = tier or DEFAULT_TIER
    answer = await _answer(db, baselines.real_key("cv", "base-on-board", chosen),
                           _simulated_key("base-on-board", chosen, 9, simulated), "cards", "cv")
    return {"tier": chosen, **answer}


# ------------------------------------------------------------------ the browser's records


@router.get("/games/{game_id}/record")
async def game_record(game_id: str, db: Db, ctx: Ctx) -> Response:
    """Box score, play-by-play (ko and en) and the situation after every pitch, for the game
    record page and its replay scrubber. While a game is live this is what has been thrown."""
    game = await db.get(Game, game_id)
    if game is None:
        raise ApiError("not_found", "no such game", 404)
    return await ctx.cpu.json(_record_document, await pitch_records(db, game), game.id,
                              game.kind)


def _record_document(records: list[dict[str, Any]], game_id: str, kind: str) -> dict[str, Any]:
    from app.stats.replay import export_game, states

    document = export_game(records, {"game_id": game_id, "kind": kind})
    document["states"] = states(records)
    document.pop("pitches", None)
    document["seqs"] = [r["seq"] for r in records]
    document["dice"] = [r.get("dice") or [] for r in records]
    return document


@router.get("/players/{name}/charts")
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
    for kind in ("base-on-board", "bottom-of-the-9th"):
        ids = [g["game_id"] for g in games if g["kind"] == kind]
        if ids:
            fairness[kind] = baselines.dice_table(kind, await queries.dice_counts(db, ids))
    return {"name": account.name, "games": games, "dice": fairness,
            "ratings": await queries.rating_history(db, account.id)}


@router.get("/games/{game_id}", response_model=GameSummary)
async def game_summary(game_id: str, db: Db, ctx: Ctx) -> GameSummary:
    """A game's header, line score, players and box score."""
    game = await db.get(Game, game_id)
    if game is None:
        raise ApiError("not_found", "no such game", 404)
    lines, runs = await line_score(db, game)
    players: dict[str, list[str]] = {"home": [], "away": []}
    for name, side in (
        await db.execute(
            select(Account.name, GamePlayer.side)
            .join(GamePlayer, GamePlayer.account_id == Account.id)
            .where(GamePlayer.game_id == game.id)
            .order_by(Account.name)
        )
    ).all():
        players.setdefault(side, []).append(name)
    records = await pitch_records(db, game)
    pitches = len(records)
    return GameSummary(
        id=game.id, room_id=game.room_id, kind=game.kind, number=game.number,
        status=game.status, options=game.options, seq=visible_seq(game),
        seed_hash=game.seed_hash,
        result=game.result, players=players, line_score=lines,
        runs=runs, pitches=pitches, started_at=game.started_at, finished_at=game.finished_at,
        box_score=(await ctx.cpu.run(box_score, records)).to_json(),
    )
