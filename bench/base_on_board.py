"""Benchmark: complete 9-inning Pro games of Base on Board per second on one core.

Run: ``taskset -c 0 .venv/bin/python bench/base_on_board.py [--games 2000] [--repeats 3]``.
Each run is ``bob simulate``'s own code path (``app.sim.base_on_board.simulate``): the eager
random policy choosing among ``legal_actions``, ``step_in_place``, and the tally of every pitch
record. Targets: issue 2, at least 200 games per second; issue 14, at least 1,000 (goal 2,000).

``--baseline DIR`` also measures another checkout of the project (for instance the commit before
a change, made with ``git worktree add /tmp/old <commit>``): each repeat runs the baseline and
then this tree, each in a fresh process with its own ``PYTHONPATH``, so both see the same load on
a shared machine; it prints both medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from app.sim.base_on_board import simulate

ROOT = Path(__file__).resolve().parent.parent
_ONE_RUN = (
    "import json, sys; from app.sim.base_on_board import simulate; "
    "print(json.dumps(simulate(games=int(sys.argv[1]), seed=int(sys.argv[2]), tier='pro', "
    "innings=9)['games_per_sec']))"
)


def run_in(tree: Path, games: int, seed: int) -> float:
    """One simulate run of ``tree``'s code in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _ONE_RUN, str(games), str(seed)],
        cwd=tree, env=env, check=True, capture_output=True, text=True,
    )
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout to measure, interleaved with this one")
    args = parser.parse_args()
    report: dict[str, object] = {
        "benchmark": "base-on-board simulate, pro, 9 innings",
        "games_per_run": args.games,
    }
    if args.baseline is None:
        rates = [
            simulate(games=args.games, seed=seed, tier="pro", innings=9)["games_per_sec"]
            for seed in range(1, args.repeats + 1)
        ]
        report["games_per_sec_runs"] = rates
        report["games_per_sec_median"] = statistics.median(rates)
    else:
        before: list[float] = []
        after: list[float] = []
        for seed in range(1, args.repeats + 1):
            before.append(run_in(args.baseline.resolve(), args.games, seed))
            after.append(run_in(ROOT, args.games, seed))
        report["baseline"] = str(args.baseline)
        report["baseline_games_per_sec_runs"] = before
        report["games_per_sec_runs"] = after
        report["baseline_games_per_sec_median"] = round(statistics.median(before), 1)
        report["games_per_sec_median"] = round(statistics.median(after), 1)
        report["ratio_of_medians"] = round(statistics.median(after) / statistics.median(before), 2)
    report["python"] = platform.python_version()
    report["machine"] = platform.machine()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
