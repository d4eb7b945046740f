"""Computer players for Base on Board: ``easy``, ``normal`` and ``hard``.

All three are pure functions ``(engine, state, side, pick) -> action`` (``ComputerPolicy``);
every random number comes from ``pick(n) -> [0, n)``. They read only what ``engine.view(state,
side)`` shows that side: the public situation, the sizes of hands and decks, and its own hand.
The other side's hand and every deck order are never read (``hard`` replaces them by a sample
before it looks ahead; the test ``test_policy.py::test_hidden_cards_do_not_change_the_choice``
holds all three levels to it).

* **easy**: uniform among the legal actions.
* **normal**: a one-step model. Every legal action is turned into the situations it can lead to
  (outs, bases, count, runs), each weighted by the rulebook's odds: the dice faces, and the
  chance that the other side holds the answering card (a hypergeometric draw of its hand from
  the cards this side has not seen). Each situation is scored by the side's win probability
  (below), plus a hair (0.002) per expected run of this half so that a blowout, where the win
  probability is 0 or 1 whatever happens, is still played for runs. The best action is taken;
  on a tie a card rather than a pass, since a played card is replaced at once (a dead card
  is swapped for a fresh one). A
  challenge must gain more than a small reserve (``_challenge_reserve``) because it is gone for
  good.
* **hard**: determinised Monte-Carlo. For each of ``budget`` play-outs (split evenly among the
  candidate actions) it deals the cards this side cannot see at random (the other hand, the
  deck orders, consistent with the sizes it sees; as the server and the simulator play it,
  also with what the side has seen over the game, :mod:`app.engines.base_on_board.reading`),
  rolls fresh dice, and plays every candidate
  with the same cards and dice (common random numbers) to the end of the current half-inning
  with ``normal`` on both sides; the position there (hands are thrown away at the end of a
  half) is scored by the halves still to come, each a draw from the tier's measured runs per
  half (``HALF_RUNS``, :func:`leaf_value`). It leaves ``normal``'s choice only for an action
  whose mean gain over it, paired play-out by play-out, is clearly above the noise (two
  standard errors). What stops it is
  injected, since engines have no clock: a play-out count (``make_hard(budget)``, what the
  simulator uses) and optionally a stop check ``enough()`` asked between rounds, once
  ``MIN_ROUNDS`` are played (``reading.reading_hard(enough, past)``: the server builds it
  from its clock and the room's ``think_ms``).

Win probability (the ``normal`` score): the runs a side still scores in a
half-inning are taken from the game's own dice with no cards played. ``_pa_events`` gives the
chance of every way a plate appearance ends from each count (pitch die D1, bat die, hit die
D2), ``_half_table`` solves the base-out chain of those events for the distribution of runs to
the end of the half from each of the 24 base-out states (decisions D3-D8 for runner movement, D7
for the third out), and the halves still to come are independent draws from the distribution
of a fresh half. A tie after the last inning counts one half (extra innings are a coin flip).
This is this game's run-expectancy table (RE24 by count), computed, not copied from baseball:
a fresh half is worth ``expected_runs(0, 0)`` ~ 0.77 runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from app.engines.base_on_board import bases as B
from app.engines.base_on_board import fast
from app.engines.base_on_board.data import (
    BAT_DIE,
    CHALLENGE_DECK,
    HIT_DIE,
    PITCH_DIE,
    deck_for,
)
from app.engines.base_on_board.engine import Engine
from app.engines.base_on_board.state import State
from app.engines.interface import Action, IllegalAction, Pick, Side

LEVELS: Final[tuple[str, ...]] = ("easy", "normal", "hard")
DEFAULT_BUDGET: Final = 200
"""Play-outs per ``hard`` decision when nothing else stops it (about 0.1 s on one core of the
benchmark machine)."""
TIMED_BUDGET: Final = 50_000
"""The play-out cap of a ``hard`` decision stopped by the server's clock
(``reading.reading_hard``): far more than any think time allows, so the clock stops it."""
MIN_ROUNDS: Final = 8
"""Determinisations ``hard`` always plays before it asks whether to stop (fewer leave the
paired test nothing to stand on)."""

StopCheck = Callable[[], bool]
"""Asked between rounds of play-outs: ``True`` when the decision should stop thinking. The
server builds it from its clock and the room's ``think_ms``; engines have no clock."""
Deal = Callable[[State, Side, random.Random], State]
"""How a play-out's world is dealt from the position: :func:`determinise` for the levels
(only what the side has seen); a bench yardstick may deal otherwise."""

_RUNS: Final = 16  # run distributions cover 0..15; the last bucket holds "15 or more"
_SPAN: Final = 40  # future halves: runs 0..40 per side

Dist = tuple[float, ...]
Outcome = tuple[int, int, int, int, int]
"""(outs, bases, balls, strikes, runs scored for the offense); outs 3 is the end of the half."""
Weighted = list[tuple[float, Outcome]]

# ----------------------------------------------------------------------------- dice model


def _face_odds(faces: tuple[str, ...]) -> dict[str, float]:
    odds: dict[str, float] = {}
    for face in faces:
        odds[face] = odds.get(face, 0.0) + 1.0 / len(faces)
    return odds


PITCH_ODDS: Final = _face_odds(PITCH_DIE)
BAT_ODDS: Final = _face_odds(BAT_DIE)
HIT_ODDS: Final = _face_odds(HIT_DIE)

PaEvent = tuple[str, str]
"""How a plate appearance ends: ("BB", ""), ("K", ""), ("out", bat code), ("hit", hit code)
(a home run is ("hit", "HR"))."""


def _contact_events() -> list[tuple[PaEvent, float]]:
    events: list[tuple[PaEvent, float]] = []
    for face, p in BAT_ODDS.items():
        if face == "HT":
            events.extend((("hit", hit), p * q) for hit, q in HIT_ODDS.items())
        elif face == "HR":
            events.append((("hit", "HR"), p))
        else:
            events.append((("out", face), p))
    return events


