"""Playing games in place without building what nobody reads: the simulator's stepping path.

``bob simulate`` and the computer players' play-outs step one state from decision to decision
and throw away every event; four in five of those decisions are a lone roll of a die. ``play``
runs that loop with no events at all: a lone roll (no card in the hand may be played instead)
is rolled without asking ``legal_actions`` for it, and every other decision is taken by the
caller's ``choose`` from ``legal_actions`` and applied through the engine's own steps. The
state ends exactly where ``legal_actions`` + ``choose`` + ``step_in_place`` would have taken it
(a test plays many seeded games both ways), because every rule still runs in ``Engine``; this
module only decides which decisions need the full list of actions, and skips the work whose
only reader is a log: events, and the pitch records (``Engine.records``), counted instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Final

from app.engines.base_on_board.data import BAT_DIE, HIT_DIE, PITCH_DIE
from app.engines.base_on_board.engine import (
    _DEFENSE_SETS,
    _DICE,
    _OFFENSE_SETS,
    Engine,
    _situation,
)
from app.engines.base_on_board.state import State
from app.engines.base_on_board.windows import Choice
from app.engines.dice import SeededDice
from app.engines.interface import Action, Side

Choose = Callable[[Engine, State, Side, list[Action]], Action]
"""Picks one of the actions ``legal_actions`` listed for ``side`` (never asked for a lone
roll: a roll is the only choice there). ``policy._normal_choice`` is one."""

Pick = Callable[[list[tuple[str, Choice]]], tuple[str, Choice]]
"""One of a decision's card plays, as (card, choice): ``random.Random.choice`` is one."""


class Counts:
    """What ``bob simulate`` reports, gathered as the games are played: pitches, the faces of
    every die rolled, the cards played (the infield fly as ``IFL``) and each challenged call's
    results. The same numbers as tallying every pitch record."""

    def __init__(self) -> None:
        self.pitches = 0
        self.dice: dict[str, dict[str, int]] = {
            die: dict.fromkeys(faces, 0) for die, faces in _DICE.values()
        }
        self.cards: Counter[str] = Counter()
        self.challenges: dict[str, Counter[str]] = {}

    def pitch(self, record: Mapping[str, Any]) -> None:
        """Counts one pitch record (the public path's way: every pitch event's data)."""
        self.pitches += 1
        for roll in record["dice"]:
            self.dice[roll["die"]][roll["face"]] += 1
        for card in record["cards"]:
            self.cards[card["code"]] += 1
        for challenge in record["challenges"]:
            self.challenges.setdefault(challenge["call"], Counter())[challenge["result"]] += 1


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


Sides = tuple[frozenset[str], frozenset[str]]
# Situation -> the cards the offense and the defense may play in it (``engine._situation``'s
# answer as two sets), per phase, keyed by exactly what ``card_choices`` reads in that phase.
_PRE: list[Sides | None] = [None] * 16  # bases * 2 + (three balls)
_PITCH: list[Sides | None] = [None] * 384  # die face index * 32 + bases * 4 + (two strikes) * 2
# + (two outs)


_SWING: list[Sides | None] = [None] * 16  # bases * 2 + (fewer than two outs), no hit and run
_HT: list[Sides | None] = [None] * 16  # the same
_BAT: dict[tuple[str, int, int], Sides] = {}  # code, bases, outs (no hit and run, no IFL yet)
_HIT: dict[tuple[str, int], Sides] = {}  # code, bases


def _sides(state: State) -> Sides:
    offense, defense = _situation(state, state.play)
    return frozenset(offense), frozenset(defense)


def play(
    engine: Engine, state: State, choose: Choose, counts: Counts | None = None,
    half_only: bool = False, pick: Pick | None = None,
) -> State:
    """Plays ``state`` in place to the end of the game (``half_only``: of the current half),
    ``choose`` taking every decision that is more than a lone roll; ``counts`` (if given)
    gathers the pitches, dice, cards and challenges as they happen.

    ``pick`` is for a policy that always plays a card when it may, at random (the
    simulator's): where a decision's actions are card plays besides a roll or a pass, it is
    given the plays, in ``legal_actions`` order, without the action list being built, and the
    one it returns is played; ``choose`` takes the decisions with a challenge, an infield fly,
    an answer or a runner in them. ``pick=random.Random.choice`` makes the same choice as
    ``choose`` picking at random among those plays with the same generator.
    """
    records, engine.records = engine.records, False
    try:
        if state.options.fast_play:
            _play_fast(engine, state, _Decide(engine, choose, pick, counts), half_only)
        else:
            _play_any(engine, state, _Decide(engine, choose, pick, counts), half_only)
    finally:
        engine.records = records  # as the caller had it
    # The record of the pitch the play stops at (the first of a half, nothing happened yet in
    # it), which the engine would have been keeping.
    if state.result is None:
        state.rec = engine.new_record(state)
    else:
        state.rec = None
    return state


