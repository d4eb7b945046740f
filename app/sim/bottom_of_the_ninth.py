"""``bob simulate --game bottom-of-the-9th``: many games between random lineups and a seeded
random policy, to check balance (neither side above 60%), that every card's abilities fire,
and the engine's speed.

It steps states in place (:meth:`Engine.step_in_place`) with actions drawn from
``legal_actions``, so it measures the rules, not the public ``apply``'s defensive copy.
"""

from __future__ import annotations

import random
import time
from typing import Any

from app.engines.bottom_of_the_ninth import Engine
from app.engines.dice import SeededDice
from app.engines.interface import PITCH_EVENT

_PITCH_RESULT = {
    "B": "ball",
    "S": "strike",
    "F": "foul",
    "X": "contact",
    "CR:X": "crush",
    "CR:1B": "crush",
    "CR:2B": "crush",
    "CR:HR": "crush",
}


def simulate(games: int, seed: int) -> dict[str, Any]:
    """Plays ``games`` complete games; the same seed gives the same figures (bar the speed)."""
    engine = Engine(SeededDice(seed))
    policy = random.Random(seed ^ 0x9E3779B9)
    options = {"setup": "random", "race": "turns"}
    outcomes = {"home": 0, "away": 0}
    results = dict.fromkeys(("ball", "strike", "foul", "contact", "crush", "walk", "strikeout"), 0)
    crush = {str(face): 0 for face in range(1, 7)}
    races = {"batter": 0, "pitcher": 0}
    abilities = {card: 0 for card in engine.cards.cards}
    relief = 0
    bench = 0
    pitches = 0
    legal = engine.legal_actions
    step = engine.step_in_place
    randrange = policy.randrange
    started = time.perf_counter()
    for _ in range(games):
        state = engine.new_game(options)
        while state.phase != "over":
            actions = legal(state, "home") + legal(state, "away")
            for event in step(state, actions[randrange(len(actions))]):
                kind = event.type
                if kind == PITCH_EVENT:
                    data = event.data
                    pitches += 1
                    results[_PITCH_RESULT[data["result"]]] += 1
                    pa = data["pa_result"]
                    if pa == "BB":
                        results["walk"] += 1
                    elif pa == "K":
                        results["strikeout"] += 1
                    if data["crush_bonus"] is not None:
                        crush[str(data["crush_bonus"])] += 1
                    race = data["race"]
                    if race is not None:
                        races["batter" if race["winner"] == "home" else "pitcher"] += 1
                    for fired in data["abilities"]:
                        abilities[fired["card"]] += 1
                elif kind == "relief":
                    if event.data["direction"] or event.data["location"]:
                        relief += 1
                elif kind == "bench":
                    bench += 1
        outcomes["home" if state.winner == "home" else "away"] += 1
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "pitches": pitches,
        "games_per_sec": round(games / elapsed, 1) if elapsed > 0 else None,
        "outcomes": outcomes,
        "pitch_results": results,
        "crush_bonus": crush,
        "races": races,
        "abilities": abilities,
        "relief": relief,
        "bench": bench,
    }