@cache
def _pa_events(balls: int, strikes: int) -> tuple[tuple[PaEvent, float], ...]:
    """The chance of each way the plate appearance ends, from this count, dice only."""
    total: dict[PaEvent, float] = {}
    loop = 0.0

    def add(events: tuple[tuple[PaEvent, float], ...] | list[tuple[PaEvent, float]],
            weight: float) -> None:
        for event, p in events:
            total[event] = total.get(event, 0.0) + weight * p

    for face, p in PITCH_ODDS.items():
        if face in ("S", "SM"):
            if strikes == 2:
                add([(("K", ""), 1.0)], p)
            else:
                add(_pa_events(balls, strikes + 1), p)
        elif face == "F":
            if strikes < 2:
                add(_pa_events(balls, strikes + 1), p)
            else:
                loop += p  # a foul with two strikes changes nothing
        elif face == "B":
            if balls == 3:
                add([(("BB", ""), 1.0)], p)
            else:
                add(_pa_events(balls + 1, strikes), p)
        else:
            add(_contact_events(), p)
    return tuple((event, p / (1.0 - loop)) for event, p in total.items())


def _event_play(bases: int, event: PaEvent) -> tuple[int, int, int]:
    """(outs made, bases after, runs) of one plate-appearance ending."""
    kind, code = event
    if kind == "BB":
        new, runs = B.force(bases)
        return 0, new, runs
    if kind == "K":
        return 1, bases, 0
    if kind == "out":
        if code == "GF":
            new, runs, outs = B.ground_force(bases)
            return outs, new, runs
        new, runs = B.move(bases, B.OUT_TARGETS[code])
        return 1, new, runs
    new, runs = B.move(bases, B.HIT_TARGETS[code])
    return 0, new, runs


_ZERO: Final[Dist] = (1.0,) + (0.0,) * (_RUNS - 1)


def _shifted_add(into: list[float], dist: Dist, runs: int, weight: float) -> None:
    top = _RUNS - 1
    for i, p in enumerate(dist):
        if p:
            into[min(i + runs, top)] += weight * p


@cache
def _half_table() -> dict[tuple[int, int], Dist]:
    """Distribution of the runs still to score in the half from each (outs, bases), at 0-0."""
    events = _pa_events(0, 0)
    moves: dict[tuple[int, int], list[tuple[float, int, int, int]]] = {}
    for outs in range(3):
        for bases in range(8):
            row = []
            for event, p in events:
                made, new, runs = _event_play(bases, event)
                if outs + made >= 3:
                    row.append((p, 3, 0, 0))
                else:
                    row.append((p, outs + made, new, runs))
            moves[(outs, bases)] = row
    table: dict[tuple[int, int], Dist] = {key: _ZERO for key in moves}
    for _ in range(200):
        change = 0.0
        for outs in (2, 1, 0):
            for bases in range(8):
                new_dist = [0.0] * _RUNS
                for p, o2, b2, runs in moves[(outs, bases)]:
                    _shifted_add(new_dist, _ZERO if o2 >= 3 else table[(o2, b2)], runs, p)
                old = table[(outs, bases)]
                change = max(change, max(abs(a - b) for a, b in zip(old, new_dist, strict=True)))
                table[(outs, bases)] = tuple(new_dist)
        if change < 1e-12:
            break
    return table


@cache
def runs_to_come(outs: int, bases: int, balls: int, strikes: int) -> Dist:
    """Distribution of the runs the offense still scores this half (dice only)."""
    if outs >= 3:
        return _ZERO
    table = _half_table()
    dist = [0.0] * _RUNS
    for event, p in _pa_events(balls, strikes):
        made, new, runs = _event_play(bases, event)
        if outs + made >= 3:
            _shifted_add(dist, _ZERO, 0, p)
        else:
            _shifted_add(dist, table[(outs + made, new)], runs, p)
    return tuple(dist)


@cache
def expected_runs(outs: int, bases: int, balls: int = 0, strikes: int = 0) -> float:
    """Run expectancy of the situation: the mean of :func:`runs_to_come`."""
    return sum(i * p for i, p in enumerate(runs_to_come(outs, bases, balls, strikes)))


@cache
def _halves(n: int) -> Dist:
    """Distribution of the runs one side scores in ``n`` fresh halves (0.._SPAN)."""
    dist: list[float] = [1.0] + [0.0] * _SPAN
    fresh = _half_table()[(0, 0)]
    for _ in range(n):
        nxt = [0.0] * (_SPAN + 1)
        for i, p in enumerate(dist):
            if p:
                for j, q in enumerate(fresh):
                    nxt[min(i + j, _SPAN)] += p * q
        dist = nxt
    return tuple(dist)


@cache
def _settle_odds(mine: int, theirs: int) -> tuple[float, ...]:
    """Index ``x + 2*_SPAN``: P(win) + P(tie)/2 for a lead of ``x`` before ``mine`` halves of
    this side and ``theirs`` of the other are played."""
    return _lead_odds(_halves(mine), _halves(theirs))


def _lead_odds(a: Dist, b: Dist) -> tuple[float, ...]:
    """Index ``x + 2*_SPAN``: P(win) + P(tie)/2 for a lead of ``x``, when this side scores by
    ``a`` and the other by ``b`` from here on."""
    diff = [0.0] * (2 * _SPAN + 1)  # my runs minus theirs, index + _SPAN
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b):
                diff[i - j + _SPAN] += p * q
    out = []
    for lead in range(-2 * _SPAN, 2 * _SPAN + 1):
        win = tie = 0.0
        for k, p in enumerate(diff):
            final = lead + k - _SPAN
            if final > 0:
                win += p
            elif final == 0:
                tie += p
        out.append(win + tie / 2)
    return tuple(out)


