"""Simulated Base on Board games for the invariant tests (records as the engine writes them)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.engines.base_on_board import Engine
from app.engines.dice import SeededDice
from app.engines.interface import PITCH_EVENT
from app.sim.base_on_board import eager_choice


@dataclass(frozen=True)
class SimGame:
    records: list[dict[str, Any]]
    score: dict[str, int]
    line: dict[str, list[int]]
    winner: str | None
    reason: str
    bats_first: str


def play(seed: int, tier: str = "pro", innings: int = 9, bats_first: str = "away") -> SimGame:
    engine = Engine(SeededDice(seed))
    rng = random.Random(seed)
    options = {"tier": tier, "innings": innings, "fast_play": True, "bats_first": bats_first}
    state = engine.new_game(options)
    records: list[dict[str, Any]] = []
    while state.result is None:
        side = state.queue[0][0]
        actions = engine.legal_actions(state, side)  # type: ignore[arg-type]
        action = eager_choice(rng, actions) if rng.random() < 0.5 else actions[-1]
        if action["type"] == "pass" and rng.random() < 0.3:
            action = rng.choice(actions)
        for event in engine.step_in_place(state, action):
            if event.type == PITCH_EVENT:
                records.append(dict(event.data))
    return SimGame(
        records,
        dict(state.score),
        {k: list(v) for k, v in state.line.items()},
        state.result["winner"],
        str(state.result["reason"]),
        bats_first,
    )


@cache
def games(n: int = 60, seed: int = 7) -> tuple[SimGame, ...]:
    out = []
    for i in range(n):
        tier = ("lite", "lite-extended", "pro")[i % 3]
        first = "home" if i % 5 == 4 else "away"
        out.append(play(seed * 1000 + i, tier=tier, innings=(3, 5, 9)[i % 3], bats_first=first))
    return tuple(out)
