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
    think: tuple[float, float] = (0.0, 0.0), ramp_seconds: float = 0.0,
    include_samples: bool = False, duration: float | None = None,
) -> dict[str, Any]:
    """Plays ``games`` tables, at most ``concurrency`` at once; table ``i`` starts
    ``i * ramp_seconds / games`` seconds in, so tables arrive spread out rather than all at once.

    With ``include_samples`` the result also holds the raw samples, so that a parent can merge
    several processes into one distribution: ``latency_samples_ms`` (per command, as in
    ``latency_ms``), ``latency_sent_at`` (the wall-clock send time of each of those samples),
    ``command_times`` (the wall-clock time of every command sent) and ``tables`` (each finished
    table's wall-clock start and end).

    ``duration``: stop every table this many seconds after the start, wherever it is (a
    benchmark of a fixed length: human-paced games last longer than the run); those count as
    ``stopped``, not as failures, and their samples until then are kept. Tables not started by
    then are not started (``not_started``)."""
    gate = asyncio.Semaphore(max(1, concurrency))
    stop = None if duration is None else asyncio.Event()
    if stop is not None and duration is not None:
        asyncio.get_running_loop().call_later(max(0.0, duration), stop.set)
    not_started = 0
    failures: list[str] = []
    spans: dict[int, tuple[float, float]] = {}

    async def one(index: int) -> TableReport | None:
        nonlocal not_started
        if ramp_seconds > 0 and games > 0:
            await asyncio.sleep(index * ramp_seconds / games)
        async with gate:
            if stop is not None and stop.is_set():
                not_started += 1
                return None
            start = time.time()
            try:
                report = await play_table(url, game, options, spectators, seed + index,
                                          timeout=timeout, think=think, keep_messages=False,
                                          stop=stop)
            except Exception as exc:  # a failed table is reported, the others go on
                failures.append(f"table {index}: {type(exc).__name__}: {exc}")
                return None
            spans[index] = (start, time.time())
            return report

    started = time.perf_counter()
    reports = [r for r in await asyncio.gather(*(one(i) for i in range(games))) if r]
    elapsed = time.perf_counter() - started
    latencies = [ms for r in reports for ms in r.latencies_ms]
    commands = sum(r.commands for r in reports)
    for report in reports:
        failures.extend(f"game {report.game_id}: {p}" for p in report.problems)
        failures.extend(f"game {report.game_id}: {e}" for e in report.errors)
        if report.result is None and not report.stopped:
            failures.append(f"game {report.game_id}: did not finish")
    result: dict[str, Any] = {
        "url": url, "game": game, "games": games, "finished": sum(
            1 for r in reports if r.result is not None
        ),
        "stopped": sum(1 for r in reports if r.stopped), "not_started": not_started,
        "spectators_per_game": spectators, "concurrency": concurrency,
        "think_ms": [round(think[0] * 1000, 3), round(think[1] * 1000, 3)],
        "ramp_seconds": ramp_seconds,
        "seconds": round(elapsed, 3), "commands": commands,
        "commands_per_second": round(commands / elapsed, 1) if elapsed else None,
        "latency_ms": {
            "p50": percentile(latencies, 0.50), "p99": percentile(latencies, 0.99),
            "mean": statistics.fmean(latencies) if latencies else None,
            "samples": len(latencies),
        },
        "failures": failures,
    }
    if include_samples:
        result["latency_samples_ms"] = [round(ms, 3) for ms in latencies]
        result["latency_sent_at"] = [round(t, 4) for r in reports for t in r.latency_sent_at]
        result["command_times"] = sorted(round(t, 4) for r in reports for t in r.command_times)
        result["tables"] = [[round(a, 4), round(b, 4)] for _, (a, b) in sorted(spans.items())]
    return result
