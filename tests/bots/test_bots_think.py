"""Bots with a think time play whole games over real sockets; spectators' logs still check out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.bots.client import play_table
from app.bots.run import run_bots
from app.cli import main
from tests.support.live import LiveServer


async def test_thinking_bots_play_a_game_to_the_end(live: LiveServer) -> None:
    report = await play_table(live.url, "dice-duel", {"innings": 3}, spectators=3, seed=7,
                              think=(0.005, 0.015))
    assert report.problems == [] and report.errors == []
    assert report.result is not None
    assert len(report.spectator_events) == 3
    seqs = [seq for seq, _ in report.spectator_events[0]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert all(seen == report.spectator_events[0] for seen in report.spectator_events)
    # Every command has a send time; the latency samples are one per event seq acted on.
    assert report.commands == len(report.command_times) > 0
    assert 0 < len(report.latencies_ms) == len(report.latency_sent_at) <= report.commands
    assert all(ms > 0 for ms in report.latencies_ms)
    # Thinking bots do not act twice on one state: nothing was refused as stale.
    refused = [m for messages in report.player_messages.values() for m in messages
               if m["type"] == "error"]
    assert refused == []


async def test_run_bots_ramps_tables_and_returns_samples(live: LiveServer) -> None:
    result = await run_bots(live.url, "dice-duel", 3, 1, 3, 20, {"innings": 3},
                            think=(0.002, 0.006), ramp_seconds=0.6, include_samples=True)
    assert result["failures"] == [] and result["finished"] == 3
    assert len(result["latency_samples_ms"]) == result["latency_ms"]["samples"] > 0
    assert len(result["latency_sent_at"]) == len(result["latency_samples_ms"])
    assert len(result["command_times"]) == result["commands"]
    starts = [start for start, _ in result["tables"]]
    assert len(starts) == 3
    assert starts[1] - starts[0] >= 0.15 and starts[2] - starts[1] >= 0.15  # 0.2 s apart
    assert all(start < end for start, end in result["tables"])
    assert result["think_ms"] == [2.0, 6.0]

    plain = await run_bots(live.url, "dice-duel", 1, 1, 1, 30, {"innings": 3})
    assert "latency_samples_ms" not in plain and plain["failures"] == []


def test_bob_bots_think_ramp_and_samples_file(
    live: LiveServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    samples = tmp_path / "samples.json"
    code = main(["bots", "--no-tune-gc", "--url", live.url, "--game", "base-on-board",
                 "--games", "2", "--spectators", "1", "--options", '{"innings": 3}',
                 "--think-ms", "1:3", "--ramp", "0.2", "--samples", str(samples), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0, result["failures"]
    assert result["finished"] == 2 and result["think_ms"] == [1.0, 3.0]
    assert "latency_samples_ms" not in result  # the samples go to the file, not stdout
    written = json.loads(samples.read_text())
    assert len(written["latency_samples_ms"]) == result["latency_ms"]["samples"] > 0
    assert len(written["command_times"]) == result["commands"]
    assert len(written["tables"]) == 2


def test_bob_bots_rejects_a_bad_think_time(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bots", "--think-ms", "900:100"])
    assert "MIN <= MAX" in capsys.readouterr().err


async def test_run_bots_stops_every_table_after_the_duration(live: LiveServer) -> None:
    # Thinking bots that cannot finish a game in 1.5 seconds (a dice duel of 3 innings takes
    # tens of moves at 0.2-0.3 s each): every table is stopped where it is, not failed, and
    # what was measured until then is kept. (At 0.5 s a loaded machine sent no command.)
    result = await run_bots(live.url, "dice-duel", 2, 1, 2, 40, {"innings": 3},
                            think=(0.2, 0.3), include_samples=True, duration=1.5)
    assert result["failures"] == [], result["failures"]
    assert result["finished"] == 0 and result["stopped"] == 2 and result["not_started"] == 0
    assert result["commands"] > 0
    assert len(result["latency_samples_ms"]) == len(result["latency_sent_at"]) > 0
    assert len(result["tables"]) == 2
    assert all(end - start < 5 for start, end in result["tables"])
