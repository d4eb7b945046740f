"""``bob bots``: many bot tables at once against a running server, with a summary.

It exits non-zero when a game fails its checks (a spectator saw something other than the
public log, a bot met an unexpected error, a game did not finish), so tests and CI can use it.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from app.bots.client import TableReport, play_table


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def run_bots(
    url: str, game: str, games: int, spectators: int, concurrency: int, seed: int,
    options: dict[str, Any] | None = None, timeout: float = 600.0,
) -> dict[str, Any]:
    gate = asyncio.Semaphore(max(1, concurrency))
    failures: list[str] = []

    async def one(index: int) -> TableReport | None:
        async with gate:
            try:
                return await play_table(url, game, options, spectators, seed + index,
                                        timeout=timeout)
            except Exception as exc:  # a failed table is reported, the others go on
                failures.append(f"table {index}: {type(exc).__name__}: {exc}")
                return None

    started = time.perf_counter()
    reports = [r for r in await asyncio.gather(*(one(i) for i in range(games))) if r]
    elapsed = time.perf_counter() - started
    latencies = [ms for r in reports for ms in r.latencies_ms]
    commands = sum(r.commands for r in reports)
    for report in reports:
        failures.extend(f"game {report.game_id}: {p}" for p in report.problems)
        failures.extend(f"game {report.game_id}: {e}" for e in report.errors)
        if report.result is None:
            failures.append(f"game {report.game_id}: did not finish")
    return {
        "url": url, "game": game, "games": games, "finished": sum(
            1 for r in reports if r.result is not None
        ),
        "spectators_per_game": spectators, "concurrency": concurrency,
        "seconds": round(elapsed, 3), "commands": commands,
        "commands_per_second": round(commands / elapsed, 1) if elapsed else None,
        "latency_ms": {
            "p50": percentile(latencies, 0.50), "p99": percentile(latencies, 0.99),
            "mean": statistics.fmean(latencies) if latencies else None,
            "samples": len(latencies),
        },
        "failures": failures,
    }
