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
CPU, the bot processes' CPU, and the machine's busy share.

    .venv/bin/python bench/server.py --games 200 --spectators 3 --database postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots.run import percentile  # noqa: E402
from app.cli import parse_think_ms  # noqa: E402
from app.db import Database  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from bench.serving import ADMIN, admin, served_process  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, from ``/proc/<pid>/stat``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state is fields[0]
    return (int(fields[11]) + int(fields[12])) / TICK


def postgres_cpu() -> float:
    """CPU seconds used so far by every process named ``postgres`` on this machine (backends
    that exit in between are missed; other databases' work on the same server is counted)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
        except OSError:
            continue
        total += process_cpu(int(entry.name)) or 0.0
    return total


def machine_cpu() -> tuple[int, int]:
    """(busy, total) jiffies over all CPUs, from ``/proc/stat``."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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


def split(games: int, processes: int) -> list[int]:
    """``games`` split as evenly as possible over ``processes`` (none empty)."""
    processes = max(1, min(processes, games))
    return [games // processes + (1 if i < games % processes else 0) for i in range(processes)]


def run_bot_processes(base: str, args: argparse.Namespace, directory: Path
                      ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Starts the `bob bots` processes, waits for them; returns their summaries and samples."""
    running = []
    seed = 1
    for index, games in enumerate(split(args.games, args.bot_processes)):
        samples = directory / f"samples-{index}.json"
        command = [
            sys.executable, "-m", "app.cli", "bots", "--url", base, "--game", args.game,
            "--games", str(games), "--spectators", str(args.spectators),
            "--concurrency", str(games), "--seed", str(seed), "--options", args.options,
            "--think-ms", args.think_ms, "--ramp", str(args.ramp),
            "--timeout", str(args.timeout), "--json", "--samples", str(samples),
        ]
        seed += games  # table seeds 1..games over all processes, as in one process
        running.append((subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE), samples))
    summaries, samples_list = [], []
    for process, samples in running:
        out, _ = process.communicate()
        try:
            summaries.append(json.loads(out))
            samples_list.append(json.loads(samples.read_text()))
        except (ValueError, OSError) as exc:
            summaries.append({"failures": [f"bot process {process.pid} exited "
                                           f"{process.returncode} without results: {exc}"],
                              "finished": 0, "commands": 0})
    return summaries, samples_list


def latency_summary(values: list[float]) -> dict[str, Any]:
    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 2)

    return {
        "p50": rounded(percentile(values, 0.50)), "p99": rounded(percentile(values, 0.99)),
        "p99.9": rounded(percentile(values, 0.999)), "max": rounded(max(values, default=None)),
        "mean": rounded(statistics.fmean(values)) if values else None, "samples": len(values),
    }


def merge(summaries: list[dict[str, Any]], samples: list[dict[str, Any]]) -> dict[str, Any]:
    """One result from every bot process: latency over all samples, commands/s over the whole
    run and over the steady part (every table started, none finished yet)."""
    latencies = [ms for s in samples for ms in s["latency_samples_ms"]]
    sent = [t for s in samples for t in s["latency_sent_at"]]
    times = sorted(t for s in samples for t in s["command_times"])
    tables = [span for s in samples for span in s["tables"]]
    commands = sum(s.get("commands", 0) for s in summaries)
    span = times[-1] - times[0] if len(times) > 1 else 0.0
    result: dict[str, Any] = {
        "finished": sum(s.get("finished", 0) for s in summaries),
        "commands": commands,
        "commands_per_second": round(len(times) / span, 1) if span else None,
        "latency_ms": latency_summary(latencies),
        "steady": None,
    }
    if tables and times:
        start = max(a for a, _ in tables)
        end = min(b for _, b in tables)
        if end - start >= 1.0:
            in_window = sum(1 for t in times if start <= t <= end)
            result["steady"] = {
                # seconds after the first table started
                "from_s": round(start - min(a for a, _ in tables), 2),
                "seconds": round(end - start, 2),
                "commands": in_window,
                "commands_per_second": round(in_window / (end - start), 1),
                "latency_ms": latency_summary(
                    [ms for ms, t in zip(latencies, sent, strict=True) if start <= t <= end]
                ),
            }
    return result


def main() -> int:
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
    args = parser.parse_args()
    think = parse_think_ms(args.think_ms)  # fails here rather than in every bot process

    name = f"bob_bench_{secrets.token_hex(4)}"
    directory = Path(tempfile.mkdtemp(prefix="bob_bench_"))
    if args.database == "postgres":
        asyncio.run(admin(f'CREATE DATABASE "{name}"'))
        url = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    else:
        url = f"sqlite+aiosqlite:///{directory}/bench.sqlite3"
    log = directory / "server.log"
    try:
        upgrade_to_head(url)
        with served_process(url, log=log, WS_RATE_PER_SECOND="50",
                            WS_RATE_BURST="50") as (base, server):
            server_before = process_cpu(server.pid)
            postgres_before = postgres_cpu()
            machine_before = machine_cpu()
            bots_before = children_cpu()
            started = time.perf_counter()
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
        failures = [f for s in summaries for f in s.get("failures", [])]
        if not server_alive:
            failures.append("bob serve exited during the run")
        result: dict[str, Any] = {
            "game": args.game, "games": args.games, "spectators_per_game": args.spectators,
            "database": args.database, "cpus": os.cpu_count(),
            "bot_processes": len(summaries),
            "think_ms": [round(t * 1000, 3) for t in think], "ramp_seconds": args.ramp,
            "seconds": round(seconds, 2), **merged,
            "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 2),
            "server_cpu_ms_per_command": (round(server_cpu * 1000 / commands, 2)
                                          if server_cpu is not None and commands else None),
            "applied": applied,
            "server_cpu_ms_per_applied": (round(server_cpu * 1000 / applied_total, 2)
                                          if server_cpu is not None and applied_total else None),
            "server_cpu_share": (round(server_cpu / seconds, 3)
                                 if server_cpu is not None and seconds else None),
            "postgres_cpu_seconds": None if postgres is None else round(postgres, 2),
            "postgres_cpu_ms_per_command": (round(postgres * 1000 / commands, 2)
                                            if postgres is not None and commands else None),
            "bots_cpu_seconds": round(bots_cpu, 2),
            "machine_cpu_busy": round(busy / total, 3) if total else None,
            "failures": failures,
        }
        print(json.dumps(result))
        if failures:
            tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
            print(f"--- last lines of the server's log ({log}):\n{tail}", file=sys.stderr)
        return 0 if not failures and merged["finished"] == args.games else 1
    finally:
        if args.database == "postgres":
            asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    sys.exit(main())
