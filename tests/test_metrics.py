"""``Metrics.labelled``: the kept child is the library's own, so what it counts is what
``/metrics`` shows. A command's write and the event loop's lateness are measured where they
happen (``app/loop_lag.py``)."""

from __future__ import annotations

import asyncio
import time

import httpx

from app import loop_lag
from app.bots.client import play_table
from app.engine_catalog import EngineCatalog
from app.metrics import Metrics
from tests.support.live import LiveServer


def test_a_kept_child_counts_into_the_metric_it_came_from() -> None:
    metrics = Metrics()
    child = metrics.labelled(metrics.commands, "action", "applied")
    assert metrics.labelled(metrics.commands, "action", "applied") is child
    assert child is metrics.commands.labels("action", "applied")
    child.inc()
    metrics.labelled(metrics.commands, "action", "applied").inc()
    metrics.labelled(metrics.commands, "action", "illegal_action").inc()
    metrics.labelled(metrics.command_seconds, "action").observe(0.002)
    text = metrics.text().decode()
    assert 'bob_commands_total{kind="action",result="applied"} 2.0' in text
    assert 'bob_commands_total{kind="action",result="illegal_action"} 1.0' in text
    assert 'bob_command_seconds_count{kind="action"} 1.0' in text


def test_two_apps_keep_their_own_children() -> None:
    first, second = Metrics(), Metrics()
    first.labelled(first.passes_held, "server").inc()
    assert second.labelled(second.passes_held, "server") is not first.labelled(
        first.passes_held, "server")
    assert 'bob_passes_held_total{who="server"} 0.0' in second.text().decode()


def _sample(text: str, name: str) -> float:
    """The value of the one unlabelled sample ``name`` in Prometheus text."""
    found = [line for line in text.splitlines() if line.startswith(name + " ")]
    assert len(found) == 1, (name, found)
    return float(found[0].split()[-1])


async def test_a_game_counts_its_writes_and_the_loop_is_watched(
    fresh_database_url: str, catalog: EngineCatalog
) -> None:
    # A server of its own: no other test's game can write while this one is counted.
    live = await asyncio.to_thread(LiveServer(fresh_database_url, catalog).start)
    try:
        before = httpx.get(f"{live.url}/metrics").text
        report = await play_table(live.url, "dice-duel", {"innings": 3}, spectators=0, seed=5)
        assert report.result is not None
        after = httpx.get(f"{live.url}/metrics").text
        async with httpx.AsyncClient(base_url=live.url) as http:
            events = (await http.get(f"/api/games/{report.game_id}/events",
                                     params={"limit": 5000})).json()["events"]
    finally:
        live.stop()
    writes = (_sample(after, "bob_command_write_seconds_count")
              - _sample(before, "bob_command_write_seconds_count"))
    # Every event but the game's opening ones was written by a command, and a command that
    # was written wrote at least one event.
    assert 0 < writes <= len(events)
    assert _sample(after, "bob_command_write_seconds_sum") > _sample(
        before, "bob_command_write_seconds_sum")
    assert _sample(after, "bob_event_loop_lag_seconds_count") > 0


async def test_the_watch_sees_a_blocked_loop() -> None:
    lags: list[float] = []
    watching = asyncio.create_task(loop_lag.watch(lags.append, interval=0.01))
    try:
        await asyncio.sleep(0.05)
        time.sleep(0.2)  # a callback that holds the loop
        await asyncio.sleep(0.05)
    finally:
        watching.cancel()
    assert max(lags) >= 0.15
    assert min(lags) < 0.05
