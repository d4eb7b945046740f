"""bench/commit_latency.py times commits of the write's shape with and without waiting for the
WAL flush, and leaves nothing behind."""

from __future__ import annotations

import asyncio

import asyncpg

from app.raw_pool import dsn
from bench.commit_latency import TABLE, main
from tests.support.databases import postgres_database


def test_each_round_times_both_settings_and_drops_its_table() -> None:
    with postgres_database() as url:
        runs = main(["--url", url, "--commits", "30", "--rounds", "2"])
        assert [(r["round"], r["synchronous_commit"]) for r in runs] == [
            (1, "on"), (1, "off"), (2, "on"), (2, "off")]
        for run in runs:
            assert run["commits"] == 30
            assert 0 < run["p50_ms"] <= run["p99_ms"] <= run["max_ms"]

        async def left() -> object:
            connection = await asyncpg.connect(dsn(url))
            try:
                return await connection.fetchval("SELECT to_regclass($1)", TABLE)
            finally:
                await connection.close()

        assert asyncio.run(left()) is None
