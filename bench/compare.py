"""Ours against a bare broadcast server, side by side, interleaved (issue 12).

For each round and each game count: the bare server (``bench/bare.py`` loaded by
``bench/bare_bots.py``), then ours (``bench/server.py``'s run: a fresh PostgreSQL database,
``bob serve``, ``bob bots`` counted by ``bench/counted_bots.py``), the same shape for both: N
tables of 2 players and ``--spectators`` spectators, think time ``--think-ms``, tables arriving
over ``--ramp`` seconds, the load clients in their own processes. Before the rounds, memory:
the server's RSS per idle spectator socket (``--idle-sockets`` on one room, after a warm-up).

Prints each run as a JSON line to stderr as it ends, then the table (medians over the rounds):
ours, bare and ours / bare for p50, p99, p99.9, server CPU per command (ours: per applied
command, the bots' and the server's own; over the whole run, and over the steady part alone,
every table playing, which leaves out what the bare server never does: the tables' accounts,
rooms, seats and game starts, and their games' ends), RSS per live game and frames received
per command.
``--out FILE`` keeps every run's JSON.

    .venv/bin/python bench/compare.py --games 200,500 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots.client import guest, open_socket  # noqa: E402
from bench import server as ours  # noqa: E402
from bench.bare_bots import spectator_count  # noqa: E402
from bench.serving import (  # noqa: E402
    RssSampler,
    free_port,
    machine_cpu,
    merge,
    per,
    process_cpu,
    process_rss_kb,
    run_load_processes,
    served_process,
    server_process,
    split,
    steady_window,
)


def bare_served(port: int) -> Any:
    return server_process([sys.executable, str(ROOT / "bench" / "bare.py"), "--port", str(port)],
                          port)


def run_bare(args: argparse.Namespace, games: int) -> dict[str, Any]:
    """One bare run: the server, its load processes, its CPU and RSS."""
    directory = Path(tempfile.mkdtemp(prefix="bob_bare_"))
    port = free_port()
    with bare_served(port) as (base, server):
        rss_before = process_rss_kb(server.pid)
        cpu_before = process_cpu(server.pid)
        machine_before = machine_cpu()
        started = time.perf_counter()
        commands, seed = [], 1
        for index, count in enumerate(split(games, args.bot_processes)):
            samples = directory / f"samples-{index}.json"
            commands.append(([
                sys.executable, str(ROOT / "bench" / "bare_bots.py"), "--url", base,
                "--games", str(count), "--spectators", str(args.spectators),
                "--commands", str(args.bare_commands), "--think-ms", args.think_ms,
                "--ramp", str(args.ramp), "--seed", str(seed), "--samples", str(samples),
                "--payload", str(args.bare_payload),
            ], samples))
            seed += count
        with RssSampler(server.pid) as rss:
            summaries, samples_list = run_load_processes(commands)
        seconds = time.perf_counter() - started
        cpu_after = process_cpu(server.pid)
        machine_after = machine_cpu()
    merged = merge(summaries, samples_list)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    window = steady_window(samples_list)
    rss_steady = rss.median_between(*window) if window else None
    steady_core = rss.core_share_between(*window) if window else None
    steady_rate = (merged.get("steady") or {}).get("commands_per_second")
    frames = sum(s.get("frames", 0) for s in summaries)
    return {
        "server": "bare", "games": games, "spectators_per_game": args.spectators,
        "think_ms": args.think_ms, "ramp_seconds": args.ramp, "seconds": round(seconds, 2),
        **merged,
        "server_cpu_seconds": None if cpu is None else round(cpu, 2),
        "server_cpu_ms_per_command": per(cpu, merged["commands"], 1000, 3),
        "steady_server_core_share": None if steady_core is None else round(steady_core, 3),
        "steady_server_cpu_ms_per_command": per(steady_core, steady_rate, 1000, 3),
        "rss_kb_before": rss_before, "rss_kb_steady": rss_steady,
        "rss_kb_per_live_game": (per(rss_steady - rss_before, games, digits=1)
                                 if rss_steady is not None and rss_before else None),
        "frames_received": frames, "frames_per_command": per(frames, merged["commands"]),
        "machine_cpu_busy": per(machine_after[0] - machine_before[0],
                                machine_after[1] - machine_before[1], digits=3),
        "failures": [f for s in summaries for f in s.get("failures", [])],
    }


def run_ours(args: argparse.Namespace, games: int) -> dict[str, Any]:
    namespace = ours.parser().parse_args([
        "--games", str(games), "--spectators", str(args.spectators), "--options", args.options,
        "--think-ms", args.think_ms, "--ramp", str(args.ramp),
        "--bot-processes", str(args.bot_processes), "--count-frames",
    ])
    result, _ = ours.run(namespace)
    return result


async def hold_sockets(count: int, open_one: Any, mark: Callable[[], Awaitable[float]]) -> float:
    """Opens ``count`` idle sockets with ``open_one()`` after a warm-up of 20 opened and closed;
    ``mark()`` is read once the warm-up has closed and once every socket is open and greeted,
    and its growth per socket is returned."""
    async def several(n: int) -> list[ClientConnection]:
        return list(await asyncio.gather(*(open_one() for _ in range(n))))

    for ws in await several(20):
        await ws.close()
    await asyncio.sleep(1.0)
    before = await mark()
    sockets: list[ClientConnection] = []
    for _ in range(0, count, 50):
        sockets += await several(min(50, count - len(sockets)))
    await asyncio.sleep(2.0)  # every socket registered, its greeting sent
    after = await mark()
    for ws in sockets:
        await ws.close()
    return (after - before) / count


def rss_of(pid: int) -> Callable[[], Awaitable[float]]:
    """A ``mark`` for :func:`hold_sockets`: the process's RSS (KiB)."""
    async def rss() -> float:
        return float(process_rss_kb(pid) or 0)
    return rss


