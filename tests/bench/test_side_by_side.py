"""The side-by-side bench reads each run's figures from ``bench/server.py``'s JSON line."""

from __future__ import annotations

from pathlib import Path

from bench.side_by_side import figures, parse


def test_figures_per_applied_command_per_game_and_p50() -> None:
    run = {"server_cpu_ms_per_applied": 2.5, "server_cpu_seconds": 15.0, "finished": 30,
           "latency_ms": {"p50": 4.2, "p99": 99.0}}
    assert figures(run) == {"cpu_ms_per_applied": 2.5, "cpu_s_per_game": 0.5, "p50_ms": 4.2}
    assert figures({**run, "finished": 0})["cpu_s_per_game"] == 15.0


def test_the_steady_part_is_compared_when_the_run_had_one() -> None:
    run = {"server_cpu_ms_per_applied": 4.0, "server_cpu_seconds": 15.0, "finished": 3,
           "latency_ms": {"p50": 9.0}, "steady_server_cpu_ms_per_applied": 2.9}
    assert figures(run)["steady_cpu_ms_per_applied"] == 2.9
    assert "steady_cpu_ms_per_applied" not in figures(
        {**run, "steady_server_cpu_ms_per_applied": None})


def test_its_own_options_stay_on_its_side_of_the_double_dash() -> None:
    args, bench_args = parse(["../before", ".", "--rounds", "4", "--", "--games", "30",
                              "--rounds-of-nothing"])
    assert (args.a, args.b, args.rounds) == (Path("../before"), Path("."), 4)
    assert bench_args == ["--games", "30", "--rounds-of-nothing"]
