"""The computer's side in solo play: a pure function from a state to one of its legal actions.

The policy (also in docs/rules/bottom-of-the-9th.md, decision "computer policy"):

* **Stare-down.** For every (pitch, guess) pair it computes the exact expected value of the
  pitch for the pitcher by enumerating the 216 control/pitch/swing dice with the abilities that
  pair switches on (one level of swing re-rolls; values: strike +1, a third strike +3, foul
  +0.3, ball -0.4, a fourth ball -1.5, contact -1, crush -2.5). The pitcher scores each pitch
  against a batter guessing at random, minus 0.5 for a pitch that pushes a fatigue token onto
  the bottom row; the batter scores each guess against the pitcher's mix. The choice is drawn
  with weight ``8 ** score``: the best option is the most likely but never certain, because a
  fixed choice would be read by a human within a few pitches.
* **Clean-up.** It benches the starter when, after the best recovery, both tokens would still be
  on row 2 or lower; otherwise it recovers the more tired token first.
* **Set-up.** It takes the card with the most ability lines (traits count) that fits.
* **Rolls.** A roll is the only choice; in a closing race window the batter rolls rather than
  closing, since a roll can only help it.

Randomness comes from ``pick(n) -> [0, n)``. The server passes a draw from its own HMAC dice
under a separate game id, so the computer's mixing is as unpredictable as the dice and can be
re-derived after the game; without it a hash of the state is used (fine for bots and tests).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from app.engines.bottom_of_the_ninth.abilities import (
    Situation,
    holds,
    modified,
    triggered,
    turned,
)
from app.engines.bottom_of_the_ninth.cards import DIRECTIONS, LOCATIONS, Ability, Card
from app.engines.bottom_of_the_ninth.engine import Engine
from app.engines.bottom_of_the_ninth.rules import FATIGUE_BOTTOM, PITCH_DIE, compare
from app.engines.bottom_of_the_ninth.state import State
from app.engines.interface import Action, IllegalAction, Side

Pick = Callable[[int], int]

_SHARPNESS = 8.0
"""Base of the weights: at 8, an option worth 1/3 more than another is twice as likely."""

_GUESSES: tuple[tuple[str, str], ...] = tuple((d, loc) for d in DIRECTIONS for loc in LOCATIONS)
_VALUE_CACHE: dict[tuple[object, ...], float] = {}


def _hash_pick(state: State, side: Side) -> Pick:
    salt = f"{state.dice_index}:{state.pitches}:{state.plate_appearances}:{side}".encode()

    def pick(n: int) -> int:
        return int.from_bytes(hashlib.sha256(salt).digest()[:8], "big") % n

    return pick


def _weighted(weights: list[float], pick: Pick) -> int:
    total = sum(weights)
    point = pick(1_000_000) / 1_000_000 * total
    running = 0.0
    for i, weight in enumerate(weights):
        running += weight
        if point < running:
            return i
    return len(weights) - 1


def _result_value(result: str, balls: int, strikes: int) -> float:
    if result == "strike":
        return 3.0 if strikes == 2 else 1.0
    if result == "foul":
        return 0.3 if strikes < 2 else 0.0
    if result == "ball":
        return -1.5 if balls == 3 else -0.4
    return -1.0


def pair_value(
    engine: Engine,
    state: State,
    pitch: tuple[str, str],
    guess: tuple[str, str],
    pitcher_id: str | None = None,
) -> float:
    """Expected value of one pitch for the pitcher when it throws ``pitch`` against ``guess``.

    Cached by the abilities the pair switches on and the count, which is all it depends on
    (many pairs switch on the same lines, most often none).
    """
    bases_empty = not any(state.bases)
    batter = engine.cards[state.lineup[state.batter_index]]
    pitcher = engine.cards[pitcher_id or str(state.pitcher)]
    batter_on, pitcher_on, _, _, _ = triggered(batter, pitcher, pitch, guess)
    order = pitcher_on + batter_on
    balls, strikes, outs = state.balls, state.strikes, state.outs
    key = (
        id(engine.cards),
        tuple((a.card, a.index) for a in order),
        balls,
        strikes,
        outs,
        bases_empty,
    )
    cached = _VALUE_CACHE.get(key)
    if cached is not None:
        return cached
    swing_rerolls = [a for a in batter_on + pitcher_on if a.kind == "reroll" and a.die == "swing"]

    def value(face: str, control: int, swing: int) -> float:
        if swing == 6:
            return -2.5
        situation = Situation(face, control, swing, balls, strikes, outs, bases_empty)
        fired: list[Ability] = []
        c = modified("control", control, order, situation, fired)
        s = modified("swing", swing, order, situation, fired)
        return _result_value(turned(compare(face, c, s), order, situation, fired), balls, strikes)

    total = 0.0
    for face in PITCH_DIE:
        for control in range(1, 7):
            for swing in range(1, 7):
                situation = Situation(face, control, swing, balls, strikes, outs, bases_empty)
                if any(holds(a.cond, situation) for a in swing_rerolls):
                    total += sum(value(face, control, s) for s in range(1, 7)) / 6
                else:
                    total += value(face, control, swing)
    result = total / 216
    _VALUE_CACHE[key] = result
    return result


def pitch_weights(engine: Engine, state: State) -> list[tuple[tuple[str, str], float]]:
    """The pitcher's mixed strategy over the pitches it may throw now (weights, not odds)."""
    pitcher = engine.cards[str(state.pitcher)]
    weighted: list[tuple[tuple[str, str], float]] = []
    for pitch in engine.pitch_options(state):
        score = sum(pair_value(engine, state, pitch, g) for g in _GUESSES) / len(_GUESSES)
        if pitch[0] == pitcher.ace_direction and state.fatigue[0] + 1 >= FATIGUE_BOTTOM:
            score -= 0.5
        if pitch[1] == pitcher.ace_location and state.fatigue[1] + 1 >= FATIGUE_BOTTOM:
            score -= 0.5
        weighted.append((pitch, _SHARPNESS**score))
    return weighted