def _play_fast(engine: Engine, state: State, decide: _Decide, half_only: bool) -> None:
    """``play`` for ``fast_play`` games (a window opens only for a card the hand holds): the
    pitch roll and the windows after it without the engine's general loop."""
    tally = decide.tally
    dice = engine.dice
    below = dice.below
    bits = dice._bits if type(dice) is SeededDice else None
    run = engine._run
    finish_count = engine._finish_count
    pitch_result = engine._pitch_result
    bat_result = engine._bat_result
    hit_result = engine._hit_result
    resolve_batted = engine._resolve_batted
    resolve_hit = engine._resolve_hit
    pitch_faces = tally.dice["pitch"]
    bat_faces = tally.dice["bat"]
    hit_faces = tally.dice["hit"]
    hands = state.hands
    challenges = state.challenges
    pre_memo = _PRE
    pitch_memo = _PITCH
    inning, half = state.inning, state.half
    start = state.pitches
    while state.result is None:
        if half_only and (state.inning != inning or state.half != half):
            break
        queue = state.queue
        side: Side
        side, kind = queue[0]  # type: ignore[assignment]
        play = state.play
        if kind == "pitch" and play["phase"] == "pre" and not play.get("rnh"):
            offense = state.offense
            index = state.bases * 2 + (state.balls == 3)
            pre = pre_memo[index]
            if pre is None:
                pre = pre_memo[index] = _sides(state)
            # Pitch after pitch of the half, while each is a lone roll after which no window
            # opens: the roll (``_step``), ``_pitch_result`` and ``_run`` without run and hit.
            # (An empty set is tested before any call: most situations offer no card.)
            while not pre[1] or pre[1].isdisjoint(hands[side]):
                if bits is None:
                    r = below(state.draw, 12)
                else:  # ``SeededDice.below(_, 12)`` without the call
                    r = bits(4)
                    while r >= 12:
                        r = bits(4)
                face = PITCH_DIE[r]
                state.draw += 1
                pitch_faces[face] += 1
                play["phase"] = "pitch"
                play["code"] = face
                play["face"] = face
                play["chain"] = []
                # (The queue, the pitch roll alone, is replaced on every way out.)
                if face == "C":
                    play["phase"] = "swing"
                    state.queue = [[offense, "swing"]]
                    break
                if face == "B" and challenges[side] > 0:
                    state.queue = [[side, "challenge"], [offense, "cards"], [side, "cards"]]
                    break
                if face == "SM" and challenges[offense] > 0:
                    state.queue = [[offense, "challenge"], [offense, "cards"], [side, "cards"]]
                    break
                index = r * 32 + state.bases * 4 + (state.strikes == 2) * 2 + (state.outs == 2)
                sides = pitch_memo[index]
                if sides is None:
                    sides = pitch_memo[index] = _sides(state)
                if sides[0] and not sides[0].isdisjoint(hands[offense]):
                    state.queue = [[offense, "cards"], [side, "cards"]]
                    break
                if sides[1] and not sides[1].isdisjoint(hands[side]):
                    state.queue = [[side, "cards"]]
                    break
                # ``_finish_count`` (no card awarded anything on this pitch), and when the
                # plate appearance goes on, the count and ``_end_pitch`` inline: no run, no
                # out, no card held (no RNH here), so no walk-off and no new half.
                if state.balls < 3 if face == "B" else state.strikes < 2:
                    if face == "B":
                        state.balls += 1
                    else:
                        state.strikes += 1
                    state.pitches += 1
                    state.play = {"phase": "pre", "chain": []}
                    state.queue = [[offense, "pre"], [side, "pitch"]]
                else:
                    finish_count(state, None)
                    if not state.queue or state.offense != offense:
                        _next_pitch(state)  # over, or a new half (``half_only``: outer loop)
                        break
                # The next pitch of the half: ``_run`` over its pre window (the offense's).
                index = state.bases * 2 + (state.balls == 3)
                pre = pre_memo[index]
                if pre is None:
                    pre = pre_memo[index] = _sides(state)
                if pre[0] and not pre[0].isdisjoint(hands[offense]):
                    break  # it opens
                del state.queue[0]
                play = state.play
            else:
                decide(state, side, kind)  # the defense may try a pickoff instead
                run(state, None)
            continue
        if kind == "swing" and not play.get("hnr"):
            index = state.bases * 2 + (state.outs < 2)
            swing = _SWING[index]
            if swing is None:
                swing = _SWING[index] = _sides(state)
            if not swing[0].isdisjoint(hands[side]):
                decide(state, side, kind)
                run(state, None)
                continue
            # The lone swing roll (``_bat_result``), and the windows after a batted out or a
            # hit as ``_run`` opens them.
            queue.pop()
            if bits is None:
                face = BAT_DIE[below(state.draw, 12)]
            else:  # ``SeededDice.below(_, 12)`` without the call
                r = bits(4)
                while r >= 12:
                    r = bits(4)
                face = BAT_DIE[r]
            state.draw += 1
            bat_faces[face] += 1
            bat_result(state, face, None)
            phase = play["phase"]
            if phase == "bat":
                key_bat = (play["code"], state.bases, state.outs)
                sides = _BAT.get(key_bat)
                if sides is None:
                    sides = _BAT[key_bat] = _sides(state)
                if _windows_shut(state, sides):
                    resolve_batted(state, None)
                    _next_pitch(state)
            elif phase == "ht":
                index = state.bases * 2 + (state.outs < 2)
                ht = _HT[index]
                if ht is None:
                    ht = _HT[index] = _sides(state)
                if ht[1].isdisjoint(hands[state.defense]):
                    del state.queue[0]  # the hit roll is next
            else:
                run(state, None)
            continue
        if kind == "hit":
            queue.pop()
            if bits is None:
                face = HIT_DIE[below(state.draw, 12)]
            else:  # ``SeededDice.below(_, 12)`` without the call
                r = bits(4)
                while r >= 12:
                    r = bits(4)
                face = HIT_DIE[r]
            state.draw += 1
            hit_faces[face] += 1
            hit_result(state, face)
            key_hit = (face, state.bases)
            sides = _HIT.get(key_hit)
            if sides is None:
                sides = _HIT[key_hit] = _sides(state)
            if _windows_shut(state, sides):
                resolve_hit(state, None)
                _next_pitch(state)
            continue
        if lone_roll(state, side, kind):  # a roll with hit and run or run and hit on
            queue.pop(0)
            die, faces = _DICE[kind]
            face = faces[below(state.draw, len(faces))]
            state.draw += 1
            tally.dice[die][face] += 1
            if kind == "pitch":
                pitch_result(state, face, None)
            elif kind == "swing":
                bat_result(state, face, None)
            else:
                hit_result(state, face)
        else:
            decide(state, side, kind)
        run(state, None)
    tally.pitches += state.pitches - start


