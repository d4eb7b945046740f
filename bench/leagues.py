"""Leagues benchmark: standings, leaders and a club's record on PostgreSQL, over a finished
double round robin of 20 clubs (2 members each): 380 nine-inning Base on Board games.

Creates a fresh database, migrates it, plays the 380 games with the computer's policy
(``app.stats.simulated``, several processes) and writes them the way the server stores them:
rooms for the two clubs, finished games, both members of each side in ``game_player``,
``game_clubs``, pitch rows and their ``pitch_play`` rows from ``app.games.pitches``' row
builders, and the league's entrants and scheduled games (the schedule from
``app.leagues.schedule``) with their results. Then starts ``bob serve`` and times sequential
requests of ``GET /api/leagues/{id}/standings`` and ``GET /api/leagues/{id}/leaders`` (and
the server's very first of each, before anything is cached), and ``GET /api/clubs/{id}`` of
random clubs (the whole club page: roster, record, lines, rating, recent games). Prints one
JSON line (fill time, row counts, p50 / p95 / max in ms).

    .venv/bin/python bench/leagues.py --requests 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
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

from app.leagues.schedule import round_robin  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from bench.serving import ADMIN, admin, served  # noqa: E402
from bench.stats import CHUNK, PITCH_COLUMNS, PLAY_COLUMNS, simulate_chunk, summary  # noqa: E402

CLUBS = 20
MEMBERS = 2


async def fill(dsn: str, workers: int) -> dict[str, Any]:
    started = time.perf_counter()
    rng = random.Random(5)
    now = datetime.now(UTC)
    schedule = round_robin(CLUBS, 2)
    pairings = [(number, home, away) for number, pairs in enumerate(schedule, start=1)
                for home, away in pairs]
    needed = len(pairings)
    seeds = list(range(1, 1 + (needed + CHUNK - 1) // CHUNK))
    with ProcessPoolExecutor(workers) as pool:
        games = [g for chunk in pool.map(simulate_chunk, [s * 5 for s in seeds]) for g in chunk]
    games = [g for g in games if g[1] == "pro"][:needed]  # simulate_chunk(5k) is always pro
    assert len(games) == needed, len(games)
    connection = await asyncpg.connect(dsn)
    accounts = [(secrets.token_hex(8), f"m{i:03d}") for i in range(CLUBS * MEMBERS)]
    await connection.copy_records_to_table(
        "accounts", columns=["id", "name", "name_key", "password_hash", "is_guest",
                             "created_at"],
        records=[(a, n, n, None, False, now - timedelta(days=90)) for a, n in accounts])
    clubs = [(secrets.token_hex(8), f"Club {i:02d}", f"club {i:02d}", f"C{i:02d}")
             for i in range(CLUBS)]
    members = {i: accounts[i * MEMBERS:(i + 1) * MEMBERS] for i in range(CLUBS)}
    await connection.copy_records_to_table(
        "clubs", columns=["id", "name", "name_key", "code", "colors", "created_by",
                          "created_at"],
        records=[(c, n, k, code, "{}", members[i][0][0], now - timedelta(days=80))
                 for i, (c, n, k, code) in enumerate(clubs)])
    await connection.copy_records_to_table(
        "club_members", columns=["club_id", "account_id", "role", "joined_at"],
        records=[(clubs[i][0], a, "owner" if j == 0 else "member", now - timedelta(days=80))
                 for i in range(CLUBS) for j, (a, _) in enumerate(members[i])])
    league_id = secrets.token_hex(6)
    start = now - timedelta(days=40)
    await connection.execute(
        "INSERT INTO leagues (id, name, name_key, kind, options, entrant_type, rounds,"
        " deadline_hours, knockout, status, created_by, created_at, started_at)"
        " VALUES ($1, 'Bench league', 'bench league', 'base-on-board', $2, 'club', 2, 24, 0,"
        " 'finished', $3, $4, $4)", league_id, json.dumps({"tier": "pro", "innings": 9}),
        members[0][0][0], start)
    entrant_ids = []
    for i, club in enumerate(clubs):
        entrant_ids.append(await connection.fetchval(
            "INSERT INTO league_entrants (league_id, club_id, joined_at) VALUES ($1, $2, $3)"
            " RETURNING id", league_id, club[0], start + timedelta(seconds=i)))
    rooms, game_rows, players, sides, league_games, pitch_rows, play_rows = (
        [], [], [], [], [], [], [])
    for (number, home, away), (game_id, _tier, options, winner, rows, plays) in zip(
            pairings, games, strict=True):
        finished = start + timedelta(hours=24 * number - rng.uniform(1, 20))
        score = {"away": 0, "home": 0}
        for r in rows:
            score[r[PITCH_COLUMNS.index("offense")]] += r[PITCH_COLUMNS.index("runs")]
        result = {"winner": winner, "score": score, "reason": "final"}
        club_of = {"home": clubs[home][0], "away": clubs[away][0]}
        rooms.append((game_id, "base-on-board", json.dumps(options), "{}", "{}", True,
                      "finished", members[home][0][0], game_id, 1, finished,
                      json.dumps(club_of), "{}"))
        game_rows.append((
            game_id, game_id, 1, "base-on-board", json.dumps(options), "{}", 1, len(rows) + 2,
            "finished", "00" * 32, "11" * 32, 0, "{}", None, json.dumps(result),
            finished - timedelta(minutes=25), finished))
        for side, index in (("home", home), ("away", away)):
            players += [(game_id, a, side) for a, _ in members[index]]
            sides.append((game_id, side, club_of[side]))
        winning = {"home": entrant_ids[home], "away": entrant_ids[away]}.get(str(winner))
        league_games.append((
            league_id, "season", number, entrant_ids[home], entrant_ids[away], start,
            start + timedelta(hours=24 * number), game_id, game_id, "final", score["home"],
            score["away"], winning, "play", finished))
        pitch_rows += rows
        play_rows += plays
    await connection.copy_records_to_table(
        "rooms", records=rooms,
        columns=["id", "kind", "options", "teams", "timers", "private", "status",
                 "created_by", "current_game_id", "games_played", "created_at", "clubs",
                 "invites"])
    await connection.copy_records_to_table(
        "games", records=game_rows,
        columns=["id", "room_id", "number", "kind", "options", "state", "version", "seq",
                 "status", "seed", "seed_hash", "draw_count", "deadlines", "next_deadline_at",
                 "result", "started_at", "finished_at"])
    await connection.copy_records_to_table(
        "game_player", records=players, columns=["game_id", "account_id", "side"])
    await connection.copy_records_to_table(
        "game_clubs", records=sides, columns=["game_id", "side", "club_id"])
    await connection.copy_records_to_table("pitch", records=pitch_rows, columns=PITCH_COLUMNS)
    await connection.copy_records_to_table(
        "pitch_play", records=play_rows, columns=PLAY_COLUMNS)
    await connection.copy_records_to_table(
        "league_games", records=league_games,
        columns=["league_id", "stage", "round", "home_entrant", "away_entrant", "opens_at",
                 "deadline_at", "room_id", "game_id", "status", "home_runs", "away_runs",
                 "winner_entrant", "decided_by", "finished_at"])
    await connection.execute("VACUUM ANALYZE")  # as autovacuum would
    await connection.close()
    return {"league_id": league_id, "club_ids": [c[0] for c in clubs], "games": needed,
            "pitch_rows": len(pitch_rows), "pitch_play_rows": len(play_rows),
            "fill_seconds": round(time.perf_counter() - started, 1)}


async def measure(base: str, league_id: str, club_ids: list[str], requests: int
                  ) -> dict[str, Any]:
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        paths = {"standings": f"/api/leagues/{league_id}/standings",
                 "leaders": f"/api/leagues/{league_id}/leaders"}
        club_paths = [f"/api/clubs/{club_id}" for club_id in club_ids]
        out: dict[str, Any] = {"first_request_ms": {}}
        for key, path in paths.items():  # the server's first: nothing cached yet
            t = time.perf_counter()
            (await http.get(path)).raise_for_status()
            out["first_request_ms"][key] = round((time.perf_counter() - t) * 1000, 1)
        for _ in range(20):
            for path in paths.values():
                (await http.get(path)).raise_for_status()
        for key, path in paths.items():
            times = []
            for _ in range(requests):
                t = time.perf_counter()
                response = await http.get(path)
                times.append(time.perf_counter() - t)
                response.raise_for_status()
            out[key] = summary(times)
        times = []
        for i in range(requests + 20):  # a club page: roster, record, lines, rating, recent
            t = time.perf_counter()
            response = await http.get(rng.choice(club_paths))
            if i >= 20:
                times.append(time.perf_counter() - t)
            response.raise_for_status()
            assert response.json()["record"]["games"] == 38, response.text
        out["club_page"] = summary(times)
        table = (await http.get(paths["standings"])).json()
        leaders = (await http.get(paths["leaders"])).json()
    out["standings_rows"] = len(table)
    out["games_counted"] = leaders["games"]
    out["leader"] = {"club": table[0]["name"], "wins": table[0]["wins"],
                     "losses": table[0]["losses"]}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()

    name = f"bob_bench_leagues_{secrets.token_hex(4)}"
    base_url = ADMIN.rsplit("/", 1)[0]
    url = base_url.replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    report: dict[str, Any] = {"database": name}
    try:
        asyncio.run(admin(f'CREATE DATABASE "{name}"'))
        upgrade_to_head(url)
        filled = asyncio.run(fill(f"{base_url}/{name}", args.workers))
        club_ids = filled.pop("club_ids")
        report.update(filled)
        with served(url, LEAGUE_TICK_SECONDS="0") as base:
            report.update(asyncio.run(measure(base, filled["league_id"], club_ids,
                                              args.requests)))
        report["cpus"] = os.cpu_count()
        print(json.dumps(report))
        return 0
    finally:
        if not args.keep:
            asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    sys.exit(main())
