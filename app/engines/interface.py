"""The one interface both rule engines share, so the server, bots and fuzzers treat them alike.

The shape follows python-chess and boardgame.io: a state is plain data, ``legal_actions`` is the
single source of what may happen next, ``apply`` refuses anything not in it, and ``view`` is the
only way state leaves an engine.

Actions are JSON objects (``dict``) so that the same value travels from the browser, through the
server's validation, into the engine unchanged. Every action has ``"side"`` (``"home"`` or
``"away"``) and ``"type"``; other keys are the action's choices (a card code, a runner's base...).
An action is legal exactly when it is equal to one of the dicts ``legal_actions`` returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

Side = Literal["home", "away"]
SIDES: tuple[Side, Side] = ("home", "away")

JSON = dict[str, Any]
Action = dict[str, Any]


def other_side(side: Side) -> Side:
    return "away" if side == "home" else "home"


def parse_side(value: object) -> Side:
    """Checks an untrusted side name; the engine never trusts what a client calls itself."""
    if value == "home":
        return "home"
    if value == "away":
        return "away"
    raise IllegalAction(f"unknown side {value!r}")


class EngineError(Exception):
    """Base of every error an engine raises on bad input. ``code`` is stable for clients."""

    code = "engine_error"


class IllegalAction(EngineError):
    """The action is not among ``legal_actions`` for its side; nothing changed."""

    code = "illegal_action"


class InvalidOptions(EngineError):
    """Game options that cannot start a game."""

    code = "invalid_options"


class InvalidState(EngineError):
    """A serialised state that does not describe a game this engine can continue."""

    code = "invalid_state"


class InvalidCardData(EngineError):
    """A card data file that fails validation when loaded."""

    code = "invalid_card_data"


class Event:
    """Something that happened, stored once with who may see which part of it.

    ``data`` is public: every viewer, spectators included, sees it. ``private`` maps a side to
    extra fields only that side's members see (a card drawn into its hand, its own hidden
    choice). A later event reveals what becomes public (a stare-down reveal, the seed).

    A plain slotted class rather than a frozen dataclass: an engine creates hundreds of events a
    game, and a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``
    (about twice the cost). The fields are ``Final``, so mypy still refuses reassigning one;
    equality and ``repr`` are the dataclass's (same class, same fields).
    """

    __slots__ = ("data", "private", "type")
    __match_args__ = ("type", "data", "private")

    def __init__(
        self, type: str, data: JSON | None = None, private: Mapping[str, JSON] | None = None
    ) -> None:
        self.type: Final[str] = type
        self.data: Final[JSON] = {} if data is None else data
        self.private: Final[Mapping[str, JSON]] = {} if private is None else private

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event) or other.__class__ is not Event:
            return NotImplemented
        return (self.type, self.data, self.private) == (other.type, other.data, other.private)

    __hash__ = None  # type: ignore[assignment]  # its dicts are unhashable, as before

    def __repr__(self) -> str:
        return f"Event(type={self.type!r}, data={self.data!r}, private={self.private!r})"

    def for_viewer(self, side: Side | None) -> JSON:
        """The event as one viewer may see it; ``None`` is a spectator."""
        body: JSON = {"type": self.type, **self.data}
        if side is not None and side in self.private:
            body.update(self.private[side])
        return body

    def to_json(self) -> JSON:
        return {"type": self.type, "data": self.data, "private": dict(self.private)}

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Event:
        return Event(str(raw["type"]), dict(raw.get("data", {})), dict(raw.get("private", {})))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``winner`` is ``None`` for a tie."""

    winner: Side | None
    score: Mapping[str, int]
    reason: str

    def to_json(self) -> JSON:
        return {"winner": self.winner, "score": dict(self.score), "reason": self.reason}


class DiceSource(Protocol):
    """Where every random number an engine uses comes from.

    ``below(index, n)`` returns an integer in ``[0, n)`` for draw number ``index`` of the game.
    The engine keeps the next index in its state and uses each index exactly once, so a
    stateless source (the server's HMAC dice) gives the same game after a restart, and a
    recorded game can be re-derived roll by roll. Shuffles draw from the same stream.
    """

    def below(self, index: int, n: int) -> int: ...


S = TypeVar("S")


