"""A command's steady CPU split into its own part and a part per socket, from compare runs.

Both servers send a frame to every socket of a game for each command (ours: each commit; the
bare server: each message), so the CPU per command grows with the sockets a game has. Given
``bench/compare.py --out`` files from runs at several ``--spectators`` counts, this fits, for
each server, ``steady CPU ms per command = own + per_socket x sockets`` (sockets: the two
players' and the spectators') by least squares, and prints both parts, each run's residual,
and ours over bare for each part. Ours is per applied command (the bots' and the server's own),
as in the comparison's table.

No profiler is involved, so nothing is charged per call (cProfile, yappi) or lost in stacks
that cannot be unwound (py-spy): the split says whether the gap to the bare server is in the
command itself or in its fan-out to sockets (docs/benchmarks.md).

    .venv/bin/python bench/socket_split.py OUT/compare-s0.jsonl OUT/compare-s3.jsonl ...
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIGURE = {"ours": "steady_server_cpu_ms_per_applied", "bare": "steady_server_cpu_ms_per_command"}


@dataclass(frozen=True)
class Fit:
    own: float
    """ms of CPU per command that no socket adds."""
    per_socket: float
    """ms of CPU per command for each socket of its game."""
    points: tuple[tuple[int, float], ...]
    """(sockets a game, steady ms per command) of each run."""

    def residuals(self) -> list[float]:
        return [y - (self.own + self.per_socket * x) for x, y in self.points]


def fit(points: list[tuple[int, float]]) -> Fit:
    """Least squares of ``y = own + per_socket x`` through at least two socket counts."""
    if len({x for x, _ in points}) < 2:
        raise ValueError("the split needs runs at two socket counts at least")
    line = statistics.linear_regression([x for x, _ in points], [y for _, y in points])
    return Fit(line.intercept, line.slope, tuple(points))


def split(runs: list[dict[str, Any]]) -> dict[str, Fit]:
    """Each server's fit over ``runs`` (lines of ``bench/compare.py --out``); a run without a
    steady figure (its load failed: see its ``failures``) is left out."""
    points: dict[str, list[tuple[int, float]]] = {}
    for run in runs:
        server = run.get("server")
        figure = run.get(FIGURE.get(server or "", ""))
        if figure is None:
            continue
        sockets = 2 + int(run["spectators_per_game"])
        points.setdefault(str(server), []).append((sockets, float(figure)))
    return {server: fit(sorted(found)) for server, found in points.items()}


def main() -> None:
    runs = [json.loads(line) for path in sys.argv[1:]
            for line in Path(path).read_text().splitlines() if line.strip()]
    fits = split(runs)
    for server, found in sorted(fits.items()):
        residuals = ", ".join(f"{x} sockets {r:+.3f}"
                              for (x, _), r in zip(found.points, found.residuals(), strict=True))
        print(f"{server}: own {found.own:.3f} ms + {found.per_socket:.3f} ms a socket "
              f"(residuals: {residuals})")
    if {"ours", "bare"} <= set(fits):
        ours, bare = fits["ours"], fits["bare"]
        print(f"ours / bare: own {ours.own / bare.own:.1f}x, "
              f"a socket {ours.per_socket / bare.per_socket:.1f}x")


if __name__ == "__main__":
    main()
