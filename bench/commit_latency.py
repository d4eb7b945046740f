"""How long PostgreSQL takes to commit one command's write on this machine, alone (issue 12).

Every command is answered only after its write commits (the event log is the truth), so a
commit's latency is a floor under the command's. This times the write's shape, one row's
``UPDATE`` of a ``jsonb`` about the size of a game's state, each its own commit on one
connection, with nothing else running: with ``synchronous_commit`` on (the server's setting:
the commit waits for the WAL flush) and off (it does not), alternated ``--rounds`` times. It
prints one JSON line a run with p50, p99 and max in milliseconds. A table of its own is
created and dropped in the database given.

    .venv/bin/python bench/commit_latency.py --commits 2000 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.run import percentile
from app.raw_pool import dsn

TABLE = "bench_commit_latency"
STATE_BYTES = 3000
"""About a Base on Board state's JSON (the statement's largest value)."""


async def measure(url: str, commits: int, rounds: int) -> list[dict[str, Any]]:
    connection = await asyncpg.connect(dsn(url))
    runs: list[dict[str, Any]] = []
    try:
        await connection.execute(f"DROP TABLE IF EXISTS {TABLE}")
        await connection.execute(f"CREATE TABLE {TABLE} (id int PRIMARY KEY, state jsonb)")
        await connection.execute(f"INSERT INTO {TABLE} VALUES (1, '{{}}')")
        statement = f"UPDATE {TABLE} SET state = $1::jsonb WHERE id = 1"
        filler = "x" * STATE_BYTES
        for round_number in range(1, rounds + 1):
            for mode in ("on", "off"):
                await connection.execute(f"SET synchronous_commit = {mode}")
                spent: list[float] = []
                for number in range(commits):
                    value = json.dumps({"n": number, "filler": filler})
                    started = time.perf_counter()
                    await connection.execute(statement, value)
                    spent.append((time.perf_counter() - started) * 1000)
                runs.append({"round": round_number, "synchronous_commit": mode,
                             "commits": commits,
                             "p50_ms": round(percentile(spent, 0.5) or 0.0, 3),
                             "p99_ms": round(percentile(spent, 0.99) or 0.0, 3),
                             "max_ms": round(max(spent), 3)})
    finally:
        try:
            await connection.execute(f"DROP TABLE IF EXISTS {TABLE}")
        finally:
            await connection.close()
    return runs


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/postgres",
                        help="the database (libpq or SQLAlchemy's asyncpg URL)")
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    runs = asyncio.run(measure(args.url, args.commits, args.rounds))
    for run in runs:
        print(json.dumps(run))
    return runs


if __name__ == "__main__":
    main()
