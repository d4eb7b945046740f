"""The suite's own check that the event log is the truth: every game a test database holds is
rebuilt from its commands and seed (``app.games.verify``) before the database is dropped."""

from __future__ import annotations

import asyncio

from app.db import Database
from app.engine_catalog import EngineCatalog
from app.games.verify import GameCheck, verify_games
from tests.support.databases import _in_thread

FIXTURE_RULES = "test-fixture"
"""``rules_version`` of games the stats tests write by hand (no engine played them): the
rebuild reports them as ``other_rules`` and passes them by."""


def check_played_games(url: str, catalog: EngineCatalog) -> list[GameCheck]:
    """Every game in the database at ``url``, live or finished, rebuilt and compared."""

    async def run() -> list[GameCheck]:
        database = Database(url)
        try:
            async with database.session() as db:
                return await verify_games(db, catalog, include_live=True)
        finally:
            await database.dispose()

    checks: list[GameCheck] = _in_thread(lambda: asyncio.run(run()))
    return checks


def assert_played_games_rebuild(url: str, catalog: EngineCatalog) -> None:
    checks = check_played_games(url, catalog)
    mismatches = [c for c in checks if c.verdict == "mismatch"]
    strangers = [c for c in checks if c.verdict == "other_rules"
                 and not (c.problem or "").startswith(f"rules version {FIXTURE_RULES};")]
    assert not mismatches and not strangers, (
        f"{len(mismatches) + len(strangers)} of {len(checks)} games do not rebuild from their "
        f"commands and seed: {[c.to_json() for c in (mismatches + strangers)[:5]]}"
    )
