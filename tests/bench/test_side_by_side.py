"""The side-by-side bench reads each run's figures from ``bench/server.py``'s JSON line."""

from __future__ import annotations

from bench.side_by_side import figures


def test_figures_per_applied_command_per_game_and_p50() -> None:
    run = {"server_cpu_ms_per_applied": 2.5, "server_cpu_seconds": 15.0, "finished": 30,
           "latency_ms": {"p50": 4.2, "p99": 99.0}}
    assert figures(run) == {"cpu_ms_per_applied": 2.5, "cpu_s_per_game": 0.5, "p50_ms": 4.2}
    assert figures({**run, "finished": 0})["cpu_s_per_game"] == 15.0
