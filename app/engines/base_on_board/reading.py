"""Reading the other hand: what one side learns about the other side's cards over a half.

``hard`` deals the cards it cannot see before each play-out. Dealt uniformly from the unseen
cards (:func:`policy.determinise`) it ignores two things a player at the table knows:

* **Choices.** A side that passed in a window where it could have played a card that helped
  it probably holds no such card. With ``normal`` as the model of the other player (it plays
  every card that scores at least as well as passing, :func:`policy.normal_scores`), a pass
  or a play rules out, for every card it then held, each code that would have scored better.
  Each card the other side holds is a *slot* with the set of codes it cannot be; a slot is
  added when the side draws (its hand size grows) and goes when it plays.
* **Counting.** Every card played is shown and lies in its deck's discards until that deck is
  reshuffled (the view's discard size falls), as does this side's own hand, thrown away at the
  end of a half. None of them can be in the other hand or the pile.

The reading is built from what the side is shown: the positions before each action of the
half, read through what that side's view has (the public situation, sizes, its own hand) and
the actions themselves, which are public (a card played is shown; a pass is seen). When the
other side does something the model says it would not (it plays a code a slot had ruled out),
the model is wrong about this player, and the slots forget what they had ruled out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from app.engines.base_on_board.data import CHALLENGE_DECK
from app.engines.base_on_board.engine import Engine
from app.engines.base_on_board.policy import (
    DEFAULT_BUDGET,
    TIMED_BUDGET,
    StopCheck,
    _unseen,
    determinise,
    make_hard,
    normal_scores,
)
from app.engines.base_on_board.state import State
from app.engines.interface import Action, ComputerPolicy, Pick, Side, TimedPolicy

_TIE: Final = 1e-9
_DECKS: Final = ("offense", "defense")


class HandReading:
    """One side's reading of the other hand over the current half (see the module doc)."""

    __slots__ = ("_half", "_known", "_mine", "_mine_deck", "_sizes", "_slots", "side")

    def __init__(self, side: Side) -> None:
        self.side: Side = side
        self._half: tuple[int, str] | None = None
        self._slots: list[frozenset[str]] = []
        """One per card of the other hand: the codes it cannot be."""
        self._known: dict[str, list[str]] = {deck: [] for deck in _DECKS}
        """Cards this side knows lie in each deck's discards."""
        self._sizes: dict[str, int] = {deck: 0 for deck in _DECKS}
        self._mine: list[str] = []
        self._mine_deck = "offense"

    @property
    def slots(self) -> list[frozenset[str]]:
        return list(self._slots)

    @property
    def known_discards(self) -> dict[str, list[str]]:
        return {deck: list(cards) for deck, cards in self._known.items()}

    def observe(
        self, engine: Engine, state: State, actor: Side, action: Action, infer: bool = True
    ) -> None:
        """``actor`` takes ``action`` in ``state`` (the position before it). Reads only what
        this side's view shows: the situation, the sizes, its own hand, and the action.
        ``infer=False`` only counts cards: for a half that is over, whose slots are thrown
        away anyway."""
        me = self.side
        other = self._catch_up(state)
        kind = action.get("type")
        code = action.get("card")
        if kind == "play" and isinstance(code, str):
            deck = "offense" if actor == state.offense else "defense"
            if code != "RNH":  # held until its pitch ends, then discarded unseen (D16)
                self._known[deck].append(code)
            if actor == me:
                if code in self._mine:
                    self._mine.remove(code)
                return
        if actor != other or kind not in ("pass", "roll", "play"):
            return
        if kind == "play":
            self._played(str(code))
        if not infer:
            return
        ruled_out = self._better_than(engine, state, other, action)
        if ruled_out:
            self._slots = [slot | ruled_out for slot in self._slots]

    def _catch_up(self, state: State) -> Side:
        """Brings the reading to ``state`` (a new half, a reshuffle, cards drawn); returns the
        other side. Asked again for the same position it changes nothing."""
        me = self.side
        other = state.defense if me == state.offense else state.offense
        half = (state.inning, state.half)
        if half != self._half:
            if self._half is not None:
                self._known[self._mine_deck].extend(self._mine)  # thrown away at the half's end
            self._half = half
            self._slots = []
        for deck in _DECKS:
            size = len(state.discards[deck])
            if size < self._sizes[deck] or size < len(self._known[deck]):
                self._known[deck] = []  # reshuffled into the pile
            self._sizes[deck] = size
        self._mine = list(state.hands[me])
        self._mine_deck = "offense" if me == state.offense else "defense"
        self._resize(len(state.hands[other]))
        return other

    def _resize(self, size: int) -> None:
        """Fresh slots for cards drawn; the most ruled-out slots go first when the hand shrank
        without a play this side saw (a held card returned, a hand thrown)."""
        slots = self._slots
        while len(slots) < size:
            slots.append(frozenset())
        if len(slots) > size:
            slots.sort(key=len)
            del slots[size:]

    def _played(self, code: str) -> None:
        """The slot that held ``code`` goes: of those that could, the one that had ruled out
        most (what is left then claims least). If none could, the model was wrong."""
        could = [i for i, slot in enumerate(self._slots) if code not in slot]
        if not could:
            self._slots = [frozenset() for _ in self._slots[1:]]
            return
        del self._slots[max(could, key=lambda i: len(self._slots[i]))]

    def _better_than(
        self, engine: Engine, state: State, other: Side, action: Action
    ) -> frozenset[str]:
        """The codes that, held by ``other`` now, ``normal`` would have played rather than
        ``action``: each is tried alone (with the card played, for a play) in a world dealt
        from what this side sees."""
        world = determinise(state, self.side, random.Random(0))
        deck = "offense" if other == state.offense else "defense"
        chosen = action.get("card") if action.get("type") == "play" else None
        passed = chosen is None
        ruled: set[str] = set()
        for code in dict.fromkeys(_unseen(state, self.side, deck)):
            if code == chosen:
                continue
            world.hands[other] = [code] if passed else [code, str(chosen)]
            actions = engine.legal_actions(world, other)
            mine = [i for i, a in enumerate(actions) if a.get("card") == code]
            if not mine or action not in actions:
                continue
            scores = normal_scores(engine, world, other, actions)
            taken = scores[actions.index(action)]
            best = max(scores[i] for i in mine)
            if best > taken + _TIE or (passed and best >= taken - _TIE):
                ruled.add(code)
        return frozenset(ruled)

    def deal(self, state: State, side: Side, rng: random.Random) -> State:
        """As :func:`policy.determinise`, with the other hand dealt slot by slot (each from the
        codes it can be) and the known discards kept out of the hand and the pile. Falls back
        to the uniform deal when what it knows does not fit the position."""
        if side != self.side:
            return determinise(state, side, rng)
        other = self._catch_up(state)
        new = state.clone()
        for deck in _DECKS:
            pool = _unseen(new, side, deck)
            known = []
            for code in self._known[deck]:
                if code in pool:
                    pool.remove(code)
                    known.append(code)
            rng.shuffle(pool)
            holder = new.offense if deck == "offense" else new.defense
            hand_size = len(new.hands[other]) if holder == other else 0
            if len(pool) != hand_size + len(new.decks[deck]) + len(new.discards[deck]) - len(known):
                return determinise(state, side, rng)
            if holder == other:
                new.hands[other] = self._fill(pool, hand_size)
            size = len(new.decks[deck])
            new.decks[deck] = pool[:size]
            new.discards[deck] = pool[size:] + known
        challenge = list(CHALLENGE_DECK)
        rng.shuffle(challenge)
        size = len(new.decks["challenge"])
        new.decks["challenge"] = challenge[:size]
        new.discards["challenge"] = challenge[size:]
        return new

    def _fill(self, pool: list[str], size: int) -> list[str]:
        """``size`` cards taken from the shuffled ``pool``, the most ruled-out slot first,
        each the first card it can be (any card if none is left that it can be)."""
        slots = sorted(self._slots, key=len, reverse=True)[:size]
        slots += [frozenset()] * (size - len(slots))
        hand: list[str] = []
        for slot in slots:
            at = next((i for i, code in enumerate(pool) if code not in slot), 0)
            hand.append(pool.pop(at))
        return hand


