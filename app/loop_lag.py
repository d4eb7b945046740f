"""How late the event loop runs a task that slept a set time.

Every socket's frames and every step of every command wait in one queue of ready callbacks:
when a callback runs long (a collection, a long encoding) or the queue is long, all of them
wait. ``bob_command_seconds`` shows that commands waited, not where; beside
``bob_command_write_seconds`` (the database's part) this tells a busy process from a slow
database (docs/benchmarks.md, "where a command's latency goes"). uvloop's timers count whole
milliseconds, so a reading under about a millisecond is the clock's, not the loop's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

INTERVAL_SECONDS = 0.1
"""Ten samples a second: a pause longer than that makes some wake late by at least the
difference, and the watch itself costs a few microseconds a sample."""


async def watch(observe: Callable[[float], None], interval: float = INTERVAL_SECONDS) -> None:
    """Sleeps ``interval`` again and again, and observes how late each wake came (forever)."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + interval
        await asyncio.sleep(interval)
        observe(max(0.0, loop.time() - due))
