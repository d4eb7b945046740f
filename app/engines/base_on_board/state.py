"""The game state: plain data that survives a JSON round trip unchanged.

The engine mutates a private copy while applying an action; ``clone`` is hand-written because it
runs once per action on the server and deep copies are the slowest part of a naive engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from app.engines.base_on_board.data import TIERS, Tier
from app.engines.interface import JSON, InvalidOptions, InvalidState, Side

INNINGS_CHOICES = (3, 5, 7, 9)
WINDOW_KINDS = frozenset(
    {"pre", "pitch", "swing", "hit", "choose", "cards", "challenge", "answer", "ifl"}
)


@dataclass(slots=True, frozen=True)
class Options:
    """Game options, validated once at the start (room options map onto these)."""

    innings: int = 9
    tier: Tier = "pro"
    challenges: int = 1
    bats_first: Side = "away"
    fast_play: bool = False
    extra_innings: int = 3

    @staticmethod
    def parse(raw: Mapping[str, Any]) -> Options:
        known = {"innings", "tier", "challenges", "bats_first", "fast_play", "extra_innings"}
        unknown = set(raw) - known
        if unknown:
            raise InvalidOptions(f"unknown options: {sorted(unknown)}")
        innings = raw.get("innings", 9)
        if type(innings) is not int or innings not in INNINGS_CHOICES:
            raise InvalidOptions(f"innings must be one of {INNINGS_CHOICES}, not {innings!r}")
        tier = raw.get("tier", "pro")
        if tier not in TIERS:
            raise InvalidOptions(f"tier must be one of {TIERS}, not {tier!r}")
        challenges = raw.get("challenges", 1)
        if not isinstance(challenges, int) or isinstance(challenges, bool) or not (
            0 <= challenges <= 5
        ):
            raise InvalidOptions("challenges (per side per 3 innings) must be 0 to 5")
        bats_first = raw.get("bats_first", "away")
        if bats_first not in ("home", "away"):
            raise InvalidOptions("bats_first must be 'home' or 'away'")
        fast_play = raw.get("fast_play", False)
        if not isinstance(fast_play, bool):
            raise InvalidOptions("fast_play must be true or false")
        extra = raw.get("extra_innings", 3)
        if not isinstance(extra, int) or isinstance(extra, bool) or not 0 <= extra <= 9:
            raise InvalidOptions("extra_innings must be 0 to 9")
        return Options(
            innings=innings,
            tier=cast(Tier, tier),
            challenges=challenges,
            bats_first=cast(Side, bats_first),
            fast_play=fast_play,
            extra_innings=extra,
        )

    def to_json(self) -> JSON:
        return {
            "innings": self.innings,
            "tier": self.tier,
            "challenges": self.challenges,
            "bats_first": self.bats_first,
            "fast_play": self.fast_play,
            "extra_innings": self.extra_innings,
        }


@dataclass(slots=True)
class State:
    """Everything needed to continue a game. ``play`` and ``rec`` hold the pitch in progress."""

    options: Options
    draw: int = 0
    inning: int = 1
    half: str = "top"
    outs: int = 0
    balls: int = 0
    strikes: int = 0
    bases: int = 0
    score: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    line: dict[str, list[int]] = field(default_factory=lambda: {"home": [], "away": []})
    batters: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    decks: dict[str, list[str]] = field(default_factory=dict)
    discards: dict[str, list[str]] = field(default_factory=dict)
    hands: dict[str, list[str]] = field(default_factory=lambda: {"home": [], "away": []})
    challenges: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    ifl: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    queue: list[list[str]] = field(default_factory=list)
    play: dict[str, Any] = field(default_factory=dict)
    rec: dict[str, Any] | None = None
    pitches: int = 0
    result: dict[str, Any] | None = None
    # Who bats and who fields: plain attributes kept up to date whenever ``half`` is set (see
    # ``_track_sides`` below), because the engine reads them all the time. ``options`` is set
    # once, before ``half``, and never changes.
    offense: Side = field(init=False, repr=False, compare=False)
    defense: Side = field(init=False, repr=False, compare=False)

    def clone(self) -> State:
        return State(
            options=self.options,
            draw=self.draw,
            inning=self.inning,
            half=self.half,
            outs=self.outs,
            balls=self.balls,
            strikes=self.strikes,
            bases=self.bases,
            score=dict(self.score),
            line={k: list(v) for k, v in self.line.items()},
            batters=dict(self.batters),
            decks={k: list(v) for k, v in self.decks.items()},
            discards={k: list(v) for k, v in self.discards.items()},
            hands={k: list(v) for k, v in self.hands.items()},
            challenges=dict(self.challenges),
            ifl=dict(self.ifl),
            queue=[list(w) for w in self.queue],
            play=_copy_json(self.play),
            rec=_copy_json(self.rec) if self.rec is not None else None,
            pitches=self.pitches,
            result=dict(self.result) if self.result is not None else None,
        )

    def to_json(self) -> JSON:
        return {
            "game": "base-on-board",
            "options": self.options.to_json(),
            "draw": self.draw,
            "inning": self.inning,
            "half": self.half,
            "outs": self.outs,
            "balls": self.balls,
            "strikes": self.strikes,
            "bases": self.bases,
            "score": dict(self.score),
            "line": {k: list(v) for k, v in self.line.items()},
            "batters": dict(self.batters),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "discards": {k: list(v) for k, v in self.discards.items()},
            "hands": {k: list(v) for k, v in self.hands.items()},
            "challenges": dict(self.challenges),
            "ifl": dict(self.ifl),
            "queue": [list(w) for w in self.queue],
            "play": _copy_json(self.play),
            "rec": _copy_json(self.rec) if self.rec is not None else None,
            "pitches": self.pitches,
            "result": dict(self.result) if self.result is not None else None,
        }

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> State:
        if not isinstance(raw, Mapping) or raw.get("game") != "base-on-board":
            raise InvalidState("not a Base on Board state")
        try:
            state = State(
                options=Options.parse(raw["options"]),
                draw=int(raw["draw"]),
                inning=int(raw["inning"]),
                half=str(raw["half"]),
                outs=int(raw["outs"]),
                balls=int(raw["balls"]),
                strikes=int(raw["strikes"]),
                bases=int(raw["bases"]),
                score={k: int(v) for k, v in raw["score"].items()},
                line={k: [int(x) for x in v] for k, v in raw["line"].items()},
                batters={k: int(v) for k, v in raw["batters"].items()},
                decks={k: [str(c) for c in v] for k, v in raw["decks"].items()},
                discards={k: [str(c) for c in v] for k, v in raw["discards"].items()},
                hands={k: [str(c) for c in v] for k, v in raw["hands"].items()},
                challenges={k: int(v) for k, v in raw["challenges"].items()},
                ifl={k: int(v) for k, v in raw["ifl"].items()},
                queue=[[str(x) for x in w] for w in raw["queue"]],
                play=_copy_json(dict(raw["play"])),
                rec=_copy_json(dict(raw["rec"])) if raw["rec"] is not None else None,
                pitches=int(raw["pitches"]),
                result=dict(raw["result"]) if raw["result"] is not None else None,
            )
        except (KeyError, TypeError, ValueError, AttributeError, InvalidOptions) as exc:
            raise InvalidState(f"malformed Base on Board state: {exc}") from exc
        sides = {"home", "away"}
        for name in ("score", "line", "batters", "hands", "challenges", "ifl"):
            if set(getattr(state, name)) != sides:
                raise InvalidState(f"malformed Base on Board state: {name} needs home and away")
        if set(state.decks) != {"offense", "defense", "challenge"} or set(state.discards) != set(
            state.decks
        ):
            raise InvalidState("malformed Base on Board state: decks")
        for entry in state.queue:
            if len(entry) != 2 or entry[0] not in sides or entry[1] not in WINDOW_KINDS:
                raise InvalidState(f"malformed Base on Board state: queue entry {entry!r}")
        if state.inning < 1 or state.draw < 0:
            raise InvalidState("malformed Base on Board state: inning or draw out of range")
        if state.half not in ("top", "bottom") or not 0 <= state.bases <= 7:
            raise InvalidState("malformed Base on Board state: half or bases out of range")
        if not 0 <= state.outs <= 3 or not 0 <= state.balls <= 3 or not 0 <= state.strikes <= 2:
            raise InvalidState("malformed Base on Board state: count out of range")
        return state


def _track_sides(cls: type[State]) -> None:
    """Turns ``half`` into a property over its slot whose setter also sets ``offense`` and
    ``defense``: the team batting first bats in the top half."""

    def sync(state: State) -> None:
        first = state.options.bats_first
        second: Side = "home" if first == "away" else "away"
        if half_slot.__get__(state) == "top":
            state.offense, state.defense = first, second
        else:
            state.offense, state.defense = second, first

    def slot_property(slot: Any) -> property:
        def put(state: State, value: Any) -> None:
            slot.__set__(state, value)
            sync(state)

        return property(slot.__get__, put)  # reading stays the slot's own (C) getter

    half_slot = cls.__dict__["half"]
    type.__setattr__(cls, "half", slot_property(half_slot))


_track_sides(State)


def _copy_json(value: Any) -> Any:
    """Copies the nested dict/list structure of ``play`` and ``rec`` (leaves are immutable).

    Leaves are taken as they are without a call each: most values are leaves."""
    if isinstance(value, dict):
        return {
            k: _copy_json(v) if isinstance(v, _CONTAINERS) else v for k, v in value.items()
        }
    if isinstance(value, list):
        return [_copy_json(v) if isinstance(v, _CONTAINERS) else v for v in value]
    return value


_CONTAINERS = (dict, list)
