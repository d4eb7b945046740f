"""``Metrics.labelled``: the kept child is the library's own, so what it counts is what
``/metrics`` shows."""

from __future__ import annotations

from app.metrics import Metrics


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
