"""The timer runner's database scan, through SQLAlchemy and through the driver, side by side
(issue 12).

Four times a second (``TIMER_TICK_SECONDS``) the timer runner reads the live games with a
deadline due within the tick: the deadlines other processes set, or a restart left, which this
process's own heap does not hold (:mod:`app.games.timers`). This puts ``--games`` games in a
database, ``--due`` of them due (50 of 200 by default: a guess at the share with a deadline in
the tick, most of them automatic passes; it was not counted in a server), and times the CPU
of ``--scans`` scans each way (:func:`app.games.timers.due_games`), the ways interleaved
``--rounds`` times. It prints one JSON line a run, with the CPU milliseconds per scan.

    .venv/bin/python bench/timer_scan.py --games 200 --due 50 --scans 300 --rounds 3

Without ``--url`` it creates a database of its own and drops it after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import delete, insert

from app.db import Database
from app.games.models import Game
from app.games.timers import due_games
from app.migrate import upgrade_to_head
from app.models import Account, Room

PREFIX = "bench-scan-"
"""The ids of the rows this puts in the database, and takes out after."""


def _deadlines(at: datetime, now: datetime) -> dict[str, Any]:
    """Two sides' deadlines as a commit writes them: the response timer, and one side's
    automatic pass at ``at``."""
    later = (now + timedelta(seconds=20)).isoformat()
    return {"home": {"at": later, "timer": "response", "pass_at": at.isoformat(),
                     "acts_at": at.isoformat(), "acts": "pass"},
            "away": {"at": later, "timer": "response", "pass_at": at.isoformat()}}


async def measure(url: str, games: int, due: int, scans: int, rounds: int
                  ) -> list[dict[str, Any]]:
    db = Database(url)
    now = datetime.now(UTC)
    runs: list[dict[str, Any]] = []
    try:
        async with db.engine.begin() as conn:
            await conn.execute(insert(Account).values(id=PREFIX + "a", name=PREFIX + "a",
                                                      name_key=PREFIX + "a"))
            for number in range(games):
                at = now - timedelta(seconds=1) if number < due else now + timedelta(hours=1)
                await conn.execute(insert(Room).values(
                    id=f"{PREFIX}r{number}", kind="base-on-board", options={}, teams={},
                    timers={}, invites={}, created_by=PREFIX + "a"))
                await conn.execute(insert(Game).values(
                    id=f"{PREFIX}g{number}", room_id=f"{PREFIX}r{number}",
                    kind="base-on-board", options={}, state={}, version=1, seed="0" * 64,
                    seed_hash="0" * 64, deadlines=_deadlines(at, now), next_deadline_at=at))
        for round_number in range(1, rounds + 1):
            for way, driver in (("sqlalchemy", False), ("driver", True)):
                await due_games(db, now, None, driver)  # warm: a connection, a statement
                cpu = time.process_time()
                for _ in range(scans):
                    found = await due_games(db, datetime.now(UTC) + timedelta(seconds=0.25),
                                            None, driver)
                    assert len(found) == due, len(found)
                runs.append({"round": round_number, "way": way, "games": games, "due": due,
                             "scans": scans, "cpu_ms_per_scan": round(
                                 (time.process_time() - cpu) / scans * 1000, 4)})
    finally:
        async with db.engine.begin() as conn:
            await conn.execute(delete(Game).where(Game.id.startswith(PREFIX)))
            await conn.execute(delete(Room).where(Room.id.startswith(PREFIX)))
            await conn.execute(delete(Account).where(Account.id.startswith(PREFIX)))
        await db.dispose()
    return runs


async def _own_database(args: argparse.Namespace) -> list[dict[str, Any]]:
    from bench.serving import ADMIN, admin

    name = f"bob_bench_{secrets.token_hex(4)}"
    await admin(f'CREATE DATABASE "{name}"')
    url = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{name}"
    try:
        await asyncio.to_thread(upgrade_to_head, url)
        return await measure(url, args.games, args.due, args.scans, args.rounds)
    finally:
        await admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", help="a migrated PostgreSQL database (SQLAlchemy's URL)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--due", type=int, default=50)
    parser.add_argument("--scans", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.url:
        runs = asyncio.run(measure(args.url, args.games, args.due, args.scans, args.rounds))
    else:
        runs = asyncio.run(_own_database(args))
    for run in runs:
        print(json.dumps(run))
    return runs


if __name__ == "__main__":
    main()
