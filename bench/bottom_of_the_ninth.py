"""Complete Bottom of the 9th games per second on one core, through the simulator.

Usage: ``.venv/bin/python bench/bottom_of_the_ninth.py [--games N] [--seed S] [--repeat R]``.
Prints one JSON line with the best and median rate over the repeats; the target is 1,000
games per second. The simulator itself is what is timed (random lineups, turn-based races,
a seeded random policy), so the figure is the one ``bob simulate`` reports.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.sim.bottom_of_the_ninth import simulate

TARGET = 1000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rates: list[float] = []
    pitches = 0
    for i in range(args.repeat):
        started = time.perf_counter()
        result = simulate(games=args.games, seed=args.seed + i)
        elapsed = time.perf_counter() - started
        rates.append(args.games / elapsed)
        pitches += int(result["pitches"])
    best = max(rates)
    print(
        json.dumps(
            {
                "benchmark": "bottom-of-the-9th simulate",
                "games": args.games,
                "repeat": args.repeat,
                "games_per_sec_best": round(best, 1),
                "games_per_sec_median": round(statistics.median(rates), 1),
                "pitches_per_game": round(pitches / (args.games * args.repeat), 2),
                "target": TARGET,
                "meets_target": best >= TARGET,
                "python": platform.python_version(),
                "machine": platform.machine(),
            }
        )
    )
    return 0 if best >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
