"""Runs a module under cProfile and writes the profile when the process is told to stop.

``python bench/profiled.py OUT -m app.cli serve --port N`` is ``python -m app.cli serve --port
N`` with a deterministic profile written to ``OUT`` (``pstats`` format). ``python -m cProfile``
cannot be used for the server: uvicorn re-raises the SIGTERM it caught once it has shut down, so
the process dies of the signal before cProfile's ``finally`` writes anything. Here the SIGTERM
handler uvicorn restores before re-raising is this one, which writes the profile and exits.

A profile of asyncio code counts every resumption of a coroutine as a call, so read self time
(``tottime``), not call counts or cumulative time; code under SQLAlchemy's greenlets is
attributed to whichever frame was running when the greenlet switched.
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
from collections.abc import Callable
from types import FrameType


def wrapped(script: str) -> tuple[str, str]:
    """``OUT`` and ``MODULE`` of a wrapper's command line (``SCRIPT OUT -m MODULE [ARGS...]``);
    the module's own arguments become ``sys.argv``, as ``python -m MODULE ARGS`` would set."""
    if len(sys.argv) < 4 or sys.argv[2] != "-m":
        raise SystemExit(f"usage: {script} OUT -m MODULE [ARGS...]")
    out, module = sys.argv[1], sys.argv[3]
    sys.argv = [module, *sys.argv[4:]]
    return out, module


def run_until_stopped(module: str, write: Callable[[], None]) -> None:
    """Runs ``module`` as ``__main__``; at SIGTERM or its end, calls ``write`` and exits."""

    def stop(_signum: int | None = None, _frame: FrameType | None = None) -> None:
        write()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        stop()


def main() -> None:
    out, module = wrapped("profiled.py")
    profile = cProfile.Profile()

    def write() -> None:
        profile.disable()
        profile.dump_stats(out)

    profile.enable()
    run_until_stopped(module, write)


if __name__ == "__main__":
    main()
