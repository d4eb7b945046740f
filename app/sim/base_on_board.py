"""``bob simulate --game base-on-board``: many complete games with an eager random policy.

The policy takes a card play, a challenge or an infield-fly declaration whenever one is legal
(choosing at random among them), and otherwise the single remaining action (roll or pass). So
over enough games every card and every challengeable call shows up. The random generators are
seeded, so the same seed prints the same JSON except for the timing figure.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from typing import Any

from app.engines.base_on_board import Engine, State, fast
from app.engines.base_on_board.data import (
    ALL_CHALLENGEABLE,
    BAT_DIE,
    DEFENSE_CODES,
    HIT_DIE,
    OFFENSE_CODES,
    PITCH_DIE,
)
from app.engines.base_on_board.windows import Choice
from app.engines.dice import SeededDice
from app.engines.interface import PITCH_EVENT, Action, Side

EAGER: frozenset[str] = frozenset({"play", "challenge", "ifl", "choose"})


def eager_choice(rng: random.Random, actions: list[Action]) -> Action:
    """A card, challenge or declaration when there is one, else roll or pass."""
    if len(actions) == 1 and actions[0]["type"] not in EAGER:
        return actions[0]  # the commonest case (a lone roll), without building ``eager``
    eager = [a for a in actions if a["type"] in EAGER]
    return rng.choice(eager) if eager else actions[0]


def play_game(engine: Engine, state: State, rng: random.Random, tally: Tally) -> State:
    """One game in place by the eager policy, with no events built (``fast.play``)."""

    choice = rng.choice
    bits = rng.getrandbits

    def choose(engine: Engine, state: State, side: Side, actions: list[Action]) -> Action:
        eager = []  # ``eager_choice``, inline
        for action in actions:
            if action["type"] in EAGER:
                eager.append(action)
        return choice(eager) if eager else actions[0]

    def pick(plays: list[tuple[str, Choice]]) -> tuple[str, Choice]:
        # ``rng.choice(plays)`` without its two calls: the same bits drawn the same way
        # (``Random._randbelow``), once per card decision of every game.
        n = len(plays)
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return plays[r]

    return fast.play(engine, state, choose, tally, pick=pick)


def play_game_with_events(
    engine: Engine, state: State, rng: random.Random, tally: Tally
) -> State:
    """The same game through the public stepping path: ``legal_actions`` at every decision,
    ``step_in_place`` and its events, the tally of each pitch record. ``play_game`` must end
    in the same state with the same tally (a test compares them); kept as that yardstick."""
    legal_actions = engine.legal_actions
    step = engine.step_in_place
    count = tally.pitch
    while state.result is None:
        actions = legal_actions(state, state.queue[0][0])  # type: ignore[arg-type]
        if len(actions) == 1 and actions[0]["type"] not in EAGER:
            action = actions[0]  # what ``eager_choice`` picks, without the call
        else:
            action = eager_choice(rng, actions)
        for event in step(state, action):
            if event.type == PITCH_EVENT:
                count(event.data)
    return state


Tally = fast.Counts
"""What the simulator prints: ``play_game`` gathers it as it plays, ``Tally.pitch`` from one
pitch record (as stats do)."""


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


# ----------------------------------------------------------------------------- policy matches


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def binomial_p(wins: int, n: int) -> float:
    """Exact two-sided binomial p-value of ``wins`` in ``n`` against 1/2 (the sum of the
    probabilities of every result no more likely than the one seen)."""
    if n == 0:
        return 1.0
    logs = [
        math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
        for k in range(n + 1)
    ]
    seen = logs[wins]
    return min(1.0, sum(math.exp(x) for x in logs if x <= seen + 1e-9))


def _eager_player(engine: Engine, state: State, side: Side, pick: Any) -> Action:
    """Reference player: the simulator's eager policy (any card, challenge or declaration
    whenever one is legal, chosen at random), with the match's ``pick``."""
    actions = engine.legal_actions(state, side)
    eager = [a for a in actions if a["type"] in ("play", "challenge", "ifl", "choose")]
    return eager[pick(len(eager))] if eager else actions[0]


def _passive_player(engine: Engine, state: State, side: Side, pick: Any) -> Action:
    """Reference player: never plays a card, challenges or declares (rolls and passes; a
    runner choice takes the first runner)."""
    actions = engine.legal_actions(state, side)
    plain = [a for a in actions if a["type"] in ("pass", "roll")]
    return plain[0] if plain else actions[0]


def _see_hand(state: State, side: Side, rng: random.Random) -> State:
    """The play-out world of ``seer``: the other hand as it truly is; the deck orders (and so
    the cards to be drawn and every challenge card) dealt at random, the dice fresh."""
    from app.engines.base_on_board.policy import determinise

    return determinise(state, side, rng, their_hand=True)


def _see_all(state: State, side: Side, rng: random.Random) -> State:
    """The play-out world of ``oracle``: the position as it truly is, the other hand and
    every deck order included (the cards to be drawn, every challenge card); only the dice
    are fresh."""
    return state.clone()


REFERENCE_PLAYERS: dict[str, Any] = {"eager": _eager_player, "passive": _passive_player}
"""Not computer levels: yardsticks for how much the cards and the judgement are worth. The
other three are ``hard`` changed in how it deals (see ``match``): ``uniform`` reads nothing
from the game so far (``hard`` before it read the other hand, and ``hard`` where no game is
known); ``seer`` sees the other side's hand, which bounds what reading it, by any inference at
all, could add to the search; ``oracle`` also sees every deck's order, which no player can
know, and shows what the search does with information when there is some."""
PLAYERS: tuple[str, ...] = (
    "easy", "normal", "hard", "eager", "passive", "uniform", "seer", "oracle",
)


