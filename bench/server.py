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
from ``/proc/<pid>/stat``; also as a share of one core over the run, and over the steady part
alone, sampled every half second: ``steady_server_core_share`` and, per bot command of that
part, ``steady_server_cpu_ms_per_command``, and per command applied in it (the bots' and the
server's own, counted from the ``command`` rows written inside the part),
``steady_server_cpu_ms_per_applied``; these leave out the tables' arrival and their games'
ends), all
PostgreSQL processes' CPU, the bot processes' CPU, and the machine's busy share; and the
server's RSS before the load and over the steady part; and, from the servers' own ``/metrics``
over the steady part, where a command's latency went (``steady_latency_parts_ms``: the whole
command, its database write and the event loop's lateness, ``bench/latency_parts.py``). With
``--count-frames`` the bots run
under ``bench/counted_bots.py``, which counts the WebSocket frames their sockets receive.

``--processes N`` (N > 1) runs N ``bob serve`` processes, each on its own free loopback port,
on the same PostgreSQL database and one Redis (fan-out and room leases under key prefixes of
this run's own), behind a real nginx with the production configuration
(``deploy/nginx.conf.template``: a room's sockets and REST calls hashed by its id to one
process; ``bench/nginx.py``); the bots connect through nginx. ``--proxy`` puts nginx (and
Redis) in front of one process too, so one process and two compare on the same path. The
server's CPU is then summed over its processes (``server_processes`` gives each one's share)
and nginx's (master and worker) is reported on its own. Without either, one process is
reached directly and uses no Redis, as before.

