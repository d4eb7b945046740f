"""bench/command_path.py serves the real application in process, its sockets in memory: a short
run plays games through the command path and counts what it cost per applied command."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.command_path import main
from tests.support.databases import backends

pytestmark = pytest.mark.skipif("postgres" not in backends(),
                                reason="the bench runs on PostgreSQL")


def test_a_short_run_applies_commands_and_times_them_without_the_clients(
        tmp_path: Path) -> None:
    profile = tmp_path / "window.pstats"
    run = main(["--games", "3", "--ramp", "1", "--settle", "2", "--window", "4",
                "--think-ms", "50:150", "--profile", str(profile)])
    assert run["applied"].get("players", 0) > 10
    # every commit goes to the table's five sockets, and the commander gets its ack too
    assert 5 <= run["frames_per_applied"] < 8
    assert run["chars_per_frame"] > 100
    assert 0 < run["client_ms_per_applied"] < run["process_cpu_ms_per_applied"]
    assert run["cpu_ms_per_applied"] == pytest.approx(
        run["process_cpu_ms_per_applied"] - run["client_ms_per_applied"], abs=0.002)
    packages = dict(run["by_package"])
    assert packages["app/games"] > 0 and packages["app/engines"] > 0
    assert profile.exists()
