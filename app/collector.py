"""Keeps the cyclic garbage collector's pauses rare in the long-running processes.

A full collection walks every tracked object: under load, in ``bob serve``, about 120 ms every
10 to 20 seconds (measured with ``gc.callbacks`` during ``bench/server.py``), which a
spectator sees as a stalled game. Two changes make those pauses rare without giving up the
collector: what start-up allocated (modules, models, routes) is frozen out of its reach, and the
youngest generation is collected every 50,000 allocations rather than 700, so the objects a
command creates and drops within a second or two (states, views, frames) die young instead of
being promoted and swelling the old generation that triggers the full collections.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 10)


def tune() -> None:
    """For a server or bot process, once it has started (it pins every object alive now for
    the process's lifetime, so not for test processes that start many apps)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