@cache
def win_probability(
    batting: bool, lead: int, outs: int, bases: int, balls: int, strikes: int, mine: int,
    theirs: int,
) -> float:
    """P(win) + P(tie)/2 for a side ``lead`` runs ahead, in this situation of the current half
    (``batting``: the side is the offense), with ``mine``/``theirs`` fresh halves still to come
    after it."""
    settle = _settle_odds(mine, theirs)
    top = len(settle) - 1
    total = 0.0
    for runs, p in enumerate(runs_to_come(outs, bases, balls, strikes)):
        if p:
            final = lead + runs if batting else lead - runs
            total += p * settle[min(max(final + 2 * _SPAN, 0), top)]
    return total


def halves_to_come(state: State) -> tuple[int, int]:
    """Fresh halves after the current one for (offense, defense); extras play one inning."""
    last = max(state.options.innings, state.inning)
    if state.half == "top":
        return last - state.inning, last - state.inning + 1
    return last - state.inning, last - state.inning


def state_value(state: State, side: Side) -> float:
    """The side's win probability (ties half) by the dice model, or the result once over."""
    if state.result is not None:
        winner = state.result["winner"]
        return 0.5 if winner is None else 1.0 if winner == side else 0.0
    offense = state.offense
    batting = offense == side
    other = state.defense if batting else offense
    off_left, def_left = halves_to_come(state)
    mine, theirs = (off_left, def_left) if batting else (def_left, off_left)
    return win_probability(
        batting, state.score[side] - state.score[other], min(state.outs, 3), state.bases,
        state.balls, state.strikes, mine, theirs,
    )


# ----------------------------------------------------------------------------- the play-out leaf

# made by: python scripts/bob_half_runs.py --games 3000 --seed 1
HALF_RUNS: Final[dict[str, Dist]] = {
    # lite: 51000 halves, mean 2.835 runs
    "lite": (
        0.20318, 0.19243, 0.15284, 0.12439, 0.09871, 0.07400, 0.05239, 0.03651,
        0.02422, 0.01569, 0.00931, 0.00661, 0.00375, 0.00247, 0.00143, 0.00208,
    ),
    # lite-extended: 51000 halves, mean 0.927 runs
    "lite-extended": (
        0.53949, 0.22504, 0.11790, 0.05867, 0.02971, 0.01527, 0.00716, 0.00412,
        0.00153, 0.00059, 0.00025, 0.00022, 0.00002, 0.00004, 0.00000, 0.00000,
    ),
    # pro: 51000 halves, mean 0.860 runs
    "pro": (
        0.56645, 0.21665, 0.11114, 0.05269, 0.02694, 0.01367, 0.00631, 0.00310,
        0.00149, 0.00080, 0.00045, 0.00018, 0.00012, 0.00002, 0.00000, 0.00000,
    ),
}
"""Distribution of the runs a side scores in a fresh half-inning (0..15, the last "15 or
more") with ``normal`` playing both sides and the cards of each tier, measured by
``scripts/bob_half_runs.py`` (the dice alone give 0.77 runs a half; the Lite cards nearly
four times that). ``hard`` scores the end of its play-outs with it (:func:`leaf_value`)."""


@cache
def _tier_halves(tier: str, n: int) -> Dist:
    """Distribution of the runs one side scores in ``n`` fresh halves of ``tier`` (0.._SPAN)."""
    dist: list[float] = [1.0] + [0.0] * _SPAN
    total = sum(HALF_RUNS[tier])
    fresh = [p / total for p in HALF_RUNS[tier]]  # the table is rounded to 5 places
    for _ in range(n):
        nxt = [0.0] * (_SPAN + 1)
        for i, p in enumerate(dist):
            if p:
                for j, q in enumerate(fresh):
                    nxt[min(i + j, _SPAN)] += p * q
        dist = nxt
    return tuple(dist)


@cache
def _tier_settle(tier: str, mine: int, theirs: int) -> tuple[float, ...]:
    """As :func:`_settle_odds`, with ``tier``'s measured halves."""
    return _lead_odds(_tier_halves(tier, mine), _tier_halves(tier, theirs))


def leaf_value(state: State, side: Side) -> float:
    """The side's win probability (ties half) at the start of a half-inning, or the result
    once the game is over: every half still to come, this one included, is a draw from its
    tier's :data:`HALF_RUNS`. (Hands are thrown away at the end of a half, so what is left
    of the game is the score, the halves to come and the challenges.)"""
    if state.result is not None:
        return state_value(state, side)
    offense = state.offense
    batting = offense == side
    other = state.defense if batting else offense
    off_left, def_left = halves_to_come(state)
    off_left += 1  # the half about to start
    mine, theirs = (off_left, def_left) if batting else (def_left, off_left)
    settle = _tier_settle(state.options.tier, mine, theirs)
    lead = state.score[side] - state.score[other]
    return settle[min(max(lead + 2 * _SPAN, 0), len(settle) - 1)]


# ----------------------------------------------------------------------------- what a side knows


def _unseen(state: State, side: Side, deck: str) -> list[str]:
    """The cards of ``deck`` this side has not got in hand (nor sees held by RNH), in a fixed
    order: what the other hand, the deck and its discards are made of."""
    pool = deck_for(state.options.tier, offense=deck == "offense")
    holder = state.offense if deck == "offense" else state.defense
    if holder == side:
        for code in state.hands[side]:
            if code in pool:
                pool.remove(code)
    held = state.play.get("held")
    if deck == "offense" and held is not None and held in pool:
        pool.remove(held)
    return pool


def holds_probability(state: State, side: Side, code: str) -> float:
    """The chance that the other side holds at least one ``code``, by what ``side`` can see."""
    other = state.defense if side == state.offense else state.offense
    deck = "offense" if other == state.offense else "defense"
    pool = _unseen(state, side, deck)
    hand = len(state.hands[other])
    copies = pool.count(code)
    total = len(pool)
    if not copies or not hand or not total:
        return 0.0
    if hand >= total:
        return 1.0
    return 1.0 - math.comb(total - copies, hand) / math.comb(total, hand)


