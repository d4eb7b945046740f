"""``bob simulate --game base-on-board``: many complete games with an eager random policy.

The policy takes a card play, a challenge or an infield-fly declaration whenever one is legal
(choosing at random among them), and otherwise the single remaining action (roll or pass). So
over enough games every card and every challengeable call shows up. The random generators are
seeded, so the same seed prints the same JSON except for the timing figure.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from app.engines.base_on_board import Engine, State
from app.engines.base_on_board.data import (
    ALL_CHALLENGEABLE,
    BAT_DIE,
    DEFENSE_CODES,
    HIT_DIE,
    OFFENSE_CODES,
    PITCH_DIE,
)
from app.engines.dice import SeededDice
from app.engines.interface import PITCH_EVENT, Action


def eager_choice(rng: random.Random, actions: list[Action]) -> Action:
    """A card, challenge or declaration when there is one, else roll or pass."""
    eager = [a for a in actions if a["type"] in ("play", "challenge", "ifl", "choose")]
    return rng.choice(eager) if eager else actions[0]


def play_game(engine: Engine, state: State, rng: random.Random, tally: Tally) -> State:
    while state.result is None:
        side = state.queue[0][0]
        action = eager_choice(rng, engine.legal_actions(state, side))  # type: ignore[arg-type]
        for event in engine.step_in_place(state, action):
            if event.type == PITCH_EVENT:
                tally.pitch(event.data)
    return state


class Tally:
    """What the simulator prints, gathered from the pitch records alone (as stats will be)."""

    def __init__(self) -> None:
        self.pitches = 0
        self.dice: dict[str, Counter[str]] = {"pitch": Counter(), "bat": Counter(),
                                              "hit": Counter()}
        self.cards: Counter[str] = Counter()
        self.challenges: dict[str, Counter[str]] = {}

    def pitch(self, record: dict[str, Any]) -> None:
        self.pitches += 1
        for roll in record["dice"]:
            self.dice[roll["die"]][roll["face"]] += 1
        for card in record["cards"]:
            self.cards[card["code"]] += 1
        for challenge in record["challenges"]:
            self.challenges.setdefault(challenge["call"], Counter())[challenge["result"]] += 1


def simulate(games: int, seed: int, tier: str = "pro", innings: int = 9) -> dict[str, Any]:
    engine = Engine(SeededDice(seed))
    rng = random.Random(seed ^ 0x5EED)
    tally = Tally()
    outcomes = {"home": 0, "away": 0, "tie": 0}
    runs = 0
    options = {"tier": tier, "innings": innings, "fast_play": True}
    started = time.perf_counter()
    for _ in range(games):
        state = play_game(engine, engine.new_game(options), rng, tally)
        assert state.result is not None
        outcomes[state.result["winner"] or "tie"] += 1
        runs += state.score["home"] + state.score["away"]
    elapsed = time.perf_counter() - started
    codes = [c for c in OFFENSE_CODES + DEFENSE_CODES]
    return {
        "games": games,
        "pitches": tally.pitches,
        "games_per_sec": round(games / elapsed, 1) if elapsed > 0 else None,
        "runs_per_game": round(runs / games, 3) if games else 0.0,
        "outcomes": outcomes,
        "dice": {
            "pitch": {face: tally.dice["pitch"][face] for face in dict.fromkeys(PITCH_DIE)},
            "bat": {face: tally.dice["bat"][face] for face in dict.fromkeys(BAT_DIE)},
            "hit": {face: tally.dice["hit"][face] for face in dict.fromkeys(HIT_DIE)},
        },
        "cards_played": {code: tally.cards[code] for code in [*codes, "IFL"]},
        "challenges": {
            call: {
                "confirm": tally.challenges.get(call, Counter())["confirm"],
                "reverse": tally.challenges.get(call, Counter())["reverse"],
            }
            for call in ALL_CHALLENGEABLE
        },
    }
