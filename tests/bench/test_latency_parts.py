"""``bench/latency_parts.py``: the steady part's latency quantiles from the servers' histograms."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from app.bots.client import play_table
from bench.latency_parts import MetricsSampler, parse, quantile, steady_parts
from tests.support.live import LiveServer

TEXT = """# HELP bob_command_write_seconds ...
bob_command_write_seconds_bucket{le="0.001"} 10.0
bob_command_write_seconds_bucket{le="0.005"} 90.0
bob_command_write_seconds_bucket{le="0.01"} 100.0
bob_command_write_seconds_bucket{le="+Inf"} 100.0
bob_command_write_seconds_count 100.0
bob_command_seconds_bucket{kind="action",le="0.01"} 4.0
bob_command_seconds_bucket{kind="action",le="+Inf"} 5.0
bob_command_seconds_bucket{kind="claim",le="0.01"} 7.0
bob_command_seconds_bucket{kind="claim",le="+Inf"} 7.0
"""


def test_buckets_are_read_by_part_and_only_a_players_actions_count() -> None:
    parts = parse(TEXT)
    assert parts["write"] == {0.001: 10.0, 0.005: 90.0, 0.01: 100.0, math.inf: 100.0}
    assert parts["command"] == {0.01: 4.0, math.inf: 5.0}
    assert parts["loop_lag"] == {}


def test_a_quantile_is_linear_inside_its_bucket() -> None:
    write = parse(TEXT)["write"]
    assert quantile(0.05, write) == pytest.approx(0.0005)
    assert quantile(0.5, write) == pytest.approx(0.001 + 0.004 * 40 / 80)
    assert quantile(0.99, write) == pytest.approx(0.005 + 0.005 * 9 / 10)
    assert quantile(0.9, parse(TEXT)["command"]) == 0.01  # in +Inf: the largest finite bound
    assert quantile(0.5, {}) is None


def test_processes_are_summed_over_the_window() -> None:
    def sampler(counts: list[tuple[float, float, float]]) -> MetricsSampler:
        s = MetricsSampler("http://unused")
        s.samples = [(t, {"command": {}, "loop_lag": {},
                          "write": {0.001: fast, math.inf: every}}) for t, fast, every in counts]
        return s

    first = sampler([(1.0, 0, 0), (2.0, 5, 10), (9.0, 25, 30), (20.0, 99, 99)])
    second = sampler([(3.0, 0, 0), (8.0, 0, 10)])
    parts = steady_parts([first, second], (1.5, 10.0))
    assert parts is not None
    assert parts["write"]["count"] == 30.0  # 20 of the first's, 10 of the second's
    assert parts["write"]["p50"] == 0.75  # the 15th of 30, of the 20 under 1 ms
    assert parts["write"]["p90"] == 1.0  # the 27th: past the last finite bound
    assert parts["command"]["p50"] is None
    assert steady_parts([first], (100.0, 200.0)) is None  # no scrapes inside
    assert steady_parts([first], None) is None


async def test_a_live_servers_writes_are_seen_between_two_scrapes(live: LiveServer) -> None:
    with MetricsSampler(live.url, interval=0.2) as sampler:
        await asyncio.sleep(0.5)
        started = time.time()
        await play_table(live.url, "dice-duel", {"innings": 3}, spectators=0, seed=7)
        await asyncio.sleep(0.5)
    parts = steady_parts([sampler], (started - 0.3, time.time()))
    assert parts is not None
    assert parts["write"]["count"] > 0
    assert parts["command"]["count"] > 0
    assert parts["loop_lag"]["count"] > 0
    assert parts["write"]["p50"] is not None and parts["write"]["p50"] > 0