def _windows_shut(state: State, sides: Sides) -> bool:
    """``_run`` over the windows after a roll, for ``fast_play``: ``True`` when every one
    stays shut and the phase is to be finished (the queue is then empty), ``False`` when one
    opens (the queue then starts with it). ``sides`` is the situation's playable cards."""
    queue = state.queue
    offense = state.offense
    hands = state.hands
    for index, (side, kind) in enumerate(queue):
        if kind == "challenge":
            opens = state.challenges[side] > 0
        elif kind == "ifl":
            opens = True
        elif side == offense:
            # RNH is the offense's card for its pitch (decision D17).
            opens = not state.play.get("rnh") and not sides[0].isdisjoint(hands[side])
        else:
            opens = not sides[1].isdisjoint(hands[side])
        if opens:
            del queue[:index]
            return False
    queue.clear()
    return True


def _next_pitch(state: State) -> None:
    """After a pitch ended: ``_run`` over the next pitch's pre window (the offense's), which
    leaves the pitch roll at the head when it stays shut."""
    if state.result is None:
        index = state.bases * 2 + (state.balls == 3)
        pre = _PRE[index]
        if pre is None:
            pre = _PRE[index] = _sides(state)
        if pre[0].isdisjoint(state.hands[state.offense]):
            del state.queue[0]


