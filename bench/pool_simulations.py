"""Pool the JSON chunks of `bob simulate` runs into one result.

Long strength runs are played as many short chunks (one seed each) so that a chunk that is
lost, or still running at a plan's cutoff, costs only itself. The reported figure is the pool,
so it must be recomputable from the committed chunks with the simulator's own statistics
(`app.sim.base_on_board.wilson` and `binomial_p`), not from a throwaway script.

    PYTHONPATH=$PWD .venv/bin/python bench/pool_simulations.py \
        docs/benchmarks/issue14-lite-budget400-2026-12-06/part-*.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app.sim.base_on_board import binomial_p, wilson

# A pool mixes chunks only when these agree: otherwise it would average different experiments.
SAME_EXPERIMENT = ("tier", "innings", "budget", "think_ms")


def _rate(wins: int, losses: int) -> dict[str, Any]:
    n = wins + losses
    low, high = wilson(wins, n)
    return {"wins": wins, "losses": losses, "win_rate": round(wins / n, 4) if n else None,
            "ci95": [round(low, 4), round(high, 4)], "p_value": float(f"{binomial_p(wins, n):.3g}")}


def pool(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    first = chunks[0]
    for chunk in chunks:
        for key in SAME_EXPERIMENT:
            if chunk[key] != first[key]:
                raise SystemExit(f"seed {chunk['seed']}: {key} {chunk[key]!r} != {first[key]!r}")
        for side in ("first", "second"):
            if chunk[side]["policy"] != first[side]["policy"]:
                raise SystemExit(f"seed {chunk['seed']}: {side} policy differs")
    seeds = [chunk["seed"] for chunk in chunks]
    if len(set(seeds)) != len(seeds):
        raise SystemExit("a seed appears twice")

    def total(read: Any) -> int:
        return sum(read(chunk) for chunk in chunks)

    decisions = total(lambda c: c["hard_decisions"]["count"])
    return {
        "chunks": len(chunks), "seeds": sorted(seeds),
        **{key: first[key] for key in SAME_EXPERIMENT},
        "first_policy": first["first"]["policy"], "second_policy": first["second"]["policy"],
        "games": total(lambda c: c["games"]), "ties": total(lambda c: c["ties"]),
        "first": _rate(total(lambda c: c["first"]["wins"]), total(lambda c: c["second"]["wins"])),
        "first_home": _rate(total(lambda c: c["by_seat"]["first_home"]["first_wins"]),
                            total(lambda c: c["by_seat"]["first_home"]["second_wins"])),
        "first_away": _rate(total(lambda c: c["by_seat"]["first_away"]["first_wins"]),
                            total(lambda c: c["by_seat"]["first_away"]["second_wins"])),
        "hard_ms_per_decision": round(total(
            lambda c: c["hard_decisions"]["count"] * (c["hard_decisions"]["mean_ms"] or 0)
        ) / decisions, 1) if decisions else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chunks", nargs="+", type=Path, help="`bob simulate --json` outputs")
    args = parser.parse_args()
    print(json.dumps(pool([json.loads(path.read_text()) for path in args.chunks]), indent=2))


if __name__ == "__main__":
    main()