async def spectator_opener(base: str, options: dict[str, Any]) -> Callable[
        [], Awaitable[ClientConnection]]:
    """Makes a room of ours (a guest's, Base on Board with ``options``) and returns what opens
    one more spectator socket on it, greeted."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        home = await guest(http)
        created = await http.post(
            "/api/rooms", json={"kind": "base-on-board", "options": options, "side": "home"},
            headers={"Authorization": f"Bearer {home['token']}"})
        created.raise_for_status()
        room = created.json()["id"]

    async def spectator() -> ClientConnection:
        return (await open_socket(base, room, last_seq=0))[0]

    return spectator


def idle_memory(args: argparse.Namespace) -> dict[str, float]:
    """RSS per idle spectator socket on one room, bare and ours (KiB)."""
    port = free_port()
    with bare_served(port) as (base, server):
        url = base.replace("http", "ws", 1) + "/ws/rooms/idle"
        bare = asyncio.run(hold_sockets(
            args.idle_sockets, lambda: connect(url, max_queue=None), rss_of(server.pid)))

    async def ours_idle(base: str, pid: int) -> float:
        opener = await spectator_opener(base, json.loads(args.options))
        return await hold_sockets(args.idle_sockets, opener, rss_of(pid))

    name, url = ours.fresh_database()
    try:
        with served_process(url, WS_RATE_PER_SECOND="50", WS_RATE_BURST="50") as (base, server):
            mine = asyncio.run(ours_idle(base, server.pid))
    finally:
        ours.drop_database(name)
    return {"bare_kb_per_idle_socket": round(bare, 1), "ours_kb_per_idle_socket": round(mine, 1)}


def median(runs: list[dict[str, Any]], *path: str) -> float | None:
    values = []
    for run in runs:
        value: Any = run
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is not None:
            values.append(float(value))
    return statistics.median(values) if values else None


def table(results: list[dict[str, Any]], games: list[int], memory: dict[str, float]) -> str:
    rows = [
        ("p50 ms", ("latency_ms", "p50"), ("latency_ms", "p50")),
        ("p99 ms", ("latency_ms", "p99"), ("latency_ms", "p99")),
        ("p99.9 ms", ("latency_ms", "p99.9"), ("latency_ms", "p99.9")),
        ("max ms", ("latency_ms", "max"), ("latency_ms", "max")),
        ("steady p99 ms", ("steady", "latency_ms", "p99"), ("steady", "latency_ms", "p99")),
        ("CPU ms / command", ("server_cpu_ms_per_applied",), ("server_cpu_ms_per_command",)),
        ("CPU ms / bot command", ("server_cpu_ms_per_command",), ("server_cpu_ms_per_command",)),
        ("steady CPU ms / command", ("steady_server_cpu_ms_per_applied",),
         ("steady_server_cpu_ms_per_command",)),
        ("KiB / live game", ("rss_kb_per_live_game",), ("rss_kb_per_live_game",)),
        ("frames / command", ("frames_per_applied",), ("frames_per_command",)),
        ("frames / bot command", ("frames_per_command",), ("frames_per_command",)),
        ("machine busy (both cores)", ("machine_cpu_busy",), ("machine_cpu_busy",)),
        ("steady commands/s (bots)", ("steady", "commands_per_second"),
         ("steady", "commands_per_second")),
    ]
    lines = ["| games | figure | ours | bare | ours / bare |", "| --- | --- | --- | --- | --- |"]
    for n in games:
        mine = [r for r in results if r["server"] == "ours" and r["games"] == n]
        bare = [r for r in results if r["server"] == "bare" and r["games"] == n]
        for label, ours_path, bare_path in rows:
            a, b = median(mine, *ours_path), median(bare, *bare_path)
            ratio = f"{a / b:.1f}×" if a is not None and b else "–"
            lines.append(f"| {n} | {label} | {fmt(a)} | {fmt(b)} | {ratio} |")
    if memory:
        a, b = memory["ours_kb_per_idle_socket"], memory["bare_kb_per_idle_socket"]
        ratio = f"{a / b:.1f}×" if b > 0 else "–"
        lines.append(f"| – | KiB / idle spectator socket | {a} | {b} | {ratio} |")
    return "\n".join(lines)


def fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}" if value < 10 else f"{value:.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="200,500", help="game counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=2, help="bare, ours: this many times")
    parser.add_argument("--spectators", type=spectator_count, default=3,
                        help="a table's spectators, at least one (the bare load times to them)")
    parser.add_argument("--think-ms", default="500:1500", metavar="MIN:MAX")
    parser.add_argument("--ramp", type=float, default=60.0, metavar="SECONDS")
    parser.add_argument("--options", default='{"innings": 3}', help="our games' options")
    parser.add_argument("--bare-commands", type=int, default=150,
                        help="commands per bare table (ours: about 140 a 3-inning game)")
    parser.add_argument("--bare-payload", type=int, default=64,
                        help="padding bytes per bare command, so per frame (ours: about 1,250 "
                        "characters a frame, bench/command_path.py)")
    parser.add_argument("--bot-processes", type=int, default=1)
    parser.add_argument("--idle-sockets", type=int, default=1000,
                        help="idle spectator sockets for the memory figure (0: skip it)")
    parser.add_argument("--out", type=Path, help="every run's JSON, one a line")
    parser.add_argument("--table", type=Path, metavar="FILE",
                        help="run nothing: print the table of the runs in FILE (an --out)")
    args = parser.parse_args()
    games = [int(n) for n in args.games.split(",")]
    if args.table:
        lines = [json.loads(line) for line in args.table.read_text().splitlines() if line]
        memory: dict[str, float] = next((r for r in lines if "server" not in r), {})
        print(table([r for r in lines if "server" in r], games, memory))
        return 0
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the children inherit it

    memory = idle_memory(args) if args.idle_sockets else {}
    if memory:
        print(json.dumps(memory), file=sys.stderr, flush=True)
        if args.out:
            with args.out.open("a") as out:
                out.write(json.dumps(memory) + "\n")
    results: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        for n in games:
            for run in (run_bare, run_ours):
                result = {**run(args, n), "round": round_ + 1}
                results.append(result)
                print(json.dumps(result), file=sys.stderr, flush=True)
                if args.out:
                    with args.out.open("a") as out:
                        out.write(json.dumps(result) + "\n")
    print(table(results, games, memory))
    failed = [f for r in results for f in r.get("failures", [])]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
