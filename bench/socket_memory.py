"""What an idle spectator socket, or a game in play, keeps on the server, by the code of ours
that allocated it.

RSS per socket and per live game (``bench/compare.py``) say how much; this says where. It
starts ``bob serve`` on a fresh PostgreSQL database under tracemalloc, warms it up, takes a
snapshot, adds the load, takes another, and prints the growth per unit, each allocation put on
the innermost frame of ``app/`` in its traceback (the line of ours that led to it).
Allocations with no frame of ours in their traceback are the stack's own (uvicorn's protocol,
the handshake, the loop); so are those under ``app/cli.py`` (``uvicorn.run``), which is
printed as it is.

- ``--sockets N``: the warm-up is 20 sockets opened and closed; the load is N idle spectator
  sockets on one room; the unit is a socket.
- ``--games FEWER,MORE``: two traced servers, one after the other. In each, the warm-up is 4
  games played to the end by ``bob bots`` at full speed; the load is FEWER (then MORE) games
  with ``--spectators`` each at ``bench/compare.py``'s pace (think time 500:1500 ms), arriving
  over ``--ramp`` seconds; the second snapshot is taken ``--settle`` seconds after all of them
  are in play (the rooms whose status is ``live``; tracemalloc slows the server, so this can
  be well after the ramp), and the load's bots are stopped after it. The unit is one more game
  in play, its sockets included: the difference of the two runs' growth, line by line, over
  the difference of their games, so that what does not grow with the games (the connection
  pool's statement caches, SQLAlchemy's compiled statements) drops out.

    .venv/bin/python bench/socket_memory.py --sockets 400
    .venv/bin/python bench/socket_memory.py --games 20,60

The figure runs a little under RSS per socket: tracemalloc sees Python's allocations, not the
allocator's own overhead or the C parts of the loop's transports. With ``--games``, the values
asyncpg's C protocol decodes from our ``jsonb`` columns are made with no frame of ours, so they
count as the stack's though our code keeps them (``sqlalchemy/dialects/postgresql/asyncpg.py``,
``_jsonb_decoder``, in the traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEPTH = 40
"""Frames kept per allocation: enough to reach ours under uvicorn's and Starlette's."""


def by_our_line(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, ours: str,
                count: int) -> list[tuple[str, float]]:
    """Growth from ``before`` to ``after`` in bytes per socket (``count`` of them), summed by
    the innermost frame whose file is under ``ours``, largest first; "(the stack)" for
    growth with no such frame."""
    grown: Counter[str] = Counter()
    for stat in after.compare_to(before, "traceback"):
        where = "(the stack)"
        for frame in reversed(stat.traceback):  # innermost first
            if frame.filename.startswith(ours + os.sep):
                where = f"{os.path.relpath(frame.filename, Path(ours).parent)}:{frame.lineno}"
                break
        grown[where] += stat.size_diff
    return [(where, size / count) for where, size in grown.most_common()]


def serve_traced(out: str) -> None:
    """``bob serve`` (the rest of ``sys.argv``) with SIGUSR1 starting tracemalloc and taking
    the first snapshot and SIGUSR2 taking the second; both are dumped to ``OUT.0`` and
    ``OUT.1``."""
    first: list[tracemalloc.Snapshot] = []

    def start(_signum: int, _frame: FrameType | None) -> None:
        gc.collect()
        tracemalloc.start(DEPTH)
        first.append(tracemalloc.take_snapshot())

    def stop(_signum: int, _frame: FrameType | None) -> None:
        gc.collect()
        tracemalloc.take_snapshot().dump(out + ".1")
        first[0].dump(out + ".0")
        Path(out + ".done").touch()

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    runpy.run_module("app.cli", run_name="__main__")


async def _hold(base: str, pid: int, count: int) -> None:
    """``count`` idle spectator sockets on a new room, opened as ``bench/compare.py`` opens
    them; the server is told to take its first snapshot after the warm-up and its second once
    they are all open."""
    from bench.compare import hold_sockets, spectator_opener

    signals = iter((signal.SIGUSR1, signal.SIGUSR2))

    async def snapshot() -> float:
        os.kill(pid, next(signals))
        await asyncio.sleep(5.0)  # taken (and, the second time, written)
        return 0.0

    await hold_sockets(count, await spectator_opener(base, {"innings": 3}), snapshot)


def marginal(fewer: int, small: Counter[str], more: int, large: Counter[str]
             ) -> list[tuple[str, float]]:
    """What one more unit adds, line by line, from two runs' total growth with ``fewer`` and
    ``more`` units, largest first: the growth that does not follow the units (a pool filling
    up, caches warming) is in both runs and drops out."""
    grown = Counter(large)
    grown.subtract(small)
    return [(where, size / (more - fewer)) for where, size in grown.most_common()]


async def live_rooms(url: str) -> int:
    """Rooms with a game in play."""
    from sqlalchemy import text

    from app.db import Database

    database = Database(url)
    try:
        async with database.engine.connect() as conn:
            return int((await conn.execute(
                text("SELECT count(*) FROM rooms WHERE status = 'live'"))).scalar_one())
    finally:
        await database.dispose()


def bots(base: str, games: int, spectators: int, think_ms: str, ramp: float, seed: int
         ) -> list[str]:
    return [sys.executable, "-m", "app.cli", "bots", "--url", base, "--games", str(games),
            "--spectators", str(spectators), "--concurrency", str(games), "--seed", str(seed),
            "--options", '{"innings": 3}', "--think-ms", think_ms, "--ramp", str(ramp),
            "--json"]


def play(base: str, pid: int, url: str, out: str, args: argparse.Namespace, games: int) -> int:
    """The games mode's load (see the module's docstring); returns the games in play at the
    second snapshot, which waits (up to two minutes more) for all of them to be."""
    subprocess.run(bots(base, 4, args.spectators, "0:0", 0.0, 10_000), cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    time.sleep(3.0)
    os.kill(pid, signal.SIGUSR1)
    time.sleep(5.0)
    load = subprocess.Popen(bots(base, games, args.spectators, "500:1500", args.ramp, 1),
                            cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        time.sleep(args.ramp)
        deadline = time.monotonic() + 120.0
        while asyncio.run(live_rooms(url)) < games and time.monotonic() < deadline:
            time.sleep(1.0)
        time.sleep(args.settle)
        in_play = asyncio.run(live_rooms(url))
        os.kill(pid, signal.SIGUSR2)
        while not Path(out + ".done").exists():
            time.sleep(1.0)
    finally:
        load.terminate()
        load.wait()
    return in_play


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        out = sys.argv[2]
        sys.argv = ["app.cli", *sys.argv[3:]]
        serve_traced(out)
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    unit = parser.add_mutually_exclusive_group()
    unit.add_argument("--sockets", type=int, default=400)
    unit.add_argument("--games", type=lambda v: tuple(int(n) for n in v.split(",")),
                      default=None, metavar="FEWER,MORE")
    parser.add_argument("--spectators", type=int, default=3, help="a game's, with --games")
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds, with --games")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds, with --games")
    parser.add_argument("--top", type=int, default=20, help="lines of ours to print")
    parser.add_argument("--json", type=Path, help="every line's bytes per unit, as JSON")
    args = parser.parse_args()

    if args.games is None:
        count, grown = traced(args, None)
        lines = [(where, size / count) for where, size in grown.most_common()]
        unit = "socket"
        print(f"{sum(size for _, size in lines):8.0f} bytes a socket, traced ({count})")
    else:
        (fewer, small), (more, large) = (traced(args, n) for n in args.games)
        lines = marginal(fewer, small, more, large)
        count, unit = more - fewer, "game"
        print(f"{sum(size for _, size in lines):8.0f} bytes a game, traced "
              f"({fewer} and {more} in play; {sum(large.values()) / more:.0f} at {more} alone)")
    for where, size in lines[:args.top]:
        print(f"{size:8.0f}  {where}")
    if args.json:
        args.json.write_text(json.dumps({f"{unit}s": count, f"bytes_per_{unit}": dict(
            (where, round(size, 1)) for where, size in lines)}, indent=1) + "\n")


def traced(args: argparse.Namespace, games: int | None) -> tuple[int, Counter[str]]:
    """One traced server on a fresh database, with ``games`` games in play (None: with
    ``args.sockets`` idle sockets); the count it had and the growth by our line."""
    from bench import server as ours
    from bench.serving import free_port, server_environment, server_process

    out = str(Path(tempfile.mkdtemp(prefix="bob_sockmem_")) / "snapshot")
    name, url = ours.fresh_database()
    try:
        port = free_port()
        env = server_environment(url, WS_RATE_PER_SECOND="50", WS_RATE_BURST="50",
                                 PYTHONPATH=str(ROOT))
        command = [sys.executable, __file__, "--serve", out, "serve", "--port", str(port)]
        with server_process(command, port, None, env) as (base, server):
            if games is None:
                count = args.sockets
                asyncio.run(_hold(base, server.pid, count))
            else:
                count = play(base, server.pid, url, out, args, games)
    finally:
        ours.drop_database(name)
    lines = by_our_line(tracemalloc.Snapshot.load(out + ".0"),
                        tracemalloc.Snapshot.load(out + ".1"), str(ROOT / "app"), 1)
    return count, Counter(dict(lines))


if __name__ == "__main__":
    main()
