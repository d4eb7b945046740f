"""Applies the leagues' deadline rule now and then (``bob leagues decide`` does it by hand).

Every ``LEAGUE_TICK_SECONDS`` each process tries to claim the period (``job_claim`` row
``leagues``, one ``UPDATE ... WHERE until < now``); the one that wins runs
:func:`app.leagues.service.decide`. The work is a few small queries, so it runs in the event
loop. Even two runs at once (the command beside a server) are safe: every game is decided by
a conditional ``UPDATE`` on its status.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy import update

from app.db import Database, utcnow
from app.leagues import service
from app.settings import Settings
from app.stats.models import JobClaim

log = logging.getLogger(__name__)
JOB = "leagues"


class LeagueJob:
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings

    async def run_once(self) -> dict[str, int] | None:
        """The counts :func:`~app.leagues.service.decide` returns, or ``None`` when another
        process holds this period."""
        period = self.settings.league_tick_seconds
        async with self.db.session() as db:
            now = utcnow()
            claimed = await db.execute(
                update(JobClaim).where(JobClaim.name == JOB, JobClaim.until < now)
                .values(until=now + timedelta(seconds=period * 0.9)))
            await db.commit()
            if not claimed.rowcount:  # type: ignore[attr-defined]
                return None
            counts = await service.decide(db, self.settings, now)
            await db.commit()
            return counts

    async def run_forever(self) -> None:
        if self.settings.league_tick_seconds <= 0:
            return
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the leagues' deadline job failed; trying again next period")
            await asyncio.sleep(self.settings.league_tick_seconds)
