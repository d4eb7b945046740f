"""How much room above ``normal`` a Base on Board position leaves, measured decision by decision.

A match of a thousand games tells one win rate with a couple of points of dice noise. This
measures the same thing where it is made: at each decision. ``normal`` plays both sides of
whole games; at each decision with more than one legal action, every action's value is
estimated in the position **as it truly is** (the other hand and every deck order as they
are; only the dice fresh: the ``oracle`` deal), by ``--rows`` play-outs of each action with the
same dice (``normal`` to the end of the half, then the tier's leaf, exactly as ``hard`` values
an action). Against ``normal``'s own choice that gives:

* each player's **advantage**: the value of the action ``hard``, ``seer`` and ``oracle``
  (``--budget`` play-outs each, dealt as in ``bob simulate``) would take there, minus that of
  ``normal``'s; 0 where they agree;
* the **room**: the advantage of the best action, chosen on half the rows and valued on the
  other half (then the other way round, and the two averaged), so that the noise of the
  choice does not count as room.

A policy's win rate against ``normal`` over seat-balanced games is 50% plus the sum of its
advantages over its own decisions in a game (the performance-difference identity; here summed
over ``normal``'s games, whose positions are those the player meets to first order).
``per_game`` is that sum (both sides' decisions, halved), with an interval over games. The
values are unbiased for the leaf's model; their error includes the play-out noise.

``hard``'s own estimate of each action's gain is kept too (``estimates``), so that other
confidence rules than its two standard errors can be valued offline (``rules``: the points a
game each rule would take, by the true gains of what it chooses).

    .venv/bin/python bench/bob_room.py --tier lite --games 20 --seed 1 --out room.jsonl
    .venv/bin/python bench/bob_room.py --summarise room.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from app.engines.base_on_board.engine import Engine
from app.engines.base_on_board.policy import (
    _MIN_GAIN,
    _normal_choice,
    _override,
    hard_samples,
)
from app.engines.base_on_board.reading import HandReading
from app.engines.base_on_board.state import State
from app.engines.dice import SeededDice
from app.engines.interface import Action, Side
from app.sim.base_on_board import _see_all, _see_hand

PLAYERS = ("hard", "seer", "oracle")
Deal = Callable[[State, Side, random.Random], State]


def _search_choice(
    engine: Engine, state: State, side: Side, actions: list[Action], preferred: int,
    budget: int, deal: Deal, rng: random.Random,
) -> tuple[int, list[list[float]]]:
    """The index ``hard``'s search takes with ``deal`` (its rows and its confidence rule),
    and its estimate of each action's gain over ``normal``'s: [mean, standard error]."""
    rows = hard_samples(engine, state, side, actions, rng.randrange, budget, deal=deal)
    return _override(rows, preferred), [_gain(rows, j, preferred) for j in range(len(actions))]


def _gain(rows: list[list[float]], j: int, preferred: int) -> list[float]:
    diffs = [row[j] - row[preferred] for row in rows]
    mean = _mean(diffs)
    n = len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return [mean, math.sqrt(var / n)]


RULES: tuple[float | None, ...] = (None, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
"""Confidence rules tried on ``hard``'s own estimates: leave ``normal``'s choice for the best
estimated gain that is this many standard errors above zero (and at least ``_MIN_GAIN``);
``None``: the best estimated gain, however small."""


def rule_choice(estimates: list[list[float]], preferred: int, confidence: float | None) -> int:
    """The action a confidence rule takes from per-action [gain, standard error] estimates."""
    best, best_gain = preferred, 0.0
    for j, (mean, se) in enumerate(estimates):
        if j == preferred:
            continue
        if confidence is not None and (mean < _MIN_GAIN or mean <= confidence * se):
            continue
        if mean > best_gain:
            best, best_gain = j, mean
    return best


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def measure(
    engine: Engine, state: State, side: Side, actions: list[Action], reading: HandReading,
    budget: int, rows: int, rng: random.Random,
) -> dict[str, Any]:
    """One decision: each player's choice and advantage over ``normal``, and the room."""
    preferred = actions.index(_normal_choice(engine, state, side, actions))
    searched = {
        "hard": _search_choice(engine, state, side, actions, preferred, budget, reading.deal,
                               rng),
        "seer": _search_choice(engine, state, side, actions, preferred, budget, _see_hand, rng),
        "oracle": _search_choice(engine, state, side, actions, preferred, budget, _see_all, rng),
    }
    chosen = {name: index for name, (index, _) in searched.items()}
    table = hard_samples(engine, state, side, actions, rng.randrange,
                         budget=rows * len(actions), deal=_see_all)
    diffs = [[row[j] - row[preferred] for row in table] for j in range(len(actions))]
    gains = [_mean(d) for d in diffs]
    half = len(table) // 2

    def split_best(pick_from: slice, value_on: slice) -> float:
        best = max(range(len(actions)), key=lambda j: _mean(diffs[j][pick_from]))
        return _mean(diffs[best][value_on])

    room = (split_best(slice(0, half), slice(half, None))
            + split_best(slice(half, None), slice(0, half))) / 2 if half else 0.0
    return {
        "side": side, "inning": state.inning, "half": state.half, "window": state.queue[0][1],
        "actions": len(actions), "rows": len(table), "normal": preferred,
        "chosen": chosen, "kinds": [action["type"] for action in actions],
        "advantage": {name: gains[j] for name, j in chosen.items()},
        "room": room,
        "naive_room": max(gains),
        "true_gain": gains,
        "estimates": {name: estimates for name, (_, estimates) in searched.items()},
    }


