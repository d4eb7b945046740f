"""Runs the server with a stall detector and writes what held its event loop when it stops.

``python bench/stalls.py OUT -m app.cli serve --port N`` is ``python -m app.cli serve --port N``
plus:

- a task on the server's loop that notes the time every ``TICK`` seconds;
- a thread that, while that note is older than ``STALL`` seconds (the loop is running one
  callback that long, or is behind), samples the main thread's Python stack every ``SAMPLE``
  seconds;
- ``gc.callbacks``, which time every collection of the cyclic garbage collector (the thread
  cannot sample while a collection holds the interpreter, so those are timed separately).

A sampling profiler averages over the whole run, where a 100 ms pause every few seconds is a
percent or two of the samples; a p99 is made of exactly those pauses, so this records each one
with what was running. At SIGTERM (``bench/server.py`` stops its servers so) it writes ``OUT``
as JSON: each stall's start, length and stacks, each collection over 5 ms, and totals by the
innermost frame (of ``app/`` code, and of any code), and exits.

``bench/server.py`` runs its servers under it when ``BENCH_STALLS=PATH`` is set (each process
writes ``PATH`` plus its suffix). Two more variables, for finding out rather than for runs whose
latency is read: ``STALLS_CENSUS=1`` counts what each collection walks and the types of the
first few long walks (from ``STALLS_CENSUS_AFTER=SECONDS`` into the run, to skip the ramp), and
``STALLS_OWNERS=1`` adds to the first two what holds their lists, dicts and tuples
(``bench/young.py``); ``STALLS_GC_THRESHOLDS=A,B,C`` replaces ``app.collector.THRESHOLDS``
(``0,...`` turns automatic collection off); ``STALLS_COLLECT_EVERY=SECONDS`` runs a full
collection from a task on the loop that often (with automatic collection off: the collector on a
timer).

Known hazard: the sampling thread reads another thread's frames. Once, at 1,000 games, the
server died of a segfault in that thread as the bots closed 5,000 sockets at once
(docs/benchmarks.md, "the writer that keeps nothing"); the run's bench line was whole but its
stall report was lost. A run whose report is missing is made again.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.profiled import run_until_stopped, wrapped
from bench.young import owners

TICK = 0.005
STALL = 0.025
SAMPLE = 0.005
GC_KEPT_MS = 5.0
CENSUS = os.environ.get("STALLS_CENSUS") == "1"
"""Count what each collection walks (and the types of the first few long walks). The count is
made outside the timed collection but on the loop, so it adds pauses of its own: for finding
out, not for a run whose latency is read."""
CENSUS_FROM = 120_000
"""A collection walking more objects than this has their types counted (the first few)."""
CENSUSES = 6
CENSUS_AFTER = float(os.environ.get("STALLS_CENSUS_AFTER") or 0)
"""Seconds into the run before a walk's types are counted: the ramp's walks are mostly new
connections, not what the steady part keeps."""
OWNERS = os.environ.get("STALLS_OWNERS") == "1"
OWNER_CENSUSES = 2
"""Naming owners walks the whole heap (seconds at 1,000 games), so only the first two."""


class Detector:
    def __init__(self) -> None:
        self.last_tick: float | None = None
        """None until the loop runs: start-up (imports, migrations' checks) is not a stall."""
        self.stalls: list[dict[str, Any]] = []
        self.collections: list[dict[str, Any]] = []
        self._gc_started = 0.0
        self._gc_objects = 0
        self.censuses: list[dict[str, Any]] = []
        self._main = threading.get_ident()
        """The thread that made the detector: the one that will run the loop."""
        self._started = time.time()

    async def tick(self) -> None:
        while True:
            self.last_tick = time.monotonic()
            await asyncio.sleep(TICK)

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if CENSUS:  # before the clock starts, so the count's own cost is not timed
                self._count_walk(info["generation"])
            self._gc_started = time.perf_counter()
            return
        ms = (time.perf_counter() - self._gc_started) * 1000
        if ms >= GC_KEPT_MS:
            self.collections.append({"at": round(time.time() - self._started, 3),
                                     "generation": info["generation"], "ms": round(ms, 1),
                                     "collected": info["collected"],
                                     **({"walked": self._gc_objects} if CENSUS else {})})

    def _count_walk(self, generation: int) -> None:
        """What a collection will walk: the generations it merges (this one and the younger),
        and for the first few long walks, their objects' types, most first."""
        walked = [o for g in range(generation + 1) for o in gc.get_objects(g)]
        self._gc_objects = len(walked)
        at = time.time() - self._started
        if len(walked) > CENSUS_FROM and len(self.censuses) < CENSUSES and at >= CENSUS_AFTER:
            census = Counter(type(o).__qualname__ for o in walked)
            entry: dict[str, Any] = {"at": round(at, 3), "generation": generation,
                                     "types": census.most_common(40)}
            if OWNERS and len(self.censuses) < OWNER_CENSUSES:
                entry["owners"] = owners(walked)
            self.censuses.append(entry)

    def watch(self) -> None:
        current: dict[str, Any] | None = None
        while True:
            time.sleep(SAMPLE)
            if self.last_tick is None:
                continue
            since = time.monotonic() - self.last_tick
            if since < STALL:
                if current is not None:
                    current["ms"] = round(current["ms_seen"], 1)
                    del current["ms_seen"]
                    self.stalls.append(current)
                    current = None
                continue
            if current is None:
                current = {"at": round(time.time() - self._started - since, 3), "ms_seen": 0.0,
                           "stacks": []}
            current["ms_seen"] = since * 1000
            frame = sys._current_frames().get(self._main)
            if frame is not None and len(current["stacks"]) < 20:
                current["stacks"].append(_stack(frame))

    def report(self) -> dict[str, Any]:
        lengths = sorted(s["ms"] for s in self.stalls)
        return {
            "seconds": round(time.time() - self._started, 1),
            "stall_ms": STALL * 1000,
            "stalls": len(lengths),
            "stall_ms_total": round(sum(lengths), 1),
            "longest_ms": lengths[-10:],
            "by_innermost_app_frame": self._by(_innermost_app),
            "by_innermost_frame": self._by(lambda stack: stack[-1].rsplit(":", 1)[0]
                                           if stack else "(empty)"),
            "collections": self.collections,
            "censuses": self.censuses,
            "each": self.stalls,
        }

    def _by(self, name_of: Callable[[list[str]], str]) -> list[dict[str, Any]]:
        """Stalls (and their milliseconds) by a name given to each of their sampled stacks; a
        stall counts once for each different name among its samples."""
        stalls: Counter[str] = Counter()
        ms: Counter[str] = Counter()
        for stall in self.stalls:
            for name in {name_of(stack) for stack in stall["stacks"]} or {"(no sample)"}:
                stalls[name] += 1
                ms[name] += stall["ms"]
        return [{"frame": name, "stalls": count, "ms": round(ms[name], 1)}
                for name, count in stalls.most_common(30)]


async def _collect_every(seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        gc.collect()


def _stack(frame: FrameType) -> list[str]:
    return [f"{os.path.relpath(f.filename)}:{f.name}:{f.lineno}"
            for f in traceback.extract_stack(frame)][-25:]


def _innermost_app(stack: list[str]) -> str:
    for entry in reversed(stack):
        if entry.startswith("app/"):
            return entry.rsplit(":", 1)[0]
    return stack[-1].rsplit(":", 1)[0] if stack else "(empty)"


def main() -> None:
    out, module = wrapped("stalls.py")
    detector = Detector()
    gc.callbacks.append(detector.on_gc)
    threading.Thread(target=detector.watch, daemon=True).start()

    thresholds = os.environ.get("STALLS_GC_THRESHOLDS")
    if thresholds:  # e.g. "10000,20,10": what app.collector.tune sets, for a comparison
        import app.collector

        app.collector.THRESHOLDS = tuple(int(t) for t in thresholds.split(","))  # type: ignore[assignment]

    import uvicorn.server

    serve = uvicorn.server.Server.serve

    async def serve_with_tick(self: uvicorn.server.Server, sockets: Any = None) -> None:
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(detector.tick())]
        every = float(os.environ.get("STALLS_COLLECT_EVERY") or 0)
        if every > 0:
            tasks.append(loop.create_task(_collect_every(every)))
        try:
            await serve(self, sockets)
        finally:
            for task in tasks:
                task.cancel()

    uvicorn.server.Server.serve = serve_with_tick  # type: ignore[method-assign]

    def write() -> None:
        with open(out, "w") as file:
            json.dump(detector.report(), file)

    run_until_stopped(module, write)


if __name__ == "__main__":
    main()
