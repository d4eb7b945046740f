"""Server benchmark: N concurrent games played by `bob bots`, K spectators each, one server.

Creates a fresh PostgreSQL database (or a SQLite file), migrates it, starts `bob serve` as its
own process on a free loopback port, and plays the games with `bob bots` run as separate OS
processes (``--bot-processes``, the games split between them), so the bots' own CPU does not
share the server's event loop. Each bot thinks ``--think-ms MIN:MAX`` before acting (default
500:1500, about five times faster than people, who play a 3-inning game of ~200 commands in
about 15 minutes), and the tables arrive spread over ``--ramp`` seconds. ``--think-ms 0:0`` is
a saturation test: every bot acts the moment a state arrives.

Prints one JSON line: commands per second (over the whole run and over the steady part, from
the last table's start to the first table's end), the latency from a command's send to the last
spectator's receipt of its first event (p50 / p99 / p99.9 / max, merged over every bot
process), and where the CPU went: the server process's CPU time per command (utime + stime
from ``/proc/<pid>/stat``; also as a share of one core over the run), all PostgreSQL processes'
CPU, the bot processes' CPU, and the machine's busy share; and the server's RSS before the load
and over the steady part. With ``--count-frames`` the bots run under ``bench/counted_bots.py``,
which counts the WebSocket frames their sockets receive.

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
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.cli import parse_think_ms  # noqa: E402
from app.db import Database  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from bench.serving import (  # noqa: E402
    ADMIN,
    RssSampler,
    admin,
    children_cpu,
    machine_cpu,
    merge,
    per,
    postgres_cpu,
    process_cpu,
    process_rss_kb,
    run_load_processes,
    served_process,
    split,
    steady_window,
)


async def applied_commands(url: str) -> dict[str, int]:
    """Commands the server applied, by who sent them: the bots' (``players``), and the
    server's own (``server``: automatic passes of pass-only windows, timeouts)."""
    database = Database(url)
    try:
        async with database.engine.connect() as conn:
            rows = await conn.execute(text(
                "SELECT CASE WHEN actor IN ('server', 'computer') THEN actor ELSE 'players' END,"
                " count(*) FROM command GROUP BY 1"
            ))
            return {str(who): int(count) for who, count in rows}
    finally:
        await database.dispose()


