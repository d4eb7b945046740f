"""Playing games in place without building what nobody reads: the simulator's stepping path.

``bob simulate`` and the computer players' play-outs step one state from decision to decision
and throw away every event; four in five of those decisions are a lone roll of a die. ``play``
runs that loop with no events at all: a lone roll (no card in the hand may be played instead)
is rolled without asking ``legal_actions`` for it, and every other decision is taken by the
caller's ``choose`` from ``legal_actions`` and applied through the engine's own steps. The
state ends exactly where ``legal_actions`` + ``choose`` + ``step_in_place`` would have taken it
(a test plays many seeded games both ways), because every rule still runs in ``Engine``; this
module only decides which decisions need the full list of actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from app.engines.base_on_board.engine import (
    _DEFENSE_SETS,
    _DICE,
    _OFFENSE_SETS,
    Engine,
    _situation,
)
from app.engines.base_on_board.state import State
from app.engines.interface import Action, Side

Choose = Callable[[Engine, State, Side, list[Action]], Action]
"""Picks one of the actions ``legal_actions`` listed for ``side`` (never asked for a lone
roll: a roll is the only choice there). ``policy._normal_choice`` is one."""


class Counts:
    """What ``bob simulate`` reports, gathered as the games are played: pitches, the faces of
    every die rolled, the cards played (the infield fly as ``IFL``) and each challenged call's
    results. The same numbers as tallying every pitch record."""

    def __init__(self) -> None:
        self.pitches = 0
        self.dice: dict[str, Counter[str]] = {"pitch": Counter(), "bat": Counter(),
                                              "hit": Counter()}
        self.cards: Counter[str] = Counter()
        self.challenges: dict[str, Counter[str]] = {}


_ROLLS: Final = frozenset({"pitch", "swing", "hit"})


def lone_roll(state: State, side: Side, kind: str) -> bool:
    """Whether the head decision (``side`` must ``kind``) offers nothing but the roll: the
    test ``legal_actions`` makes before it lists any card of a mandatory decision."""
    if kind not in _ROLLS:
        return False
    play = state.play
    if kind == "hit" or play.get("hnr") or play.get("rnh"):
        return True
    hand = state.hands[side]
    offense = side == state.offense
    codes = (_OFFENSE_SETS if offense else _DEFENSE_SETS).get(play.get("phase"))
    if codes is None or codes.isdisjoint(hand):
        return True
    return _situation(state, play)[0 if offense else 1].keys().isdisjoint(hand)


def play(
    engine: Engine, state: State, choose: Choose, counts: Counts | None = None,
    half_only: bool = False,
) -> State:
    """Plays ``state`` in place to the end of the game (``half_only``: of the current half),
    ``choose`` taking every decision that is more than a lone roll; ``counts`` (if given)
    gathers the pitches, dice, cards and challenges as they happen."""
    dice = engine.dice
    legal_actions = engine.legal_actions
    step = engine._step
    run = engine._run
    pitch_result = engine._pitch_result
    bat_result = engine._bat_result
    hit_result = engine._hit_result
    inning, half = state.inning, state.half
    start = state.pitches
    while state.result is None:
        if half_only and (state.inning != inning or state.half != half):
            break
        queue = state.queue
        side: Side
        side, kind = queue[0]  # type: ignore[assignment]
        rec = state.rec
        assert rec is not None
        if lone_roll(state, side, kind):
            queue.pop(0)
            die, faces = _DICE[kind]
            face = faces[dice.below(state.draw, len(faces))]
            state.draw += 1
            rec["dice"].append({"die": die, "face": face})
            if counts is not None:
                counts.dice[die][face] += 1
            if kind == "pitch":
                pitch_result(state, face, None)
            elif kind == "swing":
                bat_result(state, face, None)
            else:
                hit_result(state, face)
        else:
            action = choose(engine, state, side, legal_actions(state, side))
            cards = len(rec["cards"])
            challenges = len(rec["challenges"])
            step(state, action, None)
            if counts is not None:
                for card in rec["cards"][cards:]:
                    counts.cards[card["code"]] += 1
                for challenge in rec["challenges"][challenges:]:
                    call = challenge["call"]
                    found = counts.challenges.get(call)
                    if found is None:
                        found = counts.challenges[call] = Counter()
                    found[challenge["result"]] += 1
        run(state, None)
    if counts is not None:
        counts.pitches += state.pitches - start
    return state
