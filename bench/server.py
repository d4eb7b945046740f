"""Server benchmark: N concurrent games played by `bob bots`, K spectators each, one server.

Creates a fresh PostgreSQL database (or a SQLite file), migrates it, starts `bob serve` as its
own process on a free loopback port, plays the games, and prints one JSON line: commands per
second and latency from a command's send to the last spectator's receipt of its first event.
The bots run in this process, so on a small machine they compete with the server for CPU.

    .venv/bin/python bench/server.py --games 200 --spectators 3 --database postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots.run import run_bots  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from bench.serving import ADMIN, admin, served  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=3)
    parser.add_argument("--game", default="base-on-board")
    parser.add_argument("--options", default='{"innings": 3}')
    parser.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    args = parser.parse_args()

    name = f"bob_bench_{secrets.token_hex(4)}"
    if args.database == "postgres":
        asyncio.run(admin(f'CREATE DATABASE "{name}"'))
        url = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    else:
        url = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    try:
        upgrade_to_head(url)
        with served(url, WS_RATE_PER_SECOND="50", WS_RATE_BURST="50") as base:
            result = asyncio.run(run_bots(base, args.game, args.games, args.spectators,
                                          args.games, 1, json.loads(args.options)))
        result["database"] = args.database
        result["cpus"] = os.cpu_count()
        print(json.dumps(result))
        return 0 if not result["failures"] else 1
    finally:
        if args.database == "postgres":
            asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    sys.exit(main())