def determinise(
    state: State, side: Side, rng: random.Random, their_hand: bool = False
) -> State:
    """A copy of ``state`` whose hidden cards (the other hand, every deck and discard order)
    are dealt at random from what ``side`` has not seen, with the sizes ``side`` sees. With
    ``their_hand`` the other hand is kept as it truly is and only the orders are dealt: a
    bench yardstick's cheat, never a level's."""
    new = state.clone()
    other = new.defense if side == new.offense else new.offense
    for deck in ("offense", "defense"):
        pool = _unseen(new, side, deck)
        holder = new.offense if deck == "offense" else new.defense
        if their_hand and holder == other:
            for code in new.hands[other]:
                pool.remove(code)
        rng.shuffle(pool)
        if holder == other and not their_hand:
            size = len(new.hands[other])
            new.hands[other] = pool[:size]
            pool = pool[size:]
        size = len(new.decks[deck])
        new.decks[deck] = pool[:size]
        new.discards[deck] = pool[size:]
    pool = list(CHALLENGE_DECK)
    rng.shuffle(pool)
    size = len(new.decks["challenge"])
    new.decks["challenge"] = pool[:size]
    new.discards["challenge"] = pool[size:]
    return new


# ----------------------------------------------------------------------------- normal

_EPS: Final = 1e-9
_RUN_WEIGHT: Final = 0.002
"""Win probability per run of this half added to ``normal``'s score: it only breaks what the
win probability cannot tell apart (a blowout, where it is 0 or 1 whatever happens)."""


def _challenge_reserve(state: State, side: Side) -> float:
    """What a challenge kept is worth (win probability): gone once the game ends."""
    off_left, def_left = halves_to_come(state)
    left = off_left + def_left
    return 0.004 * min(left, 6)


def _end(outs: int, made: int, bases: int, runs: int, prior: int = 0) -> Outcome:
    """A plate appearance ends: the count resets; no run on a third-out play (D7)."""
    if outs + made >= 3:
        return (3, 0, 0, 0, prior)
    return (outs + made, bases, 0, 0, prior + runs)


def _mid(outs: int, made: int, bases: int, runs: int, balls: int, strikes: int,
         prior: int = 0) -> Outcome:
    """A play inside a plate appearance (a steal, a pick-off): the count stays."""
    if outs + made >= 3:
        return (3, 0, 0, 0, prior)
    return (outs + made, bases, balls, strikes, prior + runs)



def _steal(outs: int, bases: int, frm: int, balls: int, strikes: int
           ) -> tuple[Outcome, Outcome]:
    """A runner going from base ``frm``: the situation if safe (one base on, or a run home
    from third) and if out."""
    if frm == B.THIRD:
        safe = _mid(outs, 0, bases & ~frm, 1, balls, strikes)
    else:
        safe = _mid(outs, 0, (bases & ~frm) | (frm << 1), 0, balls, strikes)
    return safe, _mid(outs, 1, bases & ~frm, 0, balls, strikes)

def _count(o: Outcome, face: str) -> Outcome:
    """The pitch's call applied after whatever happened on it (decision D15 order)."""
    outs, bases, balls, strikes, runs = o
    if outs >= 3:
        return o
    if face == "B":
        if balls == 3:
            new, more = B.force(bases)
            return _end(outs, 0, new, more, runs)
        return (outs, bases, balls + 1, strikes, runs)
    if face in ("S", "SM"):
        if strikes == 2:
            return _end(outs, 1, bases, 0, runs)
        return (outs, bases, balls, strikes + 1, runs)
    return (outs, bases, balls, min(strikes + 1, 2), runs)


def _batted(outs: int, bases: int, code: str) -> Outcome:
    if code == "GF":
        new, runs, made = B.ground_force(bases)
        return _end(outs, made, new, runs)
    new, runs = B.move(bases, B.OUT_TARGETS[code])
    return _end(outs, 1, new, runs)


def _error(outs: int, bases: int) -> Outcome:
    new, runs = B.advance_all(bases, batter_to_first=True)
    return _end(outs, 0, new, runs)


def _hit(outs: int, bases: int, face: str, mods: dict[str, bool], hnr: bool) -> Outcome:
    """A hit with the cards already played on it (code -> reversed), as ``_resolve_hit``."""
    out_runners = 0
    made = 0
    if "A3H" in mods:
        out_runners |= B.FIRST
        made += 1
    if "AHH" in mods and not mods["AHH"]:
        out_runners |= B.SECOND
        made += 1
    targets = B.HIT_TARGETS[face]
    if "A2" in mods:
        targets = (targets[0], targets[1], targets[2], 0)
        made += 1
    new, runs = B.move(bases, targets, out_runners=out_runners, extra=1 if hnr else 0)
    if "1H1E" in mods:
        new, more = B.advance_all(new)
        runs += more
    return _end(outs, made, new, runs)


def _contact(outs: int, bases: int, hnr: bool) -> Weighted:
    """The bat die (and hit die) from here, cards aside; ``hnr`` as decision D18."""
    result: Weighted = []
    for face, p in BAT_ODDS.items():
        if face == "HT":
            result.extend((p * q, _hit(outs, bases, hit, {}, hnr)) for hit, q in HIT_ODDS.items())
        elif face == "HR":
            new, runs = B.move(bases, B.HIT_TARGETS["HR"])
            result.append((p, _end(outs, 0, new, runs)))
        elif hnr and face in ("FO", "PO"):
            lead = B.lead_runner(bases)
            result.append((p, _end(outs, 2 if lead else 1, bases & ~lead, 0)))
        elif hnr:
            result.append((p, _batted(outs, bases, "GA" if face in ("GF", "G3") else "FO")))
        else:
            result.append((p, _batted(outs, bases, face)))
    return result


