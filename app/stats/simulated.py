"""Games played by ``bob simulate``'s policies, kept as pitch records (for the analysis pages'
"simulated" columns and for the stats benchmark's data).

The same policies as :mod:`app.sim.base_on_board` (eager random) and
:mod:`app.sim.bottom_of_the_ninth` (uniform random over both sides' legal actions), the same
seeded dice, so the same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.engines.dice import SeededDice
from app.engines.interface import PITCH_EVENT


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    kind: str
    options: dict[str, Any]
    records: list[dict[str, Any]]
    winner: str | None


def base_on_board_games(
    games: int, seed: int, tier: str = "pro", innings: int = 9
) -> Iterator[SimulatedGame]:
    from app.engines.base_on_board import Engine
    from app.sim.base_on_board import eager_choice

    engine = Engine(SeededDice(seed))
    rng = random.Random(seed ^ 0x5EED)
    options = {"tier": tier, "innings": innings, "fast_play": True}
    for _ in range(games):
        state = engine.new_game(options)
        records: list[dict[str, Any]] = []
        while state.result is None:
            side = state.queue[0][0]
            action = eager_choice(rng, engine.legal_actions(state, side))  # type: ignore[arg-type]
            for event in engine.step_in_place(state, action):
                if event.type == PITCH_EVENT:
                    records.append(dict(event.data))
        yield SimulatedGame("base-on-board", options, records, state.result.get("winner"))


def ninth_games(games: int, seed: int) -> Iterator[SimulatedGame]:
    from app.engines.bottom_of_the_ninth import Engine

    engine = Engine(SeededDice(seed))
    policy = random.Random(seed ^ 0x9E3779B9)
    options = {"setup": "random", "race": "turns"}
    for _ in range(games):
        state = engine.new_game(options)
        records: list[dict[str, Any]] = []
        while state.phase != "over":
            actions = engine.legal_actions(state, "home") + engine.legal_actions(state, "away")
            for event in engine.step_in_place(state, actions[policy.randrange(len(actions))]):
                if event.type == PITCH_EVENT:
                    records.append(dict(event.data))
        yield SimulatedGame("bottom-of-the-9th", options, records, state.winner)


def simulated_games(
    kind: str, games: int, seed: int = 1, tier: str = "pro", innings: int = 9
) -> Iterator[SimulatedGame]:
    if kind == "base-on-board":
        return base_on_board_games(games, seed, tier, innings)
    return ninth_games(games, seed)