class GameEngine(Protocol, Generic[S]):
    """What the server needs from a rule engine. ``S`` is the engine's own state type."""

    name: str
    rules_version: str
    """Which edition of the rules this engine plays. A game stores the version it started
    under; a change that can alter a game in progress (a rule, a card, an order of draws)
    bumps it, so a game is never silently carried on under rules it did not start with (see
    docs/rules/README.md)."""

    def new_game(self, options: Mapping[str, Any]) -> S:
        """A game at its start. Raises :class:`InvalidOptions` for options it cannot play."""
        ...

    def start(self, options: Mapping[str, Any]) -> tuple[S, list[Event]]:
        """``new_game`` and the events of its set-up (hands dealt privately, say); an engine
        whose set-up shows nothing returns no events."""
        ...

    def legal_actions(self, state: S, side: Side) -> list[Action]:
        """Every action ``side`` may take now (empty when it is not that side's move)."""
        ...

    def apply(self, state: S, action: Mapping[str, Any]) -> tuple[S, list[Event]]:
        """The state after ``action`` and what happened. ``state`` itself is never changed.

        Raises :class:`IllegalAction` for anything not in ``legal_actions``.
        """
        ...

    def view(self, state: S, side: Side | None) -> JSON:
        """The state as ``side`` may see it (``None``: a spectator), JSON-ready."""
        ...

    def views(
        self, state: S, legal: Mapping[Side, list[Action]] | None = None
    ) -> dict[Side | None, JSON]:
        """``view`` for each side and for a spectator (``None``), equal to those three calls.
        A commit sends all three, so an engine may build what they share once. ``legal``:
        each side's ``legal_actions(state, side)``, when the caller has them already."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game goes on."""
        ...

    def timeout_action(
        self, state: S, side: Side, legal: list[Action] | None = None
    ) -> Action | None:
        """What the server does for ``side`` when its timer runs out (pass, or roll).
        ``legal``: ``legal_actions(state, side)``, when the caller has it already (a commit
        works out each side's deadline from the legal actions it just computed)."""
        ...

    def to_json(self, state: S) -> JSON:
        """Lossless: ``from_json(to_json(s))`` continues exactly as ``s``."""
        ...

    def from_json(self, data: Mapping[str, Any]) -> S:
        """Raises :class:`InvalidState` for data that is not a state of this engine."""
        ...


def views_one_by_one(engine: GameEngine[S], state: S) -> dict[Side | None, JSON]:
    """``GameEngine.views`` for an engine whose views share too little to build together."""
    return {side: engine.view(state, side) for side in (*SIDES, None)}


Pick = Callable[[int], int]
"""A random source for a computer player: ``pick(n)`` is a number in ``[0, n)``."""

ComputerPolicy = Callable[[Any, Any, Side, Pick], Action]
"""A computer player for one game kind: ``(engine, state, side, pick)`` → one of
``engine.legal_actions(state, side)``. It lives beside its engine."""

StopCheck = Callable[[], bool]
"""Asked by a thinking computer player between rounds of its search: ``True`` to stop. The
server builds it from its clock (engines have none)."""

TimedPolicy = Callable[[StopCheck, Sequence[Action]], ComputerPolicy]
"""A computer player that thinks for as long as it is given: the stop check and every action
applied in the game so far, in order (what the player has seen happen) → the player."""


PITCH_EVENT = "pitch"
"""Type of the event each engine emits once per completed pitch, its ``data`` a pitch record.

Keys every engine's record has (the server stores them as typed columns of the ``pitch`` table;
an engine may add keys of its own, which the server keeps in a JSON column):

- ``inning`` (int), ``half`` ("top" | "bottom"), ``offense`` and ``defense`` (side names),
- ``batter`` (int: the batting side's plate-appearance number in the game, from 1),
- ``batter_card`` / ``pitcher`` (str | None: card ids where the game has them),
- ``balls``, ``strikes``, ``outs`` (before), ``bases`` (before: "000".."111", first base first),
- ``balls_after``, ``strikes_after``, ``outs_after``, ``bases_after``,
- ``dice`` (list of {"die": name, "face": str}), in the order rolled,
- ``result`` (str: the rulebook's code for what the pitch ended as, e.g. "B", "SM", "HT:L2"),
- ``pa_result`` (str | None: how the plate appearance ended on this pitch, e.g. "K", "BB", "1B"),
- ``runs`` (int: runs scored on this pitch), ``rbi`` (int),
- ``cards`` (list of {"side": side, "code": str}),
- ``challenge`` ({"side", "call", "result": "confirm" | "reverse"} | None).
"""
