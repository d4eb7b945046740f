"""Helpers to put a Base on Board game into an exact situation and play it step by step.

``situation(...)`` builds a real game (``Engine.new_game``, shuffled from a seeded source), then
switches the engine to a :class:`ScriptedDice` so that every later roll is exactly the face a test
names, and sets the runners, outs, count, hands and challenges it asks for. The state is left at
the start of a pitch: the offense's pre-pitch window, then the defense's pitch.

``Table`` drives the game only through the public interface (``legal_actions`` / ``apply``):
``roll("C")`` passes every open window up to the next roll and rolls that face; ``act(type, ...)``
passes windows until the action is legal for the side whose turn it is, then applies it. Every
list of legal actions met on the way is kept in ``seen``, so a test can assert that a card was
never offered.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.engines.base_on_board import Engine, State
from app.engines.base_on_board.data import BAT_DIE, HIT_DIE, PITCH_DIE
from app.engines.dice import ScriptedDice, SeededDice
from app.engines.interface import PITCH_EVENT, SIDES, Action, Event, Side

DIE_FACES: dict[str, tuple[str, ...]] = {"pitch": PITCH_DIE, "swing": BAT_DIE, "hit": HIT_DIE}
DIE_NAMES: dict[str, str] = {"pitch": "pitch", "swing": "bat", "hit": "hit"}
MANDATORY = ("pitch", "swing", "hit", "choose")


def bits(text: str) -> int:
    """"101" (first, second, third) -> 0b101."""
    assert len(text) == 3 and set(text) <= {"0", "1"}, text
    return int(text[0]) | int(text[1]) << 1 | int(text[2]) << 2


def text(value: int) -> str:
    return f"{value & 1}{(value >> 1) & 1}{(value >> 2) & 1}"


ALL_BASES: tuple[str, ...] = tuple(text(b) for b in range(8))


class Table:
    """A game in progress, driven only through ``legal_actions`` and ``apply``."""

    def __init__(self, engine: Engine, state: State, dice: ScriptedDice) -> None:
        self.engine = engine
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        self.seen: list[Action] = []

    # ------------------------------------------------------------------ looking

    @property
    def offense(self) -> Side:
        return self.state.offense

    @property
    def defense(self) -> Side:
        return self.state.defense

    def head(self) -> tuple[Side, str] | None:
        if self.state.result is not None or not self.state.queue:
            return None
        side, kind = self.state.queue[0]
        return side, kind  # type: ignore[return-value]

    def legal(self, side: Side | None = None) -> list[Action]:
        if side is None:
            head = self.head()
            if head is None:
                return []
            side = head[0]
        return self.engine.legal_actions(self.state, side)

    def records(self) -> list[dict[str, Any]]:
        return [e.data for e in self.events if e.type == PITCH_EVENT]

    def record(self) -> dict[str, Any]:
        """The one pitch record emitted so far (asserts there is exactly one)."""
        records = self.records()
        assert len(records) == 1, records
        return records[0]

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e.data for e in self.events if e.type == kind]

    def offered(self, card: str) -> bool:
        return any(a.get("type") == "play" and a.get("card") == card for a in self.seen)

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action) -> list[Event]:
        self.state, events = self.engine.apply(self.state, action)
        self.events.extend(events)
        return events

    def _look(self) -> tuple[Side, str, list[Action]]:
        head = self.head()
        assert head is not None, "the game is over"
        side, kind = head
        actions = self.legal(side)
        self.seen.extend(actions)
        return side, kind, actions

    def _pass(self, side: Side, actions: list[Action], wanted: str) -> None:
        action = {"side": side, "type": "pass"}
        if action not in actions:
            raise AssertionError(f"stuck before {wanted}: {side} may only {actions}")
        self.apply(action)

    def roll(self, face: str) -> list[Event]:
        """Passes open windows up to the next roll, scripts ``face`` and rolls it."""
        while True:
            side, kind, actions = self._look()
            roll = {"side": side, "type": "roll"}
            if roll in actions:
                faces = DIE_FACES[kind]
                assert face in faces, f"{face} is not a face of the {kind} die"
                self.dice.push(faces.index(face))
                return self.apply(roll)
            self._pass(side, actions, f"roll {face}")

    def act(self, kind: str, **choices: Any) -> list[Event]:
        """Passes windows until ``{"type": kind, **choices}`` is legal for the side to move."""
        while True:
            side, _, actions = self._look()
            action = {"side": side, "type": kind, **choices}
            if action in actions:
                return self.apply(action)
            self._pass(side, actions, str(action))

    def play(self, card: str, **choices: Any) -> list[Event]:
        return self.act("play", card=card, **choices)

    def run(self, *steps: str | dict[str, Any]) -> Table:
        """Each step is a die face (rolled) or ``{"type": ..., ...}`` (acted); then settles."""
        for step in steps:
            if isinstance(step, str):
                self.roll(step)
            else:
                choices = {k: v for k, v in step.items() if k != "type"}
                self.act(step["type"], **choices)
        self.settle()
        return self

    def settle(self) -> Table:
        """Passes every open window until a roll/choice is due or the game is over."""
        while True:
            head = self.head()
            if head is None:
                return self
            side, kind, actions = self._look()
            if kind in MANDATORY:
                return self
            self._pass(side, actions, "settle")

    def pass_until_pitch_ends(self) -> Table:
        """Passes (and never rolls) until one more pitch record exists."""
        start = len(self.records())
        while len(self.records()) == start:
            side, _, actions = self._look()
            self._pass(side, actions, "the end of the pitch")
        return self


def situation(
    bases: str = "000",
    outs: int = 0,
    balls: int = 0,
    strikes: int = 0,
    offense_hand: Iterable[str] = (),
    defense_hand: Iterable[str] = (),
    challenges: int | tuple[int, int] = 0,
    inning: int = 1,
    half: str = "top",
    score: tuple[int, int] = (0, 0),
    ifl: int | None = None,
    **options: Any,
) -> Table:
    """A game at the start of a pitch in the given situation.

    ``score`` is (team batting first, team batting second); ``challenges`` is one number for
    both sides or (offense, defense). Options default to Pro, 3 innings, fast_play off.
    """
    opts: dict[str, Any] = {"tier": "pro", "innings": 3, **options}
    engine = Engine(SeededDice(7))
    state = engine.new_game(opts)
    dice = ScriptedDice()
    engine.dice = dice
    first = state.options.bats_first
    second: Side = "home" if first == "away" else "away"
    state.inning = inning
    state.half = half
    state.line = {
        first: [0] * inning,
        second: [0] * (inning - 1 + (half == "bottom")),
    }
    state.score = {first: score[0], second: score[1]}
    if score[0]:
        state.line[first][0] = score[0]
    if score[1]:
        state.line[second][0] = score[1]
    state.batters = {first: 1, second: 1 if half == "bottom" else 0}
    state.bases = bits(bases)
    state.outs = outs
    state.balls = balls
    state.strikes = strikes
    offense, defense = state.offense, state.defense
    # The dealt hands go back to their decks so the card totals stay whole.
    state.decks["offense"].extend(state.hands[first])
    state.decks["defense"].extend(state.hands[second])
    state.hands = {offense: list(offense_hand), defense: list(defense_hand)}
    for code in state.hands[offense]:
        _take(state.decks["offense"], code)
    for code in state.hands[defense]:
        _take(state.decks["defense"], code)
    if isinstance(challenges, int):
        state.challenges = {offense: challenges, defense: challenges}
    else:
        state.challenges = {offense: challenges[0], defense: challenges[1]}
    if ifl is not None:
        state.ifl = {side: ifl for side in SIDES}
    assert state.rec is not None
    state.rec.update(
        inning=inning, half=half, offense=offense, defense=defense,
        batter=state.batters[offense], balls=balls, strikes=strikes, outs=outs, bases=bases,
    )
    state.play = {"phase": "pre", "chain": []}
    state.queue = [[offense, "pre"], [defense, "pitch"]]
    return Table(engine, state, dice)


def _take(deck: list[str], code: str) -> None:
    """Removes one copy of ``code`` from a deck if it has one (tests may hand out more)."""
    if code in deck:
        deck.remove(code)


def challenge_deck(table: Table, *cards: str) -> None:
    """Puts ``cards`` on top of the challenge deck: the first named is drawn first."""
    deck = table.state.decks["challenge"]
    for card in cards:
        deck.remove(card)
    deck.extend(reversed(cards))
