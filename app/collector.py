"""Keeps the cyclic garbage collector's pauses rare in the long-running processes.

Under load a collection stops every game in the process while it walks: at 1,000 human-paced
games a generation-0 walk takes 100-200 ms and a generation-1 walk 400-800 ms (measured with
``bench/stalls.py``, docs/benchmarks.md). What a walk visits is mostly what is alive and young
(the sockets' current waits and what the latest commands left), which grows far more slowly than
the number of allocations between walks. So fewer, longer walks stop the games for less in all:
the youngest generation is collected every 500,000 net allocations rather than CPython's 700, and
what start-up allocated (modules, models, routes) is frozen out of every walk. At 1,000 games a
walk then comes every few minutes in play and takes about half a second: against 50,000 the
p99 fell from 450-490 ms to 210-310 ms and the memory per live game rose under 2%, the cyclic
garbage that waits longer for its walk.
"""

from __future__ import annotations

import gc

THRESHOLDS = (500_000, 20, 10)


def tune() -> None:
    """For a server or bot process, once it has started (it pins every object alive now for
    the process's lifetime, so not for test processes that start many apps)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