def _mix(p: float, yes: Weighted, no: Weighted) -> Weighted:
    return [(p * w, o) for w, o in yes] + [((1 - p) * w, o) for w, o in no]


def _one(o: Outcome) -> Weighted:
    return [(1.0, o)]


class _Model:
    """What one decision of ``normal`` needs: the situation and how to score an outcome."""

    def __init__(self, state: State, side: Side) -> None:
        self.state = state
        self.side = side
        self.batting = state.offense == side
        other = state.defense if self.batting else state.offense
        self.other: Side = other
        self.lead = state.score[side] - state.score[other]
        off_left, def_left = halves_to_come(state)
        self.mine, self.theirs = (off_left, def_left) if self.batting else (def_left, off_left)
        self.o, self.b = state.outs, state.bases
        self.balls, self.strikes = state.balls, state.strikes
        self.play = state.play
        self.face = str(state.play.get("code"))
        self.hnr = bool(state.play.get("hnr"))
        self.their_challenge = 0.25 if state.challenges[other] > 0 else 0.0
        """Chance the other side challenges and wins: half its challenges, half reversed."""
        self.reserve = _challenge_reserve(state, side)

    def p(self, code: str) -> float:
        return holds_probability(self.state, self.side, code)

    def value(self, outcomes: Weighted) -> float:
        total = 0.0
        sign = 1 if self.batting else -1
        for weight, (outs, bases, balls, strikes, runs) in outcomes:
            lead = self.lead + sign * runs
            total += weight * (
                win_probability(
                    self.batting, lead, outs, bases, balls, strikes, self.mine, self.theirs
                )
                + _RUN_WEIGHT * sign * (runs + expected_runs(min(outs, 3), bases, balls, strikes))
            )
        return total

    # -------------------------------------------------------------- situations
    @property
    def here(self) -> Outcome:
        return (self.o, self.b, self.balls, self.strikes, 0)

    def after_count(self, o: Outcome | None = None) -> Weighted:
        return _one(_count(o or self.here, self.face))

    def hit_mods(self) -> dict[str, bool]:
        return {m["code"]: bool(m["reversed"]) for m in self.play.get("mods", [])}

    # -------------------------------------------------------------- one action
    def outcomes(self, kind: str, action: Action) -> Weighted | None:
        """What ``action`` leads to, or ``None`` when the model does not cover it."""
        t = action["type"]
        phase = self.play.get("phase")
        if kind == "answer":
            return self._answer(action)
        if kind == "challenge":
            return self._challenge_call(t == "challenge")
        if kind == "ifl":
            return self._ifl(t == "ifl")
        if kind == "choose":
            bit = B.BASE_BITS[action["runner"]]
            return _one(_end(self.o, 2, self.b & ~bit, 0))
        if kind == "pitch" or (kind == "pre" and phase == "pre"):
            return self._pre(t, action.get("card"))
        if kind == "swing":
            return self._swing(t, action.get("card"))
        if kind == "cards":
            card = action.get("card") if t == "play" else None
            if phase == "pitch":
                return self._pitch(card)
            if phase == "bat":
                return self._bat(card, action.get("runner"))
            if phase == "ht":
                return self._ht(card, action.get("runner"))
            if phase == "hit":
                return self._hit(card)
            if phase == "hr":
                return self._home_run(card)
        return None

    def _pre(self, t: str, card: Any) -> Weighted | None:
        o, b = self.o, self.b
        if t in ("pass", "roll"):
            return _one(self.here)
        if card == "BK":
            new, runs = B.advance_all(b)
            return _one(_mid(o, 0, new, runs, self.balls, self.strikes))
        if card == "HNR":
            return _contact(o, b, hnr=True)
        if card == "RNH":
            return self._run_and_hit()
        if card in ("PO1", "PO2"):
            bit = B.FIRST if card == "PO1" else B.SECOND
            new, runs = B.advance_all(b)
            escape = _one(_mid(o, 0, new, runs, self.balls, self.strikes))
            out = _mix(self.their_challenge, _one(self.here),
                       _one(_mid(o, 1, b & ~bit, 0, self.balls, self.strikes)))
            return _mix(self.p("POE"), escape, out)
        return None

    def _run_and_hit(self) -> Weighted:
        o, b = self.o, self.b
        stole = b & 0b011
        moved = ((stole << 1) | (b & B.THIRD)) & 0b111
        caught = self.p("CS2") if stole & B.FIRST else 0.0
        result: Weighted = []
        for face, p in PITCH_ODDS.items():
            if face == "C":
                result.extend((p * w, x) for w, x in _contact(o, b, hnr=True))
            elif face == "F":
                result.append((p, _count(self.here, "F")))
            else:
                safe = _count(_mid(o, 0, moved, 0, self.balls, self.strikes), face)
                out = _count(_mid(o, 1, moved & ~B.SECOND, 0, self.balls, self.strikes), face)
                result.extend([(p * (1 - caught), safe), (p * caught, out)])
        return result

    def _steal(self, frm: int, code: str) -> Weighted:
        o, b = self.o, self.b
        catch = {"SB2": "CS2", "SB3": "CS3", "SBH": "CSH"}[code]
        fail = self.p(catch)
        fail += (1 - fail) * self.their_challenge
        if frm == B.THIRD:
            safe = _mid(o, 0, b & ~frm, 1, self.balls, self.strikes)
        else:
            safe = _mid(o, 0, (b & ~frm) | (frm << 1), 0, self.balls, self.strikes)
        out = _mid(o, 1, b & ~frm, 0, self.balls, self.strikes)
        return [(1 - fail, _count(safe, self.face)), (fail, _count(out, self.face))]

    def _pitch(self, card: Any) -> Weighted | None:
        o, b = self.o, self.b
        if card is None:
            return self.after_count()
        if card in ("SB2", "SB3", "SBH"):
            return self._steal({"SB2": B.FIRST, "SB3": B.SECOND, "SBH": B.THIRD}[card], card)
        if card == "HBP":
            new, runs = B.force(b)
            return _one(_end(o, 0, new, runs))
        if card == "WP":
            new, runs = B.advance_all(b)
            return self.after_count(_mid(o, 0, new, runs, self.balls, self.strikes))
        if card in ("CIB", "SNO"):
            new, runs = B.advance_all(b, batter_to_first=True)
            award = _one(_end(o, 0, new, runs))
            if card == "CIB":
                return award
            return _mix(self.their_challenge, self.after_count(), award)
        if card in ("CO1", "CO3"):
            bit = B.FIRST if card == "CO1" else B.THIRD
            new, runs = B.advance_all(b)
            escape = self.after_count(_mid(o, 0, new, runs, self.balls, self.strikes))
            out = self.after_count(_mid(o, 1, b & ~bit, 0, self.balls, self.strikes))
            return _mix(self.p("POE"), escape, out)
        if card == "FFO":
            return _one(_end(o, 1, b, 0))
        return None

    def _bunt(self, card: str) -> Weighted:
        o, b = self.o, self.b
        new, runs = B.remove_then_force(b, B.lead_runner(b))
        defended = _one(_end(o, 1, new, runs))
        if card == "SB":
            new, runs = B.advance_all(b)
            done = _one(_end(o, 1, new, runs))
        elif card == "SQ1":
            done = _one(_end(o, 1, b & ~B.THIRD, 1))
        else:
            new, runs = B.advance_all(b, batter_to_first=True)
            out, out_runs = B.advance_all(b)
            done = _mix(self.their_challenge, _one(_end(o, 1, out, out_runs)),
                        _one(_end(o, 0, new, runs)))
        return _mix(self.p("BD"), defended, done)

    def _swing(self, t: str, card: Any) -> Weighted | None:
        if t == "roll":
            return _contact(self.o, self.b, self.hnr)
        if card in ("SB", "SQ1", "SQ2"):
            return self._bunt(str(card))
        return None

    def _bat(self, card: Any, runner: Any) -> Weighted | None:
        o, b, code = self.o, self.b, self.face
        plain = _one(_batted(o, b, code))
        error = _one(_error(o, b))
        if not self.batting:
            p_error = self.p("E")
            if card is None:
                return _mix(p_error, error, plain)
            lead = B.lead_runner(b)
            if card == "GDP":
                new, runs = B.advance_all(b & ~lead)
                return _mix(p_error, error, _one(_end(o, 2, new, runs)))
            if card == "GTP":
                return _mix(p_error, error, _one(_end(o, 3, 0, 0)))
            if card == "GBH":
                return _mix(p_error, error, _one(_end(o, 1, b, 0)))
            if card == "RHB":
                new, runs = B.remove_then_force(b, B.BASE_BITS[str(runner)])
                return _one(_end(o, 1, new, runs))
            if card == "IFD":
                return _one(_end(o, 2, b & ~B.FIRST, 0))
            if card in ("A3F", "AHF"):
                out = B.SECOND if card == "A3F" else B.THIRD
                new, runs = B.move(b, B.OUT_TARGETS[code], out_runners=out)
                return _one(_end(o, 2, new, runs))
            return None
        if card is None:
            return plain
        if card == "E":
            return error
        if card == "IOB":
            new, runs = B.remove_then_force(b, B.lead_runner(b))
            return _mix(self.their_challenge, _one(_end(o, 1, new, runs)), error)
        return None

    def _ht(self, card: Any, runner: Any) -> Weighted | None:
        if card is None:
            return [(q, _hit(self.o, self.b, hit, {}, self.hnr)) for hit, q in HIT_ODDS.items()]
        if card == "LDP":
            return _one(_end(self.o, 2, self.b & ~B.BASE_BITS[str(runner)], 0))
        return None

    def _hit(self, card: Any) -> Weighted | None:
        mods = self.hit_mods()
        if card is None:
            return _one(_hit(self.o, self.b, self.face, mods, self.hnr))
        if card in ("A2", "A3H", "AHH", "1H1E"):
            if card == "AHH":
                safe = _hit(self.o, self.b, self.face, {**mods, "AHH": True}, self.hnr)
                out = _hit(self.o, self.b, self.face, {**mods, "AHH": False}, self.hnr)
                return _mix(self.their_challenge, _one(safe), _one(out))
            return _one(_hit(self.o, self.b, self.face, {**mods, card: False}, self.hnr))
        return None

    def _home_run(self, card: Any) -> Weighted:
        new, runs = B.move(self.b, B.HIT_TARGETS["HR"])
        homer = _one(_end(self.o, 0, new, runs))
        if card == "HRC":
            return homer
        foul = _one(_count(self.here, "F"))
        return _mix(0.5 if self.state.challenges[self.other] > 0 else 0.0, foul, homer)

    def _challenge_call(self, challenge: bool) -> Weighted | None:
        o, b, call = self.o, self.b, self.face
        if call in ("B", "SM"):
            stands = _one(_count(self.here, call))
            overturned = _one(_count(self.here, "SM" if call == "B" else "B"))
        elif call == "GA":
            stands = _one(_batted(o, b, "GA"))
            new, runs = B.move(b, (2, 3, 4, 1))
            overturned = _one(_end(o, 0, new, runs))
        elif call == "iH":
            stands = _one(_hit(o, b, "iH", {}, self.hnr))
            new, runs = B.move(b, (2, 3, 4, 0))
            overturned = _one(_end(o, 1, new, runs))
        elif call == "HR":
            new, runs = B.move(b, B.HIT_TARGETS["HR"])
            stands = _one(_end(o, 0, new, runs))
            overturned = _one(_count(self.here, "F"))
        else:
            return None
        return _mix(0.5, overturned, stands) if challenge else stands

    def _ifl(self, declare: bool) -> Weighted:
        o, b = self.o, self.b
        popup = _one(_end(o, 1, b, 0))
        if declare:
            return popup
        mine = self.state.hands[self.side]
        rest = _one(_error(o, b)) if ("E" in mine or "IOB" in mine) else popup
        return _mix(self.p("IFD"), _one(_end(o, 2, b & ~B.FIRST, 0)), rest)

    def _answer(self, action: Action) -> Weighted | None:
        """An answer window: the last card of the chain, and whether to answer it."""
        chain: list[dict[str, Any]] = self.play.get("chain", [])
        if not chain:
            return None
        last = str(chain[-1]["code"])
        root = str(chain[0]["code"])
        t = action["type"]
        card = action.get("card") if t == "play" else None
        o, b = self.o, self.b
        balls, strikes = self.balls, self.strikes
        flip = 0.5 if t == "challenge" else 0.0

        def pitched(x: Outcome) -> Weighted:
            return _one(_count(x, self.face)) if self.play.get("phase") == "pitch" else _one(x)

        if last in ("SB2", "SB3", "SBH"):
            frm = {"SB2": B.FIRST, "SB3": B.SECOND, "SBH": B.THIRD}[last]
            safe, out = _steal(o, b, frm, balls, strikes)
            if card is not None:  # caught stealing, unless the offense's challenge reverses it
                return _mix(self.their_challenge, pitched(safe), pitched(out))
            return _mix(flip, pitched(out), pitched(safe))
        if last in ("CS2", "CS3", "CSH"):
            if root == "RNH":
                return None
            frm = {"CS2": B.FIRST, "CS3": B.SECOND, "CSH": B.THIRD}[last]
            safe, out = _steal(o, b, frm, balls, strikes)
            return _mix(flip, pitched(safe), pitched(out))
        if last == "RNH":
            if card == "CS2":
                return pitched(_mid(o, 1, b & ~B.SECOND, 0, balls, strikes))
            if card == "CS3":
                return pitched(_mid(o, 1, b & ~B.THIRD, 0, balls, strikes))
            return pitched(self.here)
        if last in ("PO1", "PO2", "CO1", "CO3"):
            bit = {"PO1": B.FIRST, "PO2": B.SECOND, "CO1": B.FIRST, "CO3": B.THIRD}[last]
            out = _mid(o, 1, b & ~bit, 0, balls, strikes)
            if card == "POE":
                new, runs = B.advance_all(b)
                return pitched(_mid(o, 0, new, runs, balls, strikes))
            return _mix(flip, pitched(self.here), pitched(out))
        if last in ("SB", "SQ1", "SQ2"):
            new, runs = B.remove_then_force(b, B.lead_runner(b))
            defended = _end(o, 1, new, runs)
            safe_b, safe_r = B.advance_all(b, batter_to_first=True)
            everyone_safe = _end(o, 0, safe_b, safe_r)
            if card == "BD":
                return _mix(self.their_challenge, _one(everyone_safe), _one(defended))
            if last == "SB":
                nb, r = B.advance_all(b)
                return _one(_end(o, 1, nb, r))
            if last == "SQ1":
                return _one(_end(o, 1, b & ~B.THIRD, 1))
            nb, r = B.advance_all(b)
            return _mix(flip, _one(_end(o, 1, nb, r)), _one(everyone_safe))
        if last == "BD":
            new, runs = B.remove_then_force(b, B.lead_runner(b))
            safe_b, safe_r = B.advance_all(b, batter_to_first=True)
            return _mix(flip, _one(_end(o, 0, safe_b, safe_r)), _one(_end(o, 1, new, runs)))
        if last in ("GDP", "GTP", "GBH"):
            if card == "E":
                return _one(_error(o, b))
            if last == "GDP":
                lead = B.lead_runner(b)
                nb, r = B.advance_all(b & ~lead)
                return _one(_end(o, 2, nb, r))
            if last == "GTP":
                return _one(_end(o, 3, 0, 0))
            return _one(_end(o, 1, b, 0))
        if last == "IOB":
            new, runs = B.remove_then_force(b, B.lead_runner(b))
            return _mix(flip, _one(_end(o, 1, new, runs)), _one(_error(o, b)))
        if last == "SNO":
            nb, r = B.advance_all(b, batter_to_first=True)
            return _mix(flip, _one(_end(o, 1, b, 0)), _one(_end(o, 0, nb, r)))
        return None


