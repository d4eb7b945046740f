"""Where a command's latency goes, read off the server's own ``/metrics`` over a run's steady
part: the whole command (``bob_command_seconds``, a player's action from its arrival to its
answer), its database write (``bob_command_write_seconds``) and the event loop's lateness
(``bob_event_loop_lag_seconds``, ``app/loop_lag.py``).

The bots' latency is a command's send to the last spectator's receipt; these say which part
of it was the database and which the process being behind. ``MetricsSampler`` scrapes one
process every few seconds in a thread; ``steady_parts`` takes the bucket counts' change
between the scrapes nearest inside a window, sums it over the processes, and estimates each
quantile within its bucket as Prometheus's ``histogram_quantile`` does.
"""

from __future__ import annotations

import math
import time
import urllib.request
from collections.abc import Sequence

from bench.serving import PeriodicSampler

HISTOGRAMS = {
    "command": 'bob_command_seconds_bucket{kind="action",',
    "write": "bob_command_write_seconds_bucket{",
    "loop_lag": "bob_event_loop_lag_seconds_bucket{",
}
"""Each part's bucket lines in the Prometheus text, by the prefix they start with."""
QUANTILES = {"p50": 0.50, "p90": 0.90, "p99": 0.99}

Buckets = dict[float, float]
"""A histogram's cumulative counts by upper bound (``math.inf`` for ``+Inf``)."""


def parse(text: str) -> dict[str, Buckets]:
    """Each part's buckets in one scrape."""
    found: dict[str, Buckets] = {name: {} for name in HISTOGRAMS}
    for line in text.splitlines():
        for name, prefix in HISTOGRAMS.items():
            if line.startswith(prefix):
                bound = line.split('le="', 1)[1].split('"', 1)[0]
                found[name][math.inf if bound == "+Inf" else float(bound)] = float(
                    line.rsplit(" ", 1)[1])
    return found


def quantile(q: float, buckets: Buckets) -> float | None:
    """The ``q`` quantile, linear within its bucket (None with no observations; the largest
    finite bound when it falls in ``+Inf``)."""
    total = buckets.get(math.inf, 0.0)
    if total <= 0:
        return None
    rank = q * total
    lower, below = 0.0, 0.0
    for bound in sorted(b for b in buckets if b != math.inf):
        count = buckets[bound]
        if count >= rank:  # and below < rank, so the bucket holds some
            return lower + (bound - lower) * (rank - below) / (count - below)
        lower, below = bound, count
    return lower  # in +Inf


class MetricsSampler(PeriodicSampler):
    """Scrapes ``base``'s ``/metrics`` every ``interval`` seconds in a thread: (wall-clock
    time, each part's buckets). A scrape that fails is skipped."""

    def __init__(self, base: str, interval: float = 5.0) -> None:
        super().__init__(interval)
        self.base = base
        self.samples: list[tuple[float, dict[str, Buckets]]] = []

    def sample(self) -> None:
        try:
            with urllib.request.urlopen(f"{self.base}/metrics", timeout=5) as response:
                text = response.read().decode()
        except OSError:
            return
        self.samples.append((time.time(), parse(text)))

    def change_between(self, start: float, end: float) -> dict[str, Buckets] | None:
        """Each part's counts added between the first and the last scrape inside the window."""
        inside = [parts for t, parts in self.samples if start <= t <= end]
        if len(inside) < 2:
            return None
        first, last = inside[0], inside[-1]
        return {name: {bound: count - first[name].get(bound, 0.0)
                       for bound, count in last[name].items()} for name in HISTOGRAMS}


def steady_parts(
    samplers: Sequence[MetricsSampler], window: tuple[float, float] | None
) -> dict[str, dict[str, float | None]] | None:
    """Each part's p50 / p90 / p99 in milliseconds and its count over ``window``, summed over
    the processes; None when a process has too few scrapes inside it."""
    if window is None:
        return None
    changes = [s.change_between(*window) for s in samplers]
    if not changes or any(c is None for c in changes):
        return None
    result: dict[str, dict[str, float | None]] = {}
    for name in HISTOGRAMS:
        summed: Buckets = {}
        for change in changes:
            assert change is not None
            for bound, count in change[name].items():
                summed[bound] = summed.get(bound, 0.0) + count
        part: dict[str, float | None] = {}
        for label, q in QUANTILES.items():
            value = quantile(q, summed)
            part[label] = None if value is None else round(value * 1000, 2)
        part["count"] = summed.get(math.inf, 0.0)
        result[name] = part
    return result