def run(
    tier: str, games: int, seed: int, budget: int, rows: int, innings: int = 3,
    out: Any = None,
) -> list[dict[str, Any]]:
    """``games`` games of ``normal`` against itself; every decision with a choice measured."""
    engine = Engine(SeededDice(seed))
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    for game in range(games):
        state = engine.new_game({"tier": tier, "innings": innings, "fast_play": True})
        readings = {side: HandReading(side) for side in ("home", "away")}
        while state.result is None:
            side: Side = state.queue[0][0]  # type: ignore[assignment]
            actions = engine.legal_actions(state, side)
            if len(actions) > 1:
                record = measure(engine, state, side, actions, readings[side], budget, rows,
                                 rng)
                record.update(game=game, seed=seed, tier=tier, budget=budget)
                records.append(record)
                if out is not None:
                    out.write(json.dumps(record) + "\n")
                    out.flush()
            action = _normal_choice(engine, state, side, actions)
            for reading in readings.values():
                reading.observe(engine, state, side, action)
            engine.step_in_place(state, action)
    return records


def summarise(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Each player's advantage per decision, and per game of one side with a 95% interval
    and a z-score. The interval's standard error is taken over games (each game's sum), not
    over decisions, since the decisions of one game are not independent of each other."""
    records = list(records)
    games = sorted({(r["seed"], r["game"]) for r in records})
    per_side_game = len(records) / (2 * len(games)) if games else 0.0

    def stat(
        rows: list[dict[str, Any]], value: Callable[[dict[str, Any]], float], sides: int = 2,
    ) -> dict[str, Any]:
        sums = dict.fromkeys(games, 0.0)
        for r in rows:
            sums[(r["seed"], r["game"])] += value(r) / sides
        per_game = list(sums.values())
        n = len(per_game)
        mean = _mean(per_game)
        var = sum((v - mean) ** 2 for v in per_game) / (n - 1) if n > 1 else 0.0
        se = math.sqrt(var / n)
        return {
            "per_decision": round(_mean([value(r) for r in rows]), 6),
            "per_game": round(mean, 4), "se": round(se, 5),
            "per_game_ci95": [round(mean - 1.96 * se, 4), round(mean + 1.96 * se, 4)],
            "z": round(mean / se, 2) if se else None,
        }

    summary: dict[str, Any] = {
        "decisions": len(records), "games": len(games),
        "decisions_per_side_game": round(per_side_game, 2),
        "tiers": sorted({r["tier"] for r in records}),
        "budgets": sorted({r["budget"] for r in records}),
    }
    for name in PLAYERS:
        summary[name] = stat(records, lambda r, name=name: r["advantage"][name]) | {
            "differs_from_normal": round(
                sum(r["chosen"][name] != r["normal"] for r in records) / len(records), 4),
        }
    with_estimates = [r for r in records if "estimates" in r]
    if with_estimates:
        summary["rules"] = {
            name: {
                "none" if c is None else f"{c:g} se": stat(
                    with_estimates,
                    lambda r, name=name, c=c: r["true_gain"][
                        rule_choice(r["estimates"][name], r["normal"], c)],
                )["per_game"]
                for c in RULES
            }
            for name in PLAYERS
        }
    summary["room"] = stat(records, lambda r: r["room"])
    summary["naive_room"] = stat(records, lambda r: r["naive_room"])
    summary["by_side"] = {}
    for side in ("home", "away"):
        mine = [r for r in records if r["side"] == side]
        if mine:
            summary["by_side"][side] = {
                name: stat(mine, lambda r, name=name: r["advantage"][name], sides=1)
                for name in PLAYERS
            } | {"room": stat(mine, lambda r: r["room"], sides=1)}
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="lite")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--innings", type=int, default=3)
    parser.add_argument("--budget", type=int, default=100,
                        help="play-outs a decision for hard, seer and oracle")
    parser.add_argument("--rows", type=int, default=1000,
                        help="play-outs of each action in the true position")
    parser.add_argument("--out", type=Path, help="one JSON line per decision, appended")
    parser.add_argument("--summarise", type=Path, nargs="+", metavar="JSONL",
                        help="summarise these files instead of playing")
    args = parser.parse_args(argv)
    if args.summarise:
        records = [json.loads(line) for path in args.summarise
                   for line in path.read_text().splitlines() if line.strip()]
        print(json.dumps(summarise(records), indent=1))
        return
    started = time.perf_counter()
    with args.out.open("a") if args.out else contextlib.nullcontext() as out:
        records = run(args.tier, args.games, args.seed, args.budget, args.rows,
                      args.innings, out)
    summary = summarise(records) | {"seconds": round(time.perf_counter() - started, 1)}
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