def _pass_like(action: Action) -> bool:
    return action["type"] in ("pass", "roll")


def normal_scores(engine: Engine, state: State, side: Side, actions: list[Action]) -> list[float]:
    """``normal``'s expected win probability of each action (a card the model does not cover
    scores a hair above passing: cards are replaced at once, so playing one costs nothing)."""
    model = _Model(state, side)
    kind = state.queue[0][1]
    scores: list[float | None] = []
    base: float | None = None
    for action in actions:
        outcomes = model.outcomes(kind, action)
        score = model.value(outcomes) if outcomes is not None else None
        if score is not None and action["type"] == "challenge":
            score -= model.reserve
        if score is not None and action["type"] == "ifl":
            score -= _EPS
        scores.append(score)
        if _pass_like(action) and score is not None:
            base = score
    if base is None:
        base = state_value(state, side)
    return [
        s if s is not None else base + (1e-6 if a["type"] == "play" else 0.0)
        for s, a in zip(scores, actions, strict=True)
    ]


def _best(actions: list[Action], scores: list[float]) -> Action:
    """The best score; on a tie a card rather than a pass (a card played is replaced at once,
    so a card that does nothing now is swapped for a fresh one), else the first."""
    best = 0
    for i in range(1, len(actions)):
        better = scores[i] > scores[best] + _EPS
        tie = abs(scores[i] - scores[best]) <= _EPS
        if better or (tie and actions[i]["type"] == "play" and actions[best]["type"] != "play"):
            best = i
    return actions[best]