def _stops(think_ms: int | None) -> Any:
    """Each decision's stop check, ``think_ms`` after it starts, as on the server (the result
    then depends on the machine's speed); ``None``: the budget alone decides."""
    if think_ms is None:
        return None

    def stop_check() -> Any:
        until = time.monotonic() + think_ms / 1000
        return lambda: time.monotonic() >= until

    return stop_check


class _Timed:
    """A policy that counts its decisions with a real choice and the time they took."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.decisions = 0
        self.seconds = 0.0

    def __call__(self, engine: Engine, state: State, side: Side, pick: Any) -> Action:
        started = time.perf_counter()
        action: Action = self.policy(engine, state, side, pick)
        if len(engine.legal_actions(state, side)) > 1:
            self.decisions += 1
            self.seconds += time.perf_counter() - started
        return action


def match(
    first: str, second: str, games: int, seed: int, tier: str = "pro", innings: int = 3,
    budget: int = 200, think_ms: int | None = None,
) -> dict[str, Any]:
    """``first`` against ``second`` (policy levels) over ``games`` games, ``first`` at home in
    the even-numbered games and away in the odd ones, so home advantage cancels. Each side's
    ``pick`` is its own seeded generator; the dice are another.

    Win rates are over decisive games (ties are reported and left out); the interval is
    Wilson's 95% and the p-value the exact two-sided binomial test against 1/2. ``hard`` plays
    ``budget`` play-outs a decision, or with ``think_ms`` stops by the clock as on the server
    (capped by ``budget``); it reads the game as it goes (``ReadingHard``). ``hard_decisions``
    (and ``uniform_``, ``seer_``, ``oracle_decisions``) count that player's decisions with more
    than one legal action and the mean time they took.
    """
    from app.engines.base_on_board.policy import POLICIES, make_hard
    from app.engines.base_on_board.reading import ReadingHard

    for level in (first, second):
        if level not in PLAYERS:
            raise ValueError(f"unknown policy {level!r}; expected one of {PLAYERS}")
    reading = ReadingHard(budget, _stops(think_ms))
    hard = _Timed(reading)
    uniform = _Timed(make_hard(budget))
    seer = _Timed(make_hard(budget, deal=_see_hand))
    oracle = _Timed(make_hard(budget, deal=_see_all))
    policies: dict[str, Any] = {
        **POLICIES, **REFERENCE_PLAYERS, "hard": hard, "uniform": uniform, "seer": seer,
        "oracle": oracle,
    }
    engine = Engine(SeededDice(seed))
    picks = [random.Random(seed * 2 + 1).randrange, random.Random(seed * 2 + 2).randrange]
    options = {"tier": tier, "innings": innings, "fast_play": True}
    wins = [0, 0]
    ties = 0
    seat_wins = {"home": 0, "away": 0}
    by_seat = {"first_home": [0, 0, 0], "first_away": [0, 0, 0]}  # first wins, second, ties
    runs = 0
    started = time.perf_counter()
    for game in range(games):
        first_side: Side = "home" if game % 2 == 0 else "away"
        seats = {first_side: 0, ("away" if first_side == "home" else "home"): 1}
        levels = (first, second)
        state = engine.new_game(options)
        reading.new_game()
        for seat_side, who in seats.items():
            if levels[who] == "hard":
                reading.seat(seat_side)  # type: ignore[arg-type]
        while state.result is None:
            side: Side = state.queue[0][0]  # type: ignore[assignment]
            who = seats[side]
            action = policies[levels[who]](engine, state, side, picks[who])
            if reading.readings:
                reading.observe(engine, state, side, action)
            engine.step_in_place(state, action)
        winner = state.result["winner"]
        runs += state.score["home"] + state.score["away"]
        row = by_seat["first_home" if first_side == "home" else "first_away"]
        if winner is None:
            ties += 1
            row[2] += 1
            continue
        seat_wins[winner] += 1
        wins[seats[winner]] += 1
        row[seats[winner]] += 1
    elapsed = time.perf_counter() - started
    decisive = wins[0] + wins[1]

    def report(level: str, won: int) -> dict[str, Any]:
        low, high = wilson(won, decisive)
        return {
            "policy": level,
            "wins": won,
            "win_rate": round(won / decisive, 4) if decisive else None,
            "ci95": [round(low, 4), round(high, 4)],
        }

    return {
        "games": games,
        "tier": tier,
        "innings": innings,
        "budget": budget,
        "think_ms": think_ms,
        "seed": seed,
        "ties": ties,
        "decisive": decisive,
        "first": report(first, wins[0]),
        "second": report(second, wins[1]),
        "p_value": float(f"{binomial_p(wins[0], decisive):.3g}"),
        "test": "exact two-sided binomial on decisive games vs 0.5; Wilson 95% interval",
        "seat_wins": seat_wins,
        "by_seat": {
            key: {"first_wins": row[0], "second_wins": row[1], "ties": row[2]}
            for key, row in by_seat.items()
        },
        "runs_per_game": round(runs / games, 3) if games else 0.0,
        "seconds": round(elapsed, 1),
        **{
            f"{name}_decisions": {
                "count": timed.decisions,
                "mean_ms": round(1000 * timed.seconds / timed.decisions, 1)
                if timed.decisions else None,
            }
            for name, timed in (("hard", hard), ("uniform", uniform), ("seer", seer),
                                ("oracle", oracle))
        },
    }
