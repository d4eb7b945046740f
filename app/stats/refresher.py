"""Runs ``bob analysis refresh`` (``app.stats.baselines``) in a child process, now and then.

At start-up and every ``ANALYSIS_REFRESH_SECONDS`` one process of those sharing the database
(the one whose :func:`~app.stats.baselines.claim` wins) starts the job as a child process, at a
lower CPU priority. The event loop only waits for the child to exit; a failed run is logged
and tried again next period.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys

from app.db import Database
from app.stats import baselines

log = logging.getLogger(__name__)


class AnalysisRefresher:
    def __init__(self, db: Database, period_seconds: float) -> None:
        self.db = db
        self.period_seconds = period_seconds

    async def run_once(self) -> bool:
        """Runs the job if this process wins the period's claim; whether it ran cleanly."""
        async with self.db.session() as session:
            if not await baselines.claim(session, self.period_seconds):
                return False
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "app.cli", "analysis", "refresh",
            env={**os.environ, "DATABASE_URL": self.db.url},
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )
        try:
            _, errors = await child.communicate()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            raise
        if child.returncode != 0:
            log.error("bob analysis refresh failed (%s): %s", child.returncode,
                      errors.decode(errors="replace")[-2000:])
            return False
        return True

    async def run_forever(self) -> None:
        if self.period_seconds <= 0:
            return
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis refresh could not start")
            await asyncio.sleep(self.period_seconds)
