"""What an idle spectator socket keeps on the server, by the code of ours that allocated it.

RSS per socket (``bench/compare.py --idle-sockets``) says how much; this says where. It starts
``bob serve`` on a fresh PostgreSQL database under tracemalloc, opens and closes a warm-up of
sockets, takes a snapshot, opens ``--sockets`` idle spectator sockets on one room, takes
another, and prints the growth per socket, each allocation put on the innermost frame of
``app/`` in its traceback (the line of ours that led to it). Allocations with no frame of ours
in their traceback are the stack's own (uvicorn's protocol, the handshake, the loop); so are
those under ``app/cli.py`` (``uvicorn.run``), which is printed as it is.

    .venv/bin/python bench/socket_memory.py --sockets 400

The figure runs a little under RSS per socket: tracemalloc sees Python's allocations, not the
allocator's own overhead or the C parts of the loop's transports.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import runpy
import signal
import sys
import tempfile
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


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        out = sys.argv[2]
        sys.argv = ["app.cli", *sys.argv[3:]]
        serve_traced(out)
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--top", type=int, default=20, help="lines of ours to print")
    parser.add_argument("--json", type=Path, help="every line's bytes per socket, as JSON")
    args = parser.parse_args()

    from bench import server as ours
    from bench.serving import LOAD_LIMITS, free_port, server_process

    out = str(Path(tempfile.mkdtemp(prefix="bob_sockmem_")) / "snapshot")
    name, url = ours.fresh_database()
    try:
        port = free_port()
        env = {**os.environ, **LOAD_LIMITS, "DATABASE_URL": url, "WS_RATE_PER_SECOND": "50",
               "WS_RATE_BURST": "50", "PYTHONPATH": str(ROOT)}
        command = [sys.executable, __file__, "--serve", out, "serve", "--port", str(port)]
        with server_process(command, port, None, env) as (base, server):
            asyncio.run(_hold(base, server.pid, args.sockets))
    finally:
        ours.drop_database(name)
    lines = by_our_line(tracemalloc.Snapshot.load(out + ".0"),
                        tracemalloc.Snapshot.load(out + ".1"), str(ROOT / "app"), args.sockets)
    print(f"{sum(size for _, size in lines):8.0f} bytes a socket, traced")
    for where, size in lines[:args.top]:
        print(f"{size:8.0f}  {where}")
    if args.json:
        args.json.write_text(json.dumps({"sockets": args.sockets, "bytes_per_socket": dict(
            (where, round(size, 1)) for where, size in lines)}, indent=1) + "\n")


if __name__ == "__main__":
    main()
