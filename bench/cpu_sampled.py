"""Runs a module with a statistical profile on the process's CPU clock, for one window of it.

``python bench/cpu_sampled.py OUT -m app.cli serve --port N`` is ``python -m app.cli serve
--port N`` plus a ``SIGPROF`` timer (``setitimer(ITIMER_PROF)``, every ``SAMPLE_MS``
milliseconds of the process's CPU time, 1 by default) from ``SAMPLE_FROM`` seconds after start
for ``SAMPLE_SECONDS`` seconds (defaults 70 and 60: inside the steady part of a
``bench/compare.py`` run at 200 games, whose tables have all arrived by 60 s). Each signal
records the Python stack running when it came; at the window's end (or at SIGTERM, if the
window is still open) ``OUT`` gets JSON: the samples, and their counts by stack and by
function (self and total), by package, and by ``app/`` module.

Why this and not the others (docs/benchmarks.md): cProfile and yappi charge a cost to every
call, which lands hardest on the code that makes the most small calls (yappi put a quarter of
the CPU in the engine, which costs about a tenth timed on its own), and cProfile's wall clock
puts the loop's idle time on a suspended coroutine; py-spy cannot unwind this stack. A sample
here costs the same wherever it lands, is taken only as CPU time passes, and reads the
interpreter's own frames, so every coroutine's chain of awaits is there. Time spent in C
(uvloop, the kernel, orjson) is charged to the Python frame that called it, or, for the loop's
own work between callbacks, to the first Python frame that runs after it.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from profiled import run_until_stopped, wrapped

ROOT = str(Path(__file__).resolve().parent.parent) + os.sep
Stack = tuple[str, ...]
_app_root: str | None = None


def app_root() -> str | None:
    """The tree whose ``app`` the process imported, which need not be this file's: the
    virtualenv installs the main tree, so a worktree's bench serves the main tree's ``app``
    unless ``PYTHONPATH`` says otherwise. Found once ``app`` is imported, then kept."""
    global _app_root
    if _app_root is None:
        module = sys.modules.get("app")
        found = getattr(module, "__file__", None)
        if found:
            _app_root = str(Path(found).resolve().parent.parent) + os.sep
    return _app_root


def where(frame: FrameType) -> str:
    """``path:function`` of a frame, the path relative to the repository (this one, or the one
    ``app`` came from) or to site-packages."""
    path = frame.f_code.co_filename
    imported = app_root()
    if "site-packages" + os.sep in path:
        path = path.split("site-packages" + os.sep, 1)[1]
    elif path.startswith(ROOT):
        path = path[len(ROOT):]
    elif imported is not None and path.startswith(imported):
        path = path[len(imported):]
    elif "python3." in path:
        path = "stdlib/" + path.rsplit(os.sep, 1)[-1]
    return f"{path}:{frame.f_code.co_name}"


def stack_of(frame: FrameType | None, limit: int = 64) -> Stack:
    """Innermost first."""
    found: list[str] = []
    while frame is not None and len(found) < limit:
        found.append(where(frame))
        frame = frame.f_back
    return tuple(found)


def package(place: str) -> str:
    """What a ``path:function`` belongs to: an ``app/`` package (``app/games``), a library
    (``asyncpg``), ``stdlib``, or ``bench``."""
    path = place.split(":", 1)[0]
    parts = path.split(os.sep)
    if parts[0] == "app" and len(parts) > 2:
        return os.sep.join(parts[:2])
    return parts[0]


LOOP = "(the event loop between callbacks)"
"""Samples whose innermost frame is the process's entry (``asyncio.run``): uvloop's own C work
(polling, reading sockets, running its handles) with no task's frame on the stack."""


def summary(stacks: Mapping[Stack, float], top: int = 400) -> dict[str, Any]:
    """CPU milliseconds by function (self: innermost; total: anywhere in the stack), by the
    package of the innermost frame, and by the innermost ``app/`` frame (the code of ours that
    led to the sample, wherever it ended), each with its share."""
    total = sum(stacks.values())
    own: dict[str, float] = defaultdict(float)
    anywhere: dict[str, float] = defaultdict(float)
    packages: dict[str, float] = defaultdict(float)
    ours: dict[str, float] = defaultdict(float)
    for stack, cpu in stacks.items():
        if not stack or stack[0].startswith("stdlib/runners.py:"):
            for counter in (own, packages, ours):
                counter[LOOP] += cpu
            continue
        own[stack[0]] += cpu
        packages[package(stack[0])] += cpu
        for place in set(stack):
            anywhere[place] += cpu
        mine = next((p for p in stack if p.startswith("app" + os.sep)
                     and not p.startswith("app/cli.py:")), "(none of app/)")
        ours[mine] += cpu

    def shares(counter: dict[str, float]) -> list[list[Any]]:
        largest = sorted(counter.items(), key=lambda item: -item[1])[:top]
        return [[name, round(cpu * 1000, 1), round(cpu / total, 4) if total else 0.0]
                for name, cpu in largest]

    return {"cpu_ms_sampled": round(total * 1000, 1), "self": shares(own),
            "total": shares(anywhere), "package": shares(packages),
            "innermost_app": shares(ours)}


class Sampler:
    def __init__(self, every_s: float) -> None:
        self.every_s = every_s
        self.stacks: dict[Stack, float] = defaultdict(float)
        """CPU seconds by the stack that was running as they ran out."""
        self.cpu_seconds = 0.0
        self._cpu_at = self._last = 0.0

    def on_signal(self, _signum: int, frame: FrameType | None) -> None:
        # Python runs a handler only between bytecodes, so signals that come while C code
        # runs (the loop, a write, orjson) merge into one: each sample is weighed by the CPU
        # time since the last one, or C-heavy stretches would count once for many.
        now = time.process_time()
        self.stacks[stack_of(frame)] += now - self._last
        self._last = now

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self.on_signal)
        self._cpu_at = self._last = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, self.every_s, self.every_s)

    def stop(self) -> dict[Stack, float]:
        """Stops sampling and hands over the samples (a signal still pending lands in a fresh
        counter, not in the one being read)."""
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        self.cpu_seconds = time.process_time() - self._cpu_at
        stacks, self.stacks = self.stacks, defaultdict(float)
        return stacks


def main() -> None:
    out, module = wrapped("cpu_sampled.py")
    start = float(os.environ.get("SAMPLE_FROM", "70"))
    seconds = float(os.environ.get("SAMPLE_SECONDS", "60"))
    sampler = Sampler(float(os.environ.get("SAMPLE_MS", "1")) / 1000)
    state = {"started": False, "written": False}
    lock = threading.Lock()

    def write() -> None:
        with lock:
            if not state["started"] or state["written"]:
                return
            state["written"] = True
        report = summary(sampler.stop())
        report["cpu_seconds"] = round(sampler.cpu_seconds, 3)
        report["sample_ms"] = sampler.every_s * 1000
        Path(out).write_text(json.dumps(report, indent=1))

    def window() -> None:
        time.sleep(start)
        # A signal handler can only be set from the main thread: ask it to, by a signal.
        os.kill(os.getpid(), signal.SIGUSR2)
        state["started"] = True
        time.sleep(seconds)
        write()

    signal.signal(signal.SIGUSR2, lambda _s, _f: sampler.start())
    threading.Thread(target=window, daemon=True).start()
    run_until_stopped(module, write)


if __name__ == "__main__":
    main()
