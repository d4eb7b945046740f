"""Everything a request or socket handler needs, built once per app (no module globals)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.metrics import Metrics
from app.offload import CpuWork
from app.settings import Settings
from app.throttle import Throttle

if TYPE_CHECKING:
    from app.games.broadcast import Broadcaster
    from app.games.commands import CommandPath
    from app.games.ownership import Ownership
    from app.realtime.presence import Presence
    from app.realtime.sessions import OpenSessions
    from app.realtime.watch import RoomWatch


@dataclass
class ServerContext:
    settings: Settings
    db: Database
    catalog: EngineCatalog
    broadcaster: Broadcaster
    throttle: Throttle
    metrics: Metrics
    ownership: Ownership
    commands: CommandPath = field(init=False)
    presence: Presence = field(init=False)
    sessions: OpenSessions = field(init=False)
    watch: RoomWatch = field(init=False)
    cpu: CpuWork = field(default_factory=CpuWork)
    """Where a request's CPU-bound work runs (:mod:`app.offload`)."""
    timer_wakeup: asyncio.Event = field(default_factory=asyncio.Event)
    timer_planned: datetime | None = None
    """When the timer runner means to look next; a sooner deadline wakes it."""
    timer_soonest: datetime | None = None
    """The soonest deadline this process's commits set since the runner's tick began (the
    tick's own read may predate them)."""

    def wake_timers(self, deadline: datetime) -> None:
        """A commit set ``deadline``: wake the timer runner if it would otherwise sleep past it
        (most commits set deadlines seconds away and cost the runner nothing)."""
        if self.timer_soonest is None or deadline < self.timer_soonest:
            self.timer_soonest = deadline
        if self.timer_planned is not None and deadline < self.timer_planned:
            self.timer_wakeup.set()