def read_game(
    engine: Engine, state: State, side: Side, past: Sequence[Action]
) -> HandReading | None:
    """``side``'s reading of the game that ``past`` (every action applied since the start, in
    order) made, replayed from the start with ``engine``'s dice (which must answer by draw
    index, as the server's do); ``None`` when the replay does not lead to ``state`` (then
    nothing is known beyond the position). Only the current half
    is inferred from (the earlier halves' slots are thrown away with their hands)."""
    replay, _ = engine.start(state.options.to_json())
    now = (state.inning, state.half)
    reading = HandReading(side)
    for action in past:
        actor = action.get("side")
        if actor not in ("home", "away") or replay.result is not None:
            return None
        if action not in engine.legal_actions(replay, actor):
            return None
        reading.observe(engine, replay, actor, action, infer=(replay.inning, replay.half) == now)
        engine.step_in_place(replay, action, events=False)
    if engine.to_json(replay) != engine.to_json(state):
        return None
    reading._catch_up(state)
    return reading


class ReadingHard:
    """``hard`` that deals the other hand by a :class:`HandReading` of the game, kept for the
    side it plays. ``observe`` must be told every action of the game, both sides', before it
    is applied (the simulator does; the server replays the game, :func:`reading_hard`).
    ``stops`` makes each decision's stop check (the simulator's clock), else ``budget``
    play-outs decide."""

    def __init__(
        self, budget: int = DEFAULT_BUDGET, stops: Callable[[], StopCheck] | None = None
    ) -> None:
        self.budget = budget
        self.stops = stops
        self.readings: dict[Side, HandReading] = {}

    def new_game(self) -> None:
        self.readings = {}

    def seat(self, side: Side) -> None:
        """Read for ``side`` from now on (reading costs a little; only seats read)."""
        if side not in self.readings:
            self.readings[side] = HandReading(side)

    def observe(self, engine: Engine, state: State, actor: Side, action: Action) -> None:
        for reading in self.readings.values():
            reading.observe(engine, state, actor, action)

    def __call__(self, engine: Engine, state: State, side: Side, pick: Pick) -> Action:
        self.seat(side)
        enough = self.stops() if self.stops is not None else None
        player = make_hard(self.budget, enough, deal=self.readings[side].deal)
        return player(engine, state, side, pick)


def reading_hard(enough: StopCheck, past: Sequence[Action]) -> ComputerPolicy:
    """The server's ``hard``: reads the game ``past`` made (:func:`read_game`, replayed when
    it is asked to move, so a restart or another process loses nothing) and thinks until
    ``enough()``. A replay that does not lead to the position deals uniformly."""

    def choose(engine: Engine, state: State, side: Side, pick: Pick) -> Action:
        reading = read_game(engine, state, side, past)
        deal = reading.deal if reading is not None else determinise
        return make_hard(TIMED_BUDGET, enough, deal=deal)(engine, state, side, pick)

    return choose


TIMED_POLICIES: Final[dict[str, TimedPolicy]] = {"hard": reading_hard}
"""The levels that think for as long as they are given: level -> (stop check, the game's
actions so far -> player)."""
