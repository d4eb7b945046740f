"""Stats benchmark: leaderboard and player page latency over a PostgreSQL database holding
``--pitches`` (default 1,000,000) pitch rows of simulated Base on Board games.

Creates a fresh database, migrates it, plays games with ``bob simulate``'s policy
(``app.stats.simulated``, several processes), writes accounts, rooms, finished games, seats and
pitch rows (and their ``pitch_play`` rows) with COPY, rebuilds the ratings (``bob ratings
rebuild``'s code), starts ``bob serve`` on a free loopback port and times sequential HTTP
requests: ``GET /api/leaderboard?game=base-on-board&tier=pro`` and ``GET /api/players/{name}``
for random players. Prints one JSON line (fill time, row counts, p50 / p95 / max in ms).

    .venv/bin/python bench/stats.py --pitches 1000000 --players 500 --requests 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.db import Database  # noqa: E402
from app.games.models import Pitch, PitchPlay  # noqa: E402
from app.games.pitches import pitch_row, play_rows  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from app.stats.simulated import base_on_board_games  # noqa: E402
from app.stats.store import rebuild  # noqa: E402
from bench.serving import ADMIN, admin, served  # noqa: E402

PITCH_COLUMNS = [c.key for c in Pitch.__table__.columns if c.key != "id"]
PLAY_COLUMNS = [c.key for c in PitchPlay.__table__.columns]
JSON_COLUMNS = {"dice", "cards", "extras"}
CHUNK = 100
TIERS = ("pro", "pro", "pro", "pro", "lite")


def simulate_chunk(
    seed: int,
) -> list[tuple[str, str, dict[str, Any], str | None, list[tuple], list[tuple]]]:
    """``CHUNK`` games from one seed: (game id, tier, options, winner, pitch rows, play rows)."""
    tier = TIERS[seed % len(TIERS)]
    out = []
    now = datetime.now(UTC)
    for i, game in enumerate(base_on_board_games(CHUNK, seed, tier, 9)):
        game_id = f"b{seed:05d}{i:04d}"
        rows, plays = [], []
        for n, record in enumerate(game.records, start=1):
            row = pitch_row(game_id, "base-on-board", n + 1, n, record)
            row.created_at = now
            rows.append(tuple(
                json.dumps(getattr(row, c)) if c in JSON_COLUMNS else getattr(row, c)
                for c in PITCH_COLUMNS))
            plays += [tuple(getattr(p, c) for c in PLAY_COLUMNS)
                      for p in play_rows(game_id, n + 1, record)]
        out.append((game_id, tier, game.options, game.winner, rows, plays))
    return out


async def fill(dsn: str, pitches: int, players: int, workers: int) -> dict[str, Any]:
    started = time.perf_counter()
    rng = random.Random(7)
    now = datetime.now(UTC)
    accounts = [(secrets.token_hex(8), f"p{i:05d}") for i in range(players)]
    connection = await asyncpg.connect(dsn)
    await connection.copy_records_to_table(
        "accounts", columns=["id", "name", "name_key", "password_hash", "is_guest",
                             "created_at"],
        records=[(a, n, n, None, False, now - timedelta(days=60)) for a, n in accounts])
    total = games = plays_total = 0
    seed = 0
    with ProcessPoolExecutor(workers) as pool:
        while total < pitches:
            seeds = list(range(seed + 1, seed + 1 + workers))
            seed += workers
            for chunk in pool.map(simulate_chunk, seeds):
                rooms, game_rows, seats, pitch_rows, play_rows_ = [], [], [], [], []
                for game_id, _tier, options, winner, rows, plays in chunk:
                    finished = now - timedelta(minutes=rng.uniform(1, 40 * 24 * 60))
                    size = rng.choice((1, 1, 1, 1, 2))
                    picked = rng.sample(accounts, 2 * size)
                    home, away = picked[:size], picked[size:]
                    score = {"away": 0, "home": 0}
                    for r in rows:
                        score[r[PITCH_COLUMNS.index("offense")]] += r[PITCH_COLUMNS.index("runs")]
                    result = {"winner": winner, "score": score, "reason": "game"}
                    rooms.append((game_id, "base-on-board", json.dumps(options), "{}", "{}",
                                  False, "finished", home[0][0], game_id, 1, finished))
                    game_rows.append((
                        game_id, game_id, 1, "base-on-board", json.dumps(options), "{}", 1,
                        len(rows) + 2, "finished", "00" * 32, "11" * 32, 0, "{}", None,
                        json.dumps(result), finished - timedelta(minutes=25), finished))
                    seats += [(game_id, a, "home") for a, _ in home]
                    seats += [(game_id, a, "away") for a, _ in away]
                    pitch_rows += rows
                    play_rows_ += plays
                    games += 1
                    total += len(rows)
                await connection.copy_records_to_table(
                    "rooms", records=rooms,
                    columns=["id", "kind", "options", "teams", "timers", "private", "status",
                             "created_by", "current_game_id", "games_played", "created_at"])
                await connection.copy_records_to_table(
                    "games", records=game_rows,
                    columns=["id", "room_id", "number", "kind", "options", "state", "version",
                             "seq", "status", "seed", "seed_hash", "draw_count", "deadlines",
                             "next_deadline_at", "result", "started_at", "finished_at"])
                await connection.copy_records_to_table(
                    "game_player", records=seats, columns=["game_id", "account_id", "side"])
                await connection.copy_records_to_table(
                    "pitch", records=pitch_rows, columns=PITCH_COLUMNS)
                await connection.copy_records_to_table(
                    "pitch_play", records=play_rows_, columns=PLAY_COLUMNS)
                plays_total += len(play_rows_)
                print(f"  {games} games, {total} pitches, {time.perf_counter() - started:.0f}s",
                      file=sys.stderr)
    # As autovacuum would do: statistics, and the visibility map index-only scans need.
    await connection.execute("VACUUM ANALYZE")
    await connection.close()
    return {"games": games, "pitch_rows": total, "pitch_play_rows": plays_total,
            "players": players,
            "fill_seconds": round(time.perf_counter() - started, 1)}


async def rebuild_ratings(url: str) -> float:
    started = time.perf_counter()
    database = Database(url)
    try:
        async with database.session() as db:
            await rebuild(db)
    finally:
        await database.dispose()
    return round(time.perf_counter() - started, 1)


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "n": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


async def measure(base: str, names: list[str], requests: int) -> dict[str, Any]:
    rng = random.Random(11)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        board_params = {"game": "base-on-board", "tier": "pro"}
        for _ in range(20):  # warm up connections and caches
            (await http.get("/api/leaderboard", params=board_params)).raise_for_status()
            (await http.get(f"/api/players/{rng.choice(names)}")).raise_for_status()
        board, page = [], []
        for _ in range(requests):
            t = time.perf_counter()
            response = await http.get("/api/leaderboard", params=board_params)
            board.append(time.perf_counter() - t)
            response.raise_for_status()
            t = time.perf_counter()
            response = await http.get(f"/api/players/{rng.choice(names)}")
            page.append(time.perf_counter() - t)
            response.raise_for_status()
        leaders = len((await http.get("/api/leaderboard", params=board_params)).json()[
            "established"])
    return {"leaderboard": summary(board), "player_page": summary(page),
            "leaderboard_rows": leaders}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pitches", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--database", default=None,
                        help="an existing filled database name: skip the fill")
    args = parser.parse_args()

    name = args.database or f"bob_bench_stats_{secrets.token_hex(4)}"
    base_url = ADMIN.rsplit("/", 1)[0]
    url = base_url.replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    report: dict[str, Any] = {"database": name}
    try:
        if args.database is None:
            asyncio.run(admin(f'CREATE DATABASE "{name}"'))
            upgrade_to_head(url)
            report.update(asyncio.run(fill(f"{base_url}/{name}", args.pitches, args.players,
                                           args.workers)))
            report["rating_rebuild_seconds"] = asyncio.run(rebuild_ratings(url))
        names = [f"p{i:05d}" for i in range(args.players)]
        with served(url) as base:
            report.update(asyncio.run(measure(base, names, args.requests)))
        report["cpus"] = os.cpu_count()
        print(json.dumps(report))
        return 0
    finally:
        if args.database is None and not args.keep:
            asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    sys.exit(main())