A human-pace capacity run is many games at people's pace, e.g. ``--games 1000 --think-ms
2000:6000 --ramp 60 --duration 180 --bot-processes 4``; a game at that pace lasts far longer
than the run, so ``--duration`` stops every table at that point and keeps the samples so far
(``stopped``). ``p99_at_most_50ms`` (and ``steady_p99_at_most_50ms``, from the last table's
start, or ``--settle`` seconds after it, to the first one's end or the stop) says whether it
held. The server computes no analysis baselines during the run unless
``ANALYSIS_REFRESH_SECONDS`` is set (``bench/serving.py``, ``NO_ANALYSIS``). The descriptor limit is
raised to its hard limit for every child, and nginx's ``worker_connections`` is sized to the
games.

    .venv/bin/python bench/server.py --games 200 --spectators 3 --database postgres
    .venv/bin/python bench/server.py --games 20 --think-ms 0:0 --ramp 0 --processes 2
    .venv/bin/python bench/server.py --games 20 --think-ms 0:0 --ramp 0 --processes 1 --proxy
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import case, func, literal, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.cli import parse_think_ms  # noqa: E402
from app.db import Database  # noqa: E402
from app.games.models import Command  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from bench.latency_parts import MetricsSampler, steady_parts  # noqa: E402
from bench.nginx import Nginx, connections_for  # noqa: E402
from bench.serving import (  # noqa: E402
    ADMIN,
    NO_ANALYSIS,
    RssSampler,
    admin,
    children_cpu,
    free_port,
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
    tree_cpu,
)

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
BENCH_RATES = {"WS_RATE_PER_SECOND": "50", "WS_RATE_BURST": "50"}
LATENCY_GOAL_MS = 50.0


async def applied_commands(url: str, window: tuple[float, float] | None = None
                           ) -> dict[str, int]:
    """Commands the server applied, by who sent them: the bots' (``players``), and the
    server's own (``server``: automatic passes of pass-only windows, timeouts); with
    ``window`` (wall-clock seconds), only those written inside it."""
    command = Command.__table__
    who = case((command.c.actor.in_(("server", "computer")), command.c.actor),
               else_=literal("players"))
    query = select(who, func.count()).group_by(who)
    if window is not None:
        start, end = (datetime.fromtimestamp(t, UTC) for t in window)
        query = query.where(command.c.created_at.between(start, end))
    database = Database(url)
    try:
        async with database.engine.connect() as conn:
            rows = await conn.execute(query)
            return {str(actor): int(count) for actor, count in rows}
    finally:
        await database.dispose()


def steady_cpu_per_applied(core_share: float | None, window: tuple[float, float] | None,
                           applied: dict[str, int]) -> float | None:
    """Server CPU ms per command applied inside the steady window (the bots' and the
    server's own alike): the live path's cost alone, without the tables' arrival (accounts,
    rooms, seats, game starts) or their games' ends, which the whole run's figure spreads over
    its commands and the bare server never pays."""
    total = sum(applied.values())
    if core_share is None or window is None or total == 0:
        return None
    return round(core_share * (window[1] - window[0]) / total * 1000, 3)


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
            *(["--duration", str(args.duration)] if args.duration is not None else []),
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


@dataclass
class Served:
    """What ``serve`` started: the URL the bots use, the ``bob serve`` processes and their
    logs, nginx in front (None when one process is reached directly), and each process's own
    URL (its ``/metrics``)."""

    base: str
    servers: list[subprocess.Popen[bytes]]
    logs: list[Path]
    nginx: Nginx | None
    bases: list[str]


def pool_size(processes: int, max_connections: int) -> int:
    """Connections each process's pool keeps (as many again for bursts): the default 20, less
    when N processes would together pass the database's limit (20 left for everyone else)."""
    return max(2, min(20, (max_connections - 20) // (2 * max(1, processes))))


async def max_connections() -> int:
    import asyncpg

    connection = await asyncpg.connect(ADMIN)
    try:
        return int(await connection.fetchval("SHOW max_connections"))
    finally:
        await connection.close()


@contextmanager
def serve(args: argparse.Namespace, url: str, directory: Path) -> Iterator[Served]:
    """``bob serve`` as ``args`` asks: one process reached directly (no Redis), or
    ``args.processes`` processes on one database and one Redis behind nginx."""
    if args.processes == 1 and not args.proxy:
        log = directory / "server.log"
        with served_process(url, log=log, **BENCH_RATES) as (base, server):
            yield Served(base, [server], [log], None, [base])
        return
    port = free_port()
    prefix = f"bob-bench-{secrets.token_hex(4)}:"
    environment = {
        **BENCH_RATES, "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "REDIS_URL": REDIS_URL, "REDIS_CHANNEL_PREFIX": f"{prefix}room:",
        "REDIS_NOTICE_CHANNEL": f"{prefix}notices", "REDIS_LEASE_PREFIX": prefix,
    }
    if args.database == "postgres":
        environment["DB_POOL_SIZE"] = str(pool_size(args.processes,
                                                    asyncio.run(max_connections())))
    if args.no_redis:
        for key in ("REDIS_URL", "REDIS_CHANNEL_PREFIX", "REDIS_NOTICE_CHANNEL",
                    "REDIS_LEASE_PREFIX"):
            environment.pop(key)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    worker_connections, nofile = connections_for(args.games * (args.spectators + 3), hard)
    with ExitStack() as stack:
        servers, logs, ports, bases = [], [], [], []
        for index in range(args.processes):
            log = directory / f"server-{index}.log"
            # With BENCH_PROFILE, each process writes its own profile (``PATH.0``, ``PATH.1``).
            suffix = f".{index}" if args.processes > 1 else ""
            base, server = stack.enter_context(
                served_process(url, log=log, profile_suffix=suffix, **environment))
            servers.append(server)
            logs.append(log)
            ports.append(int(base.rsplit(":", 1)[1]))
            bases.append(base)
        nginx = stack.enter_context(
            Nginx(directory, ports, port, worker_connections, nofile))
        yield Served(nginx.url, servers, logs, nginx, bases)


def idle_cpu(servers: list[subprocess.Popen[bytes]], seconds: float) -> list[float | None]:
    """Each process's share of a core over ``seconds`` with no load (its timers, heartbeats
    and leases alone); None for each when ``seconds`` is 0."""
    if seconds <= 0:
        return [None for _ in servers]
    before = [process_cpu(s.pid) for s in servers]
    time.sleep(seconds)
    after = [process_cpu(s.pid) for s in servers]
    return [None if a is None or b is None else round((b - a) / seconds, 4)
            for a, b in zip(before, after, strict=True)]


def latency_goal(latency: dict[str, Any] | None) -> bool | None:
    """Whether a latency summary's p99 is within the human-pace goal (50 ms)."""
    p99 = None if latency is None else latency.get("p99")
    return None if p99 is None else bool(p99 <= LATENCY_GOAL_MS)


def run(args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    """One benchmark run on a fresh database; returns the result and the exit status."""
    think = parse_think_ms(args.think_ms)  # fails here rather than in every bot process
    if args.processes < 1:
        raise SystemExit("--processes must be at least 1")
    if args.processes > 1 and args.database != "postgres":
        raise SystemExit("several processes need PostgreSQL (--database postgres)")
    if args.processes > 1 and args.no_redis:
        raise SystemExit("several processes need Redis (leave out --no-redis)")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the children inherit it
    directory = Path(tempfile.mkdtemp(prefix="bob_bench_"))
    name = None
    if args.database == "postgres":
        name, url = fresh_database()
    else:
        url = f"sqlite+aiosqlite:///{directory}/bench.sqlite3"
        upgrade_to_head(url)
    try:
        with serve(args, url, directory) as served:
            servers = served.servers
            nginx_pid = None if served.nginx is None or served.nginx.process is None \
                else served.nginx.process.pid
            idle = idle_cpu(servers, args.idle_seconds)
            rss_before_each = [process_rss_kb(s.pid) for s in servers]
            server_before = [process_cpu(s.pid) for s in servers]
            nginx_before = None if nginx_pid is None else tree_cpu(nginx_pid)
            postgres_before = postgres_cpu()
            machine_before = machine_cpu()
            bots_before = children_cpu()
            started = time.perf_counter()
            with ExitStack() as samplers:
                rss = [samplers.enter_context(RssSampler(s.pid)) for s in servers]
                scraped = [samplers.enter_context(MetricsSampler(b)) for b in served.bases]
                summaries, samples = run_bot_processes(served.base, args, directory)
            seconds = time.perf_counter() - started
            bots_cpu = children_cpu() - bots_before
            machine_after = machine_cpu()
            postgres_after = postgres_cpu()
            server_after = [process_cpu(s.pid) for s in servers]
            nginx_after = None if nginx_pid is None else tree_cpu(nginx_pid)
            alive = [s.poll() is None for s in servers]
            nginx_alive = served.nginx is None or (
                served.nginx.process is not None and served.nginx.process.poll() is None)
        merged = merge(summaries, samples, args.settle)
        commands = merged["commands"]
        applied = asyncio.run(applied_commands(url))
        applied_total = sum(applied.values())
        each_cpu = [None if a is None or b is None else a - b
                    for a, b in zip(server_after, server_before, strict=True)]
        server_cpu = None if None in each_cpu else sum(c for c in each_cpu if c is not None)
        nginx_cpu = (None if nginx_before is None or nginx_after is None
                     else nginx_after - nginx_before)
        postgres = postgres_after - postgres_before if args.database == "postgres" else None
        busy = machine_after[0] - machine_before[0]
        total = machine_after[1] - machine_before[1]
        window = steady_window(samples, args.settle)
        steady_each = [r.median_between(*window) if window else None for r in rss]
        steady_cores = [r.core_share_between(*window) if window else None for r in rss]
        steady_core = None if None in steady_cores else sum(
            c for c in steady_cores if c is not None)
        steady_rate = (merged.get("steady") or {}).get("commands_per_second")
        steady_applied = asyncio.run(applied_commands(url, window)) if window else {}
        rss_before = (None if None in rss_before_each
                      else sum(kb for kb in rss_before_each if kb is not None))
        rss_steady = (None if None in steady_each
                      else sum(kb for kb in steady_each if kb is not None))
        stopped = sum(s.get("stopped", 0) for s in summaries)
        not_started = sum(s.get("not_started", 0) for s in summaries)
        frames = [s["frames"] for s in summaries if s.get("frames") is not None]
        frames_total = sum(frames) if len(frames) == len(summaries) else None
        failures = [f for s in summaries for f in s.get("failures", [])]
        for index, up in enumerate(alive):
            if not up:
                failures.append(f"bob serve (process {index}) exited during the run")
        if not nginx_alive:
            failures.append("nginx exited during the run")
        result: dict[str, Any] = {
            "server": "ours", "game": args.game, "games": args.games,
            "spectators_per_game": args.spectators,
            "database": args.database, "cpus": os.cpu_count(),
            "processes": args.processes, "proxy": served.nginx is not None,
            "redis": served.nginx is not None and not args.no_redis,
            "bot_processes": len(summaries),
            "think_ms": [round(t * 1000, 3) for t in think], "ramp_seconds": args.ramp,
            "seconds": round(seconds, 2), "duration_seconds": args.duration,
            "settle_seconds": args.settle,
            "analysis_refresh_seconds": float(os.environ.get(
                "ANALYSIS_REFRESH_SECONDS", NO_ANALYSIS["ANALYSIS_REFRESH_SECONDS"])),
            **merged,
            "stopped": stopped, "not_started": not_started,
            "p99_at_most_50ms": latency_goal(merged["latency_ms"]),
            "steady_p99_at_most_50ms": latency_goal((merged["steady"] or {}).get("latency_ms")),
            "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 2),
            "server_cpu_ms_per_command": per(server_cpu, commands, 1000),
            "applied": applied,
            "applied_per_second": per(applied_total, seconds, digits=1),
            "server_cpu_ms_per_applied": per(server_cpu, applied_total, 1000),
            "server_cpu_share": per(server_cpu, seconds, digits=3),
            "steady_server_core_share": None if steady_core is None else round(steady_core, 3),
            "steady_server_cpu_ms_per_command": per(steady_core, steady_rate, 1000),
            "steady_applied": steady_applied,
            "steady_server_cpu_ms_per_applied": steady_cpu_per_applied(steady_core, window,
                                                                       steady_applied),
            "server_processes": [{
                "cpu_seconds": None if cpu is None else round(cpu, 2),
                "share_of_server_cpu": per(cpu, server_cpu, digits=3),
                "core_share": per(cpu, seconds, digits=3),
                "rss_kb_before": before, "rss_kb_steady": steady,
                "idle_core_share": idle_share,
            } for cpu, before, steady, idle_share in zip(each_cpu, rss_before_each, steady_each,
                                                         idle, strict=True)],
            "nginx_cpu_seconds": None if nginx_cpu is None else round(nginx_cpu, 2),
            "nginx_cpu_ms_per_applied": per(nginx_cpu, applied_total, 1000),
            "nginx_cpu_share": per(nginx_cpu, seconds, digits=3),
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
            "steady_latency_parts_ms": steady_parts(scraped, window),
            "failures": failures,
        }
        if failures:
            logs = [*served.logs, directory / "error.log"]
            for log in logs:
                tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
                print(f"--- last lines of {log}:\n{tail}", file=sys.stderr)
        played = merged["finished"] + stopped + not_started
        return result, 0 if not failures and played == args.games else 1
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
    parser.add_argument("--duration", type=float, default=None, metavar="SECONDS",
                        help="stop every table this long after the start, wherever it is"
                             " (human-paced games outlast a short run)")
    parser.add_argument("--settle", type=float, default=0.0, metavar="SECONDS",
                        help="start the steady part this long after the last table's start,"
                             " once the arrivals' backlog has drained")
    parser.add_argument("--idle-seconds", type=float, default=0.0, metavar="SECONDS",
                        help="before the load, each server process's idle CPU over this long")
    parser.add_argument("--processes", type=int, default=1, metavar="N",
                        help="bob serve processes on one database and Redis, behind nginx"
                             " when more than one")
    parser.add_argument("--proxy", action="store_true",
                        help="nginx (and Redis) in front of a single process too")
    parser.add_argument("--no-redis", action="store_true",
                        help="with --proxy and one process: leave Redis out (its cost alone)")
    return parser


def main() -> int:
    result, status = run(parser().parse_args())
    print(json.dumps(result))
    return status


if __name__ == "__main__":
    sys.exit(main())
