"""Base on Board games per CPU second, several checkouts interleaved (steadier on a busy machine).

Run: ``taskset -c 0 .venv/bin/python bench/base_on_board_cpu.py 2000 /tmp/old . [more trees]``.
For each seed 1-3, each tree in turn plays the games through ``simulate`` (tally included) in a
fresh interpreter with its own ``PYTHONPATH``; it prints games per second of process CPU time
(what other work on the same core does not take away) and of wall-clock time, per run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_ONE_RUN = (
    "import json, sys, time; from app.sim.base_on_board import simulate; "
    "c = time.process_time(); w = time.perf_counter(); "
    "simulate(games=int(sys.argv[1]), seed=int(sys.argv[2]), tier='pro', innings=9); "
    "print(json.dumps([int(sys.argv[1]) / (time.process_time() - c), "
    "int(sys.argv[1]) / (time.perf_counter() - w)]))"
)


def main() -> None:
    games = int(sys.argv[1])
    trees = [str(Path(t).resolve()) for t in sys.argv[2:]]
    runs: dict[str, list[list[float]]] = {t: [] for t in trees}
    for seed in (1, 2, 3):
        for tree in trees:
            out = subprocess.run(
                [sys.executable, "-c", _ONE_RUN, str(games), str(seed)], cwd=tree,
                env={**os.environ, "PYTHONPATH": tree}, check=True, capture_output=True,
                text=True,
            )
            runs[tree].append(json.loads(out.stdout))
    for tree in trees:
        cpu = [round(r[0], 1) for r in runs[tree]]
        wall = [round(r[1], 1) for r in runs[tree]]
        print(json.dumps({"tree": tree, "cpu_games_per_sec_runs": cpu,
                          "cpu_median": statistics.median(cpu), "wall_runs": wall}))


if __name__ == "__main__":
    main()
