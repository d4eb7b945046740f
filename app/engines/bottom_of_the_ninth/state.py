"""The game state: plain, JSON-shaped data with one place that copies and one that checks it.

It is a mutable slotted class rather than a frozen one because the simulator steps it in place
(see :meth:`Engine.step_in_place`); the public ``apply`` always works on a :meth:`copy`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from app.engines.interface import JSON, InvalidState

PHASES = ("setup", "stare", "pitch", "swing", "race", "cleanup", "over")
RACE_STAGES = ("", "unopposed_home", "unopposed_away", "open", "closing")


@dataclass(slots=True)
class State:
    options: dict[str, Any]
    phase: str = "setup"
    dice_index: int = 0
    lineup: list[str] = field(default_factory=list)
    positions: list[str] = field(default_factory=list)
    starter: str | None = None
    reliever: str | None = None
    pitcher: str | None = None
    benched: bool = False
    fatigue: list[int] = field(default_factory=lambda: [0, 0])
    ceiling: int = 0
    batter_index: int = 0
    balls: int = 0
    strikes: int = 0
    outs: int = 0
    bases: list[bool] = field(default_factory=lambda: [False, False, False])
    runs: int = 0
    home_choice: list[str] | None = None
    away_choice: list[str] | None = None
    active: list[list[Any]] = field(default_factory=list)
    control: int = 0
    pitch_face: str = ""
    record: dict[str, Any] | None = None
    race_stage: str = ""
    race_turn: str = ""
    pitches: int = 0
    plate_appearances: int = 0
    strikeouts: int = 0
    last_reveal: dict[str, Any] | None = None
    winner: str | None = None
    reason: str = ""

    def copy(self) -> State:
        """Deep enough for every field the engine mutates (lists and the pending record)."""
        return State(
            self.options,
            self.phase,
            self.dice_index,
            list(self.lineup),
            list(self.positions),
            self.starter,
            self.reliever,
            self.pitcher,
            self.benched,
            list(self.fatigue),
            self.ceiling,
            self.batter_index,
            self.balls,
            self.strikes,
            self.outs,
            list(self.bases),
            self.runs,
            self.home_choice,
            self.away_choice,
            [list(a) for a in self.active],
            self.control,
            self.pitch_face,
            _deep(self.record),
            self.race_stage,
            self.race_turn,
            self.pitches,
            self.plate_appearances,
            self.strikeouts,
            self.last_reveal,
            self.winner,
            self.reason,
        )

    def to_json(self) -> JSON:
        return {f.name: _deep(getattr(self, f.name)) for f in fields(self)}


def copy_json(value: Any) -> Any:
    """A copy of JSON-shaped data, so nothing handed out of the engine aliases its state."""
    return _deep(value)


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


_TYPES: dict[str, tuple[type, ...]] = {
    "options": (dict,),
    "phase": (str,),
    "dice_index": (int,),
    "lineup": (list,),
    "positions": (list,),
    "starter": (str, type(None)),
    "reliever": (str, type(None)),
    "pitcher": (str, type(None)),
    "benched": (bool,),
    "fatigue": (list,),
    "ceiling": (int,),
    "batter_index": (int,),
    "balls": (int,),
    "strikes": (int,),
    "outs": (int,),
    "bases": (list,),
    "runs": (int,),
    "home_choice": (list, type(None)),
    "away_choice": (list, type(None)),
    "active": (list,),
    "control": (int,),
    "pitch_face": (str,),
    "record": (dict, type(None)),
    "race_stage": (str,),
    "race_turn": (str,),
    "pitches": (int,),
    "plate_appearances": (int,),
    "strikeouts": (int,),
    "last_reveal": (dict, type(None)),
    "winner": (str, type(None)),
    "reason": (str,),
}


def state_from_json(data: Mapping[str, Any], card_ids: frozenset[str]) -> State:
    """Checks shape and ranges; the engine re-validates options separately."""
    if not isinstance(data, Mapping):
        raise InvalidState("state must be an object")
    missing = set(_TYPES) - set(data)
    extra = set(data) - set(_TYPES)
    if missing or extra:
        raise InvalidState(f"state keys wrong: missing {sorted(missing)}, unknown {sorted(extra)}")
    values: dict[str, Any] = {}
    for name, types in _TYPES.items():
        value = data[name]
        if isinstance(value, bool) and bool not in types:
            raise InvalidState(f"state field {name!r} has the wrong type")
        if not isinstance(value, types):
            raise InvalidState(f"state field {name!r} has the wrong type")
        values[name] = _deep(value)
    state = State(**values)
    _check(state, card_ids)
    return state


def _check(s: State, card_ids: frozenset[str]) -> None:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise InvalidState(f"state field {what} is out of range")

    need(s.phase in PHASES, "phase")
    need(s.race_stage in RACE_STAGES, "race_stage")
    need(s.race_turn in ("", "home", "away"), "race_turn")
    need(s.dice_index >= 0, "dice_index")
    need(0 <= s.balls <= 3 and 0 <= s.strikes <= 2 and 0 <= s.outs <= 3, "count")
    need(len(s.bases) == 3 and all(isinstance(b, bool) for b in s.bases), "bases")
    need(len(s.fatigue) == 2 and all(type(r) is int and 0 <= r <= 3 for r in s.fatigue), "fatigue")
    need(s.ceiling in (0, 1), "ceiling")
    need(len(s.lineup) <= 6 and all(c in card_ids for c in s.lineup), "lineup")
    need(len(s.positions) == len(s.lineup), "positions")
    need(0 <= s.batter_index <= max(len(s.lineup), 0), "batter_index")
    for name in ("starter", "reliever", "pitcher"):
        card = getattr(s, name)
        need(card is None or card in card_ids, name)
    for choice in (s.home_choice, s.away_choice):
        need(
            choice is None
            or (
                len(choice) == 2
                and choice[0] in ("inside", "outside")
                and choice[1] in ("high", "low")
            ),
            "choice",
        )
    for ref in s.active:
        need(
            isinstance(ref, list)
            and len(ref) == 2
            and ref[0] in card_ids
            and type(ref[1]) is int
            and ref[1] >= 0,
            "active",
        )
    need(s.winner in (None, "home", "away"), "winner")
    need(s.pitch_face in ("", "B", "S", "C"), "pitch_face")
    need(0 <= s.control <= 6, "control")
    # Fields each phase relies on, so a resumed game cannot fail half-way through an action.
    playing = s.phase not in ("setup", "over")
    need(not playing or (s.pitcher is not None and s.batter_index < len(s.lineup)), "pitcher")
    in_pitch = s.phase in ("pitch", "swing", "race")
    need(in_pitch == (s.record is not None) or s.phase == "over", "record")
    if s.record is not None:
        need(
            isinstance(s.record.get("dice"), list) and isinstance(s.record.get("abilities"), list),
            "record",
        )
    need((s.phase == "race") == (s.race_stage != ""), "race_stage")
    need(s.phase != "swing" or (s.pitch_face != "" and s.control >= 1), "pitch_face")
    need((s.phase == "over") == (s.winner is not None), "winner")
