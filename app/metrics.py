"""What the server counts, for ``GET /metrics`` (Prometheus text format, ``prometheus-client``).

One :class:`Metrics` per app, each with its own registry: tests run several servers in one
process, and a process-wide registry would mix their numbers.
"""

from __future__ import annotations

from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LabelledMetric = TypeVar("LabelledMetric", Counter, Gauge, Histogram)
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LAG_BUCKETS = (0.0001, 0.00025, *LATENCY_BUCKETS)


class Metrics:
    def __init__(self) -> None:
        self._children: dict[tuple[object, tuple[str, ...]], Counter | Gauge | Histogram] = {}
        self.registry = CollectorRegistry()
        r = self.registry
        self.commands = Counter(
            "bob_commands", "Commands handled, by kind and by result: applied, scheduled, "
            "duplicate, or the refusal's code", ["kind", "result"], registry=r)
        self.command_seconds = Histogram(
            "bob_command_seconds", "Time from a command's arrival to its answer",
            ["kind"], buckets=LATENCY_BUCKETS, registry=r)
        self.command_write_seconds = Histogram(
            "bob_command_write_seconds", "Time a command's write took, from its start to the "
            "database's answer: the statement, its commit, and any wait to go with other "
            "games' writes (app.games.group_write)", buckets=LATENCY_BUCKETS, registry=r)
        self.loop_lag_seconds = Histogram(
            "bob_event_loop_lag_seconds", "How late the event loop woke a task that slept a "
            "set time (app.loop_lag): what every frame and command of the process waited "
            "behind", buckets=LAG_BUCKETS, registry=r)
        self.passes_held = Counter(
            "bob_passes_held", "Passes written before their time and shown at it (app.games."
            "hold), by whose: the server's certain pass written with the command before it, or "
            "a person's early pass", ["who"], registry=r)
        self.write_batch_games = Histogram(
            "bob_write_batch_games", "Games whose commands went to the database in one "
            "statement (app.games.group_write): 1 while it keeps up, more under load",
            buckets=(1, 2, 4, 8, 16, 32, 64), registry=r)
        self.version_conflicts = Counter(
            "bob_version_conflicts", "Writes that lost the version check (another writer or a "
            "stale held game) and were read again", registry=r)
        self.resyncs = Counter(
            "bob_resyncs", "Catch-ups a socket read from the database, by why", ["reason"],
            registry=r)
        self.snapshots = Counter("bob_snapshots_sent", "Snapshots sent to sockets", registry=r)
        self.sockets = Gauge("bob_sockets_open", "Open sockets by kind", ["kind"], registry=r)
        self.publish_failures = Counter(
            "bob_publish_failures", "Messages that could not be published to other processes",
            registry=r)
        self.timer_lateness = Histogram(
            "bob_timer_lateness_seconds", "How late the server acted on a deadline",
            buckets=LATENCY_BUCKETS, registry=r)
        self.lease_moves = Counter(
            "bob_room_lease_moves", "Rooms this process began or stopped owning", ["change"],
            registry=r)
        self.rooms_owned = Gauge("bob_rooms_owned", "Live rooms this process owns", registry=r)

    def labelled(self, metric: LabelledMetric, *values: str) -> LabelledMetric:
        """``metric.labels(*values)``, kept: the library checks the names and takes a lock on
        every ``labels`` call, a few microseconds that every command paid two or three times
        (issue 12). The label values are the server's own (kinds, refusal codes, reasons), so
        this holds no more children than the metric itself does."""
        key = (metric, values)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*values)
        return child  # type: ignore[return-value]

    def text(self) -> bytes:
        return generate_latest(self.registry)