def _stare(engine: Engine, state: State, side: Side, pick: Pick) -> Action:
    weighted = pitch_weights(engine, state)
    if side == "away":
        pitch = weighted[_weighted([w for _, w in weighted], pick)][0]
        return {"side": "away", "type": "stare", "direction": pitch[0], "location": pitch[1]}
    total = sum(w for _, w in weighted)
    values = [
        _SHARPNESS ** -sum(w / total * pair_value(engine, state, p, guess) for p, w in weighted)
        for guess in _GUESSES
    ]
    guess = _GUESSES[_weighted(values, pick)]
    return {"side": "home", "type": "stare", "direction": guess[0], "location": guess[1]}


def _card_value(card: Card) -> int:
    return len(card.abilities)


def choose_action(engine: Engine, state: State, side: Side, pick: Pick | None = None) -> Action:
    """One of ``engine.legal_actions(state, side)``; raises :class:`IllegalAction` if none."""
    actions = engine.legal_actions(state, side)
    if not actions:
        raise IllegalAction(f"{side} has nothing to do now")
    if len(actions) == 1:
        return actions[0]
    chooser = pick if pick is not None else _hash_pick(state, side)
    phase = state.phase
    chosen: Action
    if phase == "stare":
        chosen = _stare(engine, state, side, chooser)
    elif phase == "race":
        chosen = next(a for a in actions if a["type"] == "race_roll")
    elif phase == "cleanup":
        chosen = _cleanup(engine, state, actions)
    elif phase == "setup":
        chosen = _setup(engine, actions)
    else:
        chosen = actions[0]
    if chosen not in actions:
        raise IllegalAction(f"policy chose an illegal action {chosen!r}")
    return chosen


def _cleanup(engine: Engine, state: State, actions: list[Action]) -> Action:
    recovers = [a for a in actions if a["type"] == "recover"]
    bench = [a for a in actions if a["type"] == "bench"]

    def after(action: Action) -> tuple[int, int]:
        return state.fatigue[0] - action["direction"], state.fatigue[1] - action["location"]

    best = min(recovers, key=lambda a: (max(after(a)), sum(after(a))))
    if bench and state.reliever is not None:
        # Compare the two arms against the batter coming up, at a fresh count; a tired starter
        # (a token that would stay on row 2 or lower) pays for the throws it cannot make.
        starter = _arm_value(engine, state, str(state.pitcher))
        reliever = _arm_value(engine, state, state.reliever)
        tired = sum(0.05 for row in after(best) if row >= 2)
        if reliever > starter + 0.02 - tired:
            return bench[0]
    return best


def _arm_value(engine: Engine, state: State, pitcher_id: str) -> float:
    """A pitcher's average pitch value against the batter due up, over every pitch and guess."""
    pairs = [(p, g) for p in _GUESSES for g in _GUESSES]
    return sum(pair_value(engine, state, p, g, pitcher_id) for p, g in pairs) / len(pairs)


def _setup(engine: Engine, actions: list[Action]) -> Action:
    picks = [a for a in actions if a["type"] in ("pick_batter", "pick_pitcher")]
    if not picks:
        return actions[0]
    return max(picks, key=lambda a: _card_value(engine.cards[a["card"]]))
