"""The states of a game of random legal moves, for tests that check a property of every state."""

from __future__ import annotations

import random
from typing import Any

from app.engines.dice import HmacDice
from app.engines.interface import SIDES
from app.engines.registry import make_engine

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("base-on-board", {"innings": 3}),
    ("base-on-board", {"innings": 3, "tier": "lite"}),
    ("bottom-of-the-9th", {}),
    ("bottom-of-the-9th", {"mode": "solo", "challenge": "M03"}),
]
"""Kinds and options whose random games between them reach every kind of state: both games,
both Base on Board tiers, Bottom of the 9th versus and solo."""


def states(kind: str, options: dict[str, Any], seed: int, limit: int = 400) -> list[Any]:
    """The states of one game of random legal moves, its end included."""
    engine = make_engine(kind, HmacDice(seed.to_bytes(8, "big"), "random-play"))
    state, _events = engine.start(options)
    pick = random.Random(seed)
    seen = [state]
    for _ in range(limit):
        legal = [a for side in SIDES for a in engine.legal_actions(state, side)]
        if not legal or engine.outcome(state) is not None:
            break
        state, _events = engine.apply(state, pick.choice(legal))
        seen.append(state)
    return seen