def run_bot_processes(base: str, args: argparse.Namespace, directory: Path
                      ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Starts the `bob bots` processes, waits for them; returns their summaries and samples
    (with ``args.count_frames``, each summary holds ``frames``: the frames its sockets got)."""
    commands = []
    seed = 1
    for index, games in enumerate(split(args.games, args.bot_processes)):
        samples = directory / f"samples-{index}.json"
        launcher = ([str(ROOT / "bench" / "counted_bots.py"), "--frames", f"{samples}.frames"]
                    if args.count_frames else ["-m", "app.cli"])
        commands.append(([
            sys.executable, *launcher, "bots", "--url", base, "--game", args.game,
            "--games", str(games), "--spectators", str(args.spectators),
            "--concurrency", str(games), "--seed", str(seed), "--options", args.options,
            "--think-ms", args.think_ms, "--ramp", str(args.ramp),
            "--timeout", str(args.timeout), "--json", "--samples", str(samples),
        ], samples))
        seed += games  # table seeds 1..games over all processes, as in one process
    summaries, samples_list = run_load_processes(commands)
    if args.count_frames:
        for summary, (_, samples) in zip(summaries, commands, strict=True):
            frames = Path(f"{samples}.frames")
            summary["frames"] = int(frames.read_text()) if frames.exists() else None
    return summaries, samples_list


def fresh_database() -> tuple[str, str]:
    """A new, migrated PostgreSQL database: its name and its SQLAlchemy URL."""
    name = f"bob_bench_{secrets.token_hex(4)}"
    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    url = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    upgrade_to_head(url)
    return name, url


def drop_database(name: str) -> None:
    asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def run(args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    """One benchmark run on a fresh database; returns the result and the exit status."""
    think = parse_think_ms(args.think_ms)  # fails here rather than in every bot process
    directory = Path(tempfile.mkdtemp(prefix="bob_bench_"))
    name = None
    if args.database == "postgres":
        name, url = fresh_database()
    else:
        url = f"sqlite+aiosqlite:///{directory}/bench.sqlite3"
        upgrade_to_head(url)
    log = directory / "server.log"
    try:
        with served_process(url, log=log, WS_RATE_PER_SECOND="50",
                            WS_RATE_BURST="50") as (base, server):
            rss_before = process_rss_kb(server.pid)
            server_before = process_cpu(server.pid)
            postgres_before = postgres_cpu()
            machine_before = machine_cpu()
            bots_before = children_cpu()
            started = time.perf_counter()
            with RssSampler(server.pid) as rss:
                summaries, samples = run_bot_processes(base, args, directory)
            seconds = time.perf_counter() - started
            bots_cpu = children_cpu() - bots_before
            machine_after = machine_cpu()
            postgres_after = postgres_cpu()
            server_after = process_cpu(server.pid)
            server_alive = server.poll() is None
        merged = merge(summaries, samples)
        commands = merged["commands"]
        applied = asyncio.run(applied_commands(url))
        applied_total = sum(applied.values())
        server_cpu = (None if server_before is None or server_after is None
                      else server_after - server_before)
        postgres = postgres_after - postgres_before if args.database == "postgres" else None
        busy = machine_after[0] - machine_before[0]
        total = machine_after[1] - machine_before[1]
        window = steady_window(samples)
        rss_steady = rss.median_between(*window) if window else None
        frames = [s["frames"] for s in summaries if s.get("frames") is not None]
        frames_total = sum(frames) if len(frames) == len(summaries) else None
        failures = [f for s in summaries for f in s.get("failures", [])]
        if not server_alive:
            failures.append("bob serve exited during the run")
        result: dict[str, Any] = {
            "server": "ours", "game": args.game, "games": args.games,
            "spectators_per_game": args.spectators,
            "database": args.database, "cpus": os.cpu_count(),
            "bot_processes": len(summaries),
            "think_ms": [round(t * 1000, 3) for t in think], "ramp_seconds": args.ramp,
            "seconds": round(seconds, 2), **merged,
            "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 2),
            "server_cpu_ms_per_command": per(server_cpu, commands, 1000),
            "applied": applied,
            "server_cpu_ms_per_applied": per(server_cpu, applied_total, 1000),
            "server_cpu_share": per(server_cpu, seconds, digits=3),
            "postgres_cpu_seconds": None if postgres is None else round(postgres, 2),
            "postgres_cpu_ms_per_command": per(postgres, commands, 1000),
            "bots_cpu_seconds": round(bots_cpu, 2),
            "machine_cpu_busy": per(busy, total, digits=3),
            "rss_kb_before": rss_before, "rss_kb_steady": rss_steady,
            "rss_kb_per_live_game": (per(rss_steady - rss_before, args.games, digits=1)
                                     if rss_steady is not None and rss_before else None),
            "frames_received": frames_total,
            "frames_per_applied": per(frames_total, applied_total),
            "frames_per_command": per(frames_total, commands),
            "failures": failures,
        }
        if failures:
            tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
            print(f"--- last lines of the server's log ({log}):\n{tail}", file=sys.stderr)
        return result, 0 if not failures and merged["finished"] == args.games else 1
    finally:
        if name is not None:
            drop_database(name)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=3)
    parser.add_argument("--game", default="base-on-board")
    parser.add_argument("--options", default='{"innings": 3}')
    parser.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--bot-processes", type=int, default=1,
                        help="bob bots processes, the games split between them")
    parser.add_argument("--think-ms", default="500:1500", metavar="MIN:MAX",
                        help="each bot's think time before acting (0:0: a saturation test)")
    parser.add_argument("--ramp", type=float, default=60.0, metavar="SECONDS",
                        help="the tables' starts spread evenly over this many seconds")
    parser.add_argument("--timeout", type=float, default=1800.0, metavar="SECONDS",
                        help="per game, before it counts as failed")
    parser.add_argument("--count-frames", action="store_true",
                        help="count the WebSocket frames the bots' sockets receive")
    return parser


def main() -> int:
    result, status = run(parser().parse_args())
    print(json.dumps(result))
    return status


if __name__ == "__main__":
    sys.exit(main())