def _normal_choice(engine: Engine, state: State, side: Side, actions: list[Action]) -> Action:
    if len(actions) == 1:
        return actions[0]
    return _best(actions, normal_scores(engine, state, side, actions))


# ----------------------------------------------------------------------------- hard


class _Stream:
    """Dice for one play-out, by draw index so that every candidate meets the same faces."""

    __slots__ = ("_rng", "_start", "_u")

    def __init__(self, seed: int, start: int) -> None:
        self._rng = random.Random(seed)
        self._start = start
        self._u: list[float] = []

    def below(self, index: int, n: int) -> int:
        i = index - self._start
        u = self._u
        while i >= len(u):
            u.append(self._rng.random())
        return int(u[i] * n) if i >= 0 else 0


def _play_out(engine: Engine, state: State, side: Side) -> float:
    """Both sides play ``normal`` to the end of the half; the side's win probability there
    (:func:`leaf_value`)."""
    fast.play(engine, state, _normal_choice, half_only=True)  # no events: nobody reads them
    return leaf_value(state, side)


def hard_samples(
    engine: Engine, state: State, side: Side, actions: list[Action], pick: Pick,
    budget: int = DEFAULT_BUDGET, enough: StopCheck | None = None,
    deal: Deal | None = None,
) -> list[list[float]]:
    """Play-out values: one row per determinisation, one column per action, every column of a
    row met with the same cards and dice. Rows are played until there are
    ``budget // len(actions)`` of them or, once there are ``MIN_ROUNDS``, until ``enough()``
    says stop (asked before each further row). A challenge pays the same reserve as in
    ``normal`` (the play-out ends before a kept one is used)."""
    rng = random.Random(pick(1 << 30) * (1 << 30) + pick(1 << 30))
    rounds = max(1, budget // len(actions))
    reserve = _challenge_reserve(state, side)
    costs = [reserve if a["type"] == "challenge" else 0.0 for a in actions]
    sim = Engine(_Stream(0, 0))
    rows: list[list[float]] = []
    for done in range(rounds):
        if enough is not None and done >= MIN_ROUNDS and enough():
            break
        world = (deal or determinise)(state, side, rng)
        seed = rng.getrandbits(64)
        row = []
        for action, cost in zip(actions, costs, strict=True):
            sim.dice = _Stream(seed, world.draw)
            trial = world.clone()
            sim.step_in_place(trial, action, events=False)
            row.append(_play_out(sim, trial, side) - cost)
        rows.append(row)
    return rows


def hard_scores(
    engine: Engine, state: State, side: Side, actions: list[Action], pick: Pick,
    budget: int = DEFAULT_BUDGET, enough: StopCheck | None = None,
) -> list[float]:
    """Mean play-out value of each action (see :func:`hard_samples`)."""
    rows = hard_samples(engine, state, side, actions, pick, budget, enough)
    return [sum(column) / len(rows) for column in zip(*rows, strict=True)]


_CONFIDENCE: Final = 2.0
"""``hard`` leaves ``normal``'s choice only for an action whose paired mean gain over it is
this many standard errors above zero (and at least ``_MIN_GAIN``)."""
_MIN_GAIN: Final = 0.002


def _override(rows: list[list[float]], preferred: int) -> int:
    """The action ``hard`` takes, given play-out rows and ``normal``'s choice."""
    n = len(rows)
    best, best_gain = preferred, 0.0
    for j in range(len(rows[0])):
        if j == preferred:
            continue
        diffs = [row[j] - row[preferred] for row in rows]
        mean = sum(diffs) / n
        if mean < _MIN_GAIN or n < 2:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        clear = var == 0.0 or mean > _CONFIDENCE * math.sqrt(var / n)
        if clear and mean > best_gain:
            best, best_gain = j, mean
    return best


# ----------------------------------------------------------------------------- the levels


def _legal(engine: Engine, state: State, side: Side) -> list[Action]:
    actions = engine.legal_actions(state, side)
    if not actions:
        raise IllegalAction(f"{side} has nothing to do now")
    return actions


def choose_easy(engine: Engine, state: State, side: Side, pick: Pick) -> Action:
    actions = _legal(engine, state, side)
    return actions[pick(len(actions))] if len(actions) > 1 else actions[0]


def choose_normal(engine: Engine, state: State, side: Side, pick: Pick) -> Action:
    return _normal_choice(engine, state, side, _legal(engine, state, side))


def make_hard(
    budget: int = DEFAULT_BUDGET, enough: StopCheck | None = None, deal: Deal | None = None,
) -> Callable[[Engine, State, Side, Pick], Action]:
    """A ``hard`` player with at most ``budget`` play-outs per decision, stopping sooner when
    ``enough()`` says so (see :func:`hard_samples`); ``deal`` is for bench yardsticks only
    (the levels always determinise)."""

    def choose_hard(engine: Engine, state: State, side: Side, pick: Pick) -> Action:
        actions = _legal(engine, state, side)
        if len(actions) == 1:
            return actions[0]
        rows = hard_samples(engine, state, side, actions, pick, budget, enough, deal)
        preferred = actions.index(_normal_choice(engine, state, side, actions))
        return actions[_override(rows, preferred)]

    return choose_hard


choose_hard = make_hard()
"""``hard`` with nothing to read but the position (the server's and the simulator's ``hard``
also read the game so far: :mod:`app.engines.base_on_board.reading`)."""

POLICIES: Final[dict[str, Callable[[Engine, State, Side, Pick], Action]]] = {
    "easy": choose_easy,
    "normal": choose_normal,
    "hard": choose_hard,
}


def choose_action(
    engine: Engine, state: State, side: Side, pick: Pick, level: str = "normal"
) -> Action:
    """One of ``engine.legal_actions(state, side)`` chosen by ``level``; raises
    :class:`IllegalAction` when the side has nothing to do."""
    policy = POLICIES.get(level)
    if policy is None:
        raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")
    return policy(engine, state, side, pick)
