"""The bench's steady part: every table live, and with ``settle`` only once the arrivals'
backlog has had that long to drain."""

from __future__ import annotations

import pytest

from bench.serving import merge, server_environment, steady_window


def _samples() -> list[dict[str, object]]:
    # two load processes; tables start at 0-10 s and end at 100-120 s
    return [
        {"tables": [(0.0, 110.0), (10.0, 100.0)], "latency_samples_ms": [500.0, 5.0, 6.0],
         "latency_sent_at": [11.0, 50.0, 90.0], "command_times": [11.0, 50.0, 90.0]},
        {"tables": [(5.0, 120.0)], "latency_samples_ms": [400.0, 7.0],
         "latency_sent_at": [12.0, 60.0], "command_times": [12.0, 60.0]},
    ]


def test_the_steady_part_starts_with_the_last_table_or_settle_seconds_after() -> None:
    assert steady_window(_samples()) == (10.0, 100.0)
    assert steady_window(_samples(), settle=5.0) == (15.0, 100.0)
    assert steady_window(_samples(), settle=95.0) is None  # under a second left


def test_settle_leaves_the_arrivals_backlog_out_of_the_steady_latency() -> None:
    summaries = [{"commands": 3}, {"commands": 2}]
    backlog = merge(summaries, _samples())["steady"]
    settled = merge(summaries, _samples(), settle=5.0)["steady"]
    assert backlog["latency_ms"]["max"] == 500.0 and backlog["commands"] == 5
    assert settled["latency_ms"]["max"] == 7.0 and settled["commands"] == 3
    assert settled["from_s"] == 15.0


def test_a_served_process_computes_no_baselines_unless_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANALYSIS_REFRESH_SECONDS", raising=False)
    env = server_environment("postgresql+asyncpg://x/y", WS_RATE_BURST="50")
    assert env["ANALYSIS_REFRESH_SECONDS"] == "0"
    assert env["DATABASE_URL"] == "postgresql+asyncpg://x/y"
    assert env["WS_RATE_BURST"] == "50"
    assert env["LIMIT_LOGIN_ADDRESS"] == "1000000/minute"
    monkeypatch.setenv("ANALYSIS_REFRESH_SECONDS", "900")
    assert server_environment("sqlite+aiosqlite://")["ANALYSIS_REFRESH_SECONDS"] == "900"
