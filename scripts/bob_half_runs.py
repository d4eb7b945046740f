"""Measures the runs a side scores in a fresh half-inning of Base on Board, per tier, with
``normal`` playing both sides, and prints the table ``app.engines.base_on_board.policy``
keeps as ``HALF_RUNS`` (``hard``'s play-out leaf).

    python scripts/bob_half_runs.py --games 400 --seed 1

Only halves that are played to three outs count: the bottom of the last inning (and of any
extra inning) can end early on a walk-off or not be played at all, so it is left out. Nine
innings a game, so each game gives 17 halves.
"""

from __future__ import annotations

import argparse
import random
import sys

from app.engines.base_on_board import Engine
from app.engines.base_on_board.data import TIERS
from app.engines.base_on_board.policy import choose_normal
from app.engines.dice import SeededDice

BUCKETS = 16  # 0..15, the last one "15 or more"


def measure(tier: str, games: int, seed: int) -> tuple[list[int], int]:
    engine = Engine(SeededDice(seed))
    pick = random.Random(seed).randrange
    counts = [0] * BUCKETS
    halves = 0
    for _ in range(games):
        state = engine.new_game({"tier": tier, "innings": 9, "fast_play": True})
        last = state.options.innings
        while state.result is None:
            half = (state.inning, state.half)
            offense = state.offense
            before = state.score[offense]
            while state.result is None and (state.inning, state.half) == half:
                side = state.queue[0][0]
                engine.step_in_place(state, choose_normal(engine, state, side, pick))
            if half[1] == "bottom" and half[0] >= last:
                continue
            if half[0] > last:
                continue
            counts[min(state.score[offense] - before, BUCKETS - 1)] += 1
            halves += 1
    return counts, halves


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tier", choices=TIERS, action="append")
    args = parser.parse_args()
    print(f"# scripts/bob_half_runs.py --games {args.games} --seed {args.seed}")
    print("HALF_RUNS: Final[dict[str, Dist]] = {")
    for tier in args.tier or TIERS:
        counts, halves = measure(tier, args.games, args.seed)
        mean = sum(i * c for i, c in enumerate(counts)) / halves
        print(f"    # {tier}: {halves} halves, mean {mean:.3f} runs", file=sys.stdout)
        probs = [f"{c / halves:.5f}" for c in counts]
        print(f'    "{tier}": (')
        for i in range(0, BUCKETS, 8):
            print("        " + ", ".join(probs[i:i + 8]) + ",")
        print("    ),")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
