"""Benchmark: complete 9-inning Pro games of Base on Board per second on one core.

Run: ``taskset -c 0 .venv/bin/python bench/base_on_board.py [--games 2000]``.
Target (issue 2): at least 200 games per second through ``bob simulate``'s own code path.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics

from app.sim.base_on_board import simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rates = [
        simulate(games=args.games, seed=seed, tier="pro", innings=9)["games_per_sec"]
        for seed in range(1, args.repeats + 1)
    ]
    print(json.dumps({
        "benchmark": "base-on-board simulate, pro, 9 innings",
        "games_per_run": args.games,
        "games_per_sec_runs": rates,
        "games_per_sec_median": statistics.median(rates),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }))


if __name__ == "__main__":
    main()
