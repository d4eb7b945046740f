"""Runs a module with the CPU time of every asyncio task's steps counted by what the task runs,
for one window of it (issue 12).

``python bench/task_cpu.py OUT -m app.cli serve --port N`` is ``python -m app.cli serve --port
N`` with a task factory on uvicorn's event loop: every task's coroutine is wrapped so that the
thread's CPU time of each of its steps (``time.thread_time``) is added to the task's kind, the
qualified name of the coroutine it was made with. A socket's reader, which also runs the
command path (the read, the engine, the write's await, the publish and the frames sent at
once), is uvicorn's ``run_asgi``; a socket's writer is ``RoomConnection._write_loop``; the timer
runner, the held passes' releases, the watch and the group writer's batches are each their own.
What runs outside any task is the remainder: the protocols' callbacks (uvicorn receiving
frames, asyncpg reading answers), the loop's own work, the collector, and other threads.

The window opens ``SAMPLE_FROM`` seconds after start and lasts ``SAMPLE_SECONDS`` (defaults 70
and 60, as ``bench/cpu_sampled.py``'s); at its end (or at SIGTERM) ``OUT`` gets JSON: the
process's CPU in the window, each kind's CPU, share and steps, and the remainder.
``bench/server.py`` runs its servers under it when ``BENCH_TASKS=PATH`` is set.

Why: a sampling profile overstates small functions and cannot say which task a frame ran in
(docs/benchmarks.md, 2026-12-07, late); this counts whole steps, so it splits a command's CPU
between the parts that run as tasks. Each step costs two reads of the thread's clock (about a
microsecond), which the shares include.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Coroutine, Generator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from profiled import run_until_stopped, wrapped


class Counts:
    """CPU seconds and steps per kind of task, added to by the wrapped tasks' steps."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.steps: defaultdict[str, int] = defaultdict(int)

    def snapshot(self) -> tuple[dict[str, float], dict[str, int]]:
        return dict(self.seconds), dict(self.steps)


class _Timed(Coroutine[Any, Any, Any]):
    """``coro`` driven by its task as before, each ``send`` and ``throw`` timed on the thread's
    CPU clock. Whatever the coroutine yields (the future it waits on) passes through as it is,
    so the task waits on it as it would have."""

    __slots__ = ("_coro", "_counts", "_kind")

    def __init__(self, coro: Coroutine[Any, Any, Any], kind: str, counts: Counts) -> None:
        self._coro, self._kind, self._counts = coro, kind, counts

    def _timed(self, step: Callable[[], Any]) -> Any:
        started = time.thread_time()
        try:
            return step()
        finally:
            self._counts.seconds[self._kind] += time.thread_time() - started
            self._counts.steps[self._kind] += 1

    def send(self, value: Any) -> Any:
        return self._timed(lambda: self._coro.send(value))

    def throw(self, *error: Any) -> Any:
        return self._timed(lambda: self._coro.throw(*error))

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Generator[Any, None, Any]:
        return self._coro.__await__()


def kind_of(coro: Any) -> str:
    return str(getattr(coro, "__qualname__", type(coro).__qualname__))


def install(loop: asyncio.AbstractEventLoop, counts: Counts) -> None:
    """From now on every task ``loop`` makes counts its steps' CPU in ``counts``."""

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        return asyncio.Task(_Timed(coro, kind_of(coro), counts), loop=loop, **kwargs)

    loop.set_task_factory(factory)  # type: ignore[arg-type]


def report(counts: Counts, before: tuple[dict[str, float], dict[str, int], float],
           after: tuple[dict[str, float], dict[str, int], float]) -> dict[str, Any]:
    """The window between two readings (each: seconds and steps by kind, process CPU)."""
    cpu = after[2] - before[2]
    kinds = []
    for kind, seconds in after[0].items():
        spent = seconds - before[0].get(kind, 0.0)
        steps = after[1].get(kind, 0) - before[1].get(kind, 0)
        if steps:
            kinds.append([kind, round(spent, 4), round(spent / cpu, 4) if cpu else None, steps])
    kinds.sort(key=lambda k: -k[1])
    in_tasks = sum(k[1] for k in kinds)
    return {"cpu_seconds": round(cpu, 3), "in_tasks_seconds": round(in_tasks, 3),
            "outside_tasks_seconds": round(cpu - in_tasks, 3),
            "outside_tasks_share": round((cpu - in_tasks) / cpu, 4) if cpu else None,
            "kinds": kinds}


def main() -> None:
    out, module = wrapped("task_cpu.py")
    start = float(os.environ.get("SAMPLE_FROM", "70"))
    length = float(os.environ.get("SAMPLE_SECONDS", "60"))
    counts = Counts()

    import uvicorn.config

    loop_factory = uvicorn.config.Config.get_loop_factory

    def counted_loop_factory(config: Any) -> Callable[[], asyncio.AbstractEventLoop]:
        make = loop_factory(config) or asyncio.new_event_loop

        def counted() -> asyncio.AbstractEventLoop:
            loop = make()
            install(loop, counts)
            return loop

        return counted

    uvicorn.config.Config.get_loop_factory = counted_loop_factory  # type: ignore[method-assign]
    readings: list[tuple[dict[str, float], dict[str, int], float]] = []

    def read() -> None:
        readings.append((*counts.snapshot(), time.process_time()))

    def write() -> None:
        if len(readings) == 1:  # stopped inside the window
            read()
        if len(readings) >= 2:
            with open(out, "w") as file:
                json.dump(report(counts, readings[0], readings[1]), file, indent=1)

    def window() -> None:
        read()
        closing = threading.Timer(length, lambda: (read(), write()))
        closing.daemon = True
        closing.start()

    opening = threading.Timer(start, window)
    opening.daemon = True
    opening.start()
    run_until_stopped(module, write)


if __name__ == "__main__":
    main()