class _Decide:
    """Takes a decision that is more than a lone roll and applies it (``_run`` is the
    caller's), counting the card or challenge it plays."""

    __slots__ = ("choose", "engine", "legal_actions", "on_card", "pick", "step", "tally")

    def __init__(
        self, engine: Engine, choose: Choose, pick: Pick | None, counts: Counts | None
    ) -> None:
        self.engine = engine
        self.choose = choose
        self.pick = pick
        self.tally = counts if counts is not None else Counts()
        self.legal_actions = engine.legal_actions
        self.step = engine._step
        self.on_card = engine._on_card

    def __call__(self, state: State, side: Side, kind: str) -> None:
        pick = self.pick
        if pick is not None and kind in _PLAY_KINDS:
            plays = _plays(state, side, kind)
            if plays:
                code, choice = pick(plays)
                action: Action = {"side": side, "type": "play", "card": code, **choice}
                # ``_step`` of a card play: its window off the queue, then the card.
                self.on_card(state, side, state.queue.pop(0)[1], action, None)
                self.tally.cards[code] += 1
                return
        action = self.choose(self.engine, state, side, self.legal_actions(state, side))
        self.step(state, action, None)
        tally = self.tally
        kind = action["type"]
        if kind == "play":
            tally.cards[action["card"]] += 1
        elif kind == "ifl":
            tally.cards["IFL"] += 1
        elif kind == "challenge":
            # Its record is the last one in ``state.rec``, which stays the same dict while
            # ``play`` keeps no records.
            assert state.rec is not None
            challenge = state.rec["challenges"][-1]
            call = challenge["call"]
            found = tally.challenges.get(call)
            if found is None:
                found = tally.challenges[call] = Counter()
            found[challenge["result"]] += 1


_PLAY_KINDS: Final = frozenset({"pre", "cards", "pitch", "swing"})


def _plays(state: State, side: Side, kind: str) -> list[tuple[str, Choice]]:
    """The card plays ``legal_actions`` lists for ``side`` in a window of ``kind`` (a result
    window, or a pitch or swing with cards to play instead), as (card, choice) in its order:
    every other action of these decisions is a roll or a pass."""
    play = state.play
    offense = side == state.offense
    if offense and kind == "cards" and play.get("rnh"):
        return []  # RNH is the offense's card for its pitch (decision D17)
    if kind in _ROLLS and (play.get("hnr") or play.get("rnh")):
        return []
    playable = _situation(state, play)[0 if offense else 1]
    hand = state.hands[side]
    held = [code for code in playable if code in hand]
    if len(held) < 2:  # the order of the hand matters only between two or more cards
        return [(code, choice) for code in held for choice in playable[code]]
    plays: list[tuple[str, Choice]] = []
    for code in dict.fromkeys(hand):
        choices = playable.get(code)
        if choices is not None:
            for choice in choices:
                plays.append((code, choice))
    return plays


def _play_any(engine: Engine, state: State, decide: _Decide, half_only: bool) -> None:
    """``play`` for any options (windows open whenever the tier allows a card, not only the
    hand's): lone rolls are still rolled without ``legal_actions``."""
    tally = decide.tally
    dice = engine.dice
    run = engine._run
    inning, half = state.inning, state.half
    start = state.pitches
    while state.result is None:
        if half_only and (state.inning != inning or state.half != half):
            break
        side: Side
        side, kind = state.queue[0]  # type: ignore[assignment]
        if lone_roll(state, side, kind):
            state.queue.pop(0)
            die, faces = _DICE[kind]
            face = faces[dice.below(state.draw, len(faces))]
            state.draw += 1
            tally.dice[die][face] += 1
            if kind == "pitch":
                engine._pitch_result(state, face, None)
            elif kind == "swing":
                engine._bat_result(state, face, None)
            else:
                engine._hit_result(state, face)
        else:
            decide(state, side, kind)
        run(state, None)
    tally.pitches += state.pitches - start
