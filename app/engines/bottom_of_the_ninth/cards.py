"""The card set as data, checked once on load so that a typo fails loudly instead of mid-game.

Cards have no code of their own: each ability is a small record of the declarative vocabulary
(``modify``, ``reroll``, ``turn``, ``speed``, ``defense``, ``unopposed``) that
:mod:`.abilities` interprets. Validation names the card and the field at fault, because the
people editing ``cards.json`` are designers, not the engine's authors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.engines.interface import InvalidCardData

CARDS_PATH = Path(__file__).with_name("cards.json")

DIRECTIONS: tuple[str, str] = ("inside", "outside")
LOCATIONS: tuple[str, str] = ("high", "low")
PITCH_FACES: tuple[str, str, str] = ("B", "S", "C")
POSITIONS: tuple[str, ...] = ("C", "1B", "2B", "3B", "SS", "LF", "CF", "RF")
INFIELD: frozenset[str] = frozenset({"1B", "2B", "3B", "SS"})
OUTFIELD: frozenset[str] = frozenset({"LF", "CF", "RF"})
FLEX_POSITIONS: dict[str, frozenset[str]] = {
    "infield": INFIELD,
    "outfield": OUTFIELD,
    "utility": INFIELD | OUTFIELD,
}
USAGES: tuple[str, ...] = ("starter", "reliever", "either")
RESULTS: tuple[str, ...] = ("ball", "strike", "foul", "contact")

BATTER_TRIGGERS = frozenset({"inside", "outside", "high", "low", "mvp", "always"})
PITCHER_TRIGGERS = frozenset({"inside", "outside", "high", "low", "ace", "always"})
TRAITS = frozenset({"speed", "defense", "unopposed"})
CONDITION_KEYS = frozenset({"pitch", "control", "swing", "balls", "strikes", "outs", "bases_empty"})
REROLL_DICE = frozenset({"control", "pitch", "swing"})
MODIFY_DICE = frozenset({"control", "swing"})


@dataclass(frozen=True, slots=True)
class Condition:
    """All present keys must hold; dice are compared by their natural faces (no modifier may
    switch an ability on, as the rulebook says)."""

    pitch: frozenset[str] | None = None
    control: frozenset[int] | None = None
    swing: frozenset[int] | None = None
    balls: frozenset[int] | None = None
    strikes: frozenset[int] | None = None
    outs: frozenset[int] | None = None
    bases_empty: bool | None = None


@dataclass(frozen=True, slots=True)
class Ability:
    """One line of a card. ``index`` is its place on the card, used as its stable reference."""

    card: str
    index: int
    when: str
    kind: str
    die: str | None
    by: int
    turn_from: str | None
    turn_to: str | None
    cond: Condition


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    role: str
    name: Mapping[str, str]
    text: Mapping[str, str]
    abilities: tuple[Ability, ...]
    position: str | None = None
    usage: str | None = None
    ace_direction: str | None = None
    ace_location: str | None = None
    covers: frozenset[str] = frozenset()

    def has_trait(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)

    def trait(self, kind: str) -> Ability | None:
        for ability in self.abilities:
            if ability.kind == kind:
                return ability
        return None

    def fills(self) -> frozenset[str]:
        """The lineup positions this batter may take (a flex card covers its whole group)."""
        return self.covers

    def may_start(self) -> bool:
        return self.usage in ("starter", "either")

    def may_relieve(self) -> bool:
        return self.usage in ("reliever", "either")


@dataclass(frozen=True, slots=True)
class CardSet:
    cards: Mapping[str, Card]
    batters: tuple[str, ...]
    pitchers: tuple[str, ...]

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]


def _fail(where: str, message: str) -> InvalidCardData:
    return InvalidCardData(f"{where}: {message}")


def _words(raw: Any, where: str, field_name: str) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise _fail(where, f"field '{field_name}' must be an object with 'en' and 'ko'")
    for lang in ("en", "ko"):
        if not isinstance(raw.get(lang), str) or not raw[lang].strip():
            raise _fail(where, f"field '{field_name}.{lang}' must be a non-empty string")
    return {"en": raw["en"], "ko": raw["ko"]}


def _int_set(raw: Any, where: str, key: str, low: int, high: int) -> frozenset[int]:
    if not isinstance(raw, list) or not raw:
        raise _fail(where, f"condition '{key}' must be a non-empty list")
    for value in raw:
        if type(value) is not int or not low <= value <= high:
            raise _fail(where, f"condition '{key}' value {value!r} is not in {low}..{high}")
    return frozenset(raw)


def _condition(raw: Any, where: str) -> Condition:
    if raw is None:
        return Condition()
    if not isinstance(raw, dict):
        raise _fail(where, "field 'if' must be an object")
    unknown = set(raw) - CONDITION_KEYS
    if unknown:
        raise _fail(where, f"field 'if' has unknown key(s) {sorted(unknown)}")
    pitch = None
    if "pitch" in raw:
        faces = raw["pitch"]
        if not isinstance(faces, list) or not faces or any(f not in PITCH_FACES for f in faces):
            raise _fail(where, f"condition 'pitch' must list faces from {PITCH_FACES}")
        pitch = frozenset(faces)
    bases_empty = raw.get("bases_empty")
    if bases_empty is not None and not isinstance(bases_empty, bool):
        raise _fail(where, "condition 'bases_empty' must be true or false")
    return Condition(
        pitch=pitch,
        control=_int_set(raw["control"], where, "control", 1, 6) if "control" in raw else None,
        swing=_int_set(raw["swing"], where, "swing", 1, 6) if "swing" in raw else None,
        balls=_int_set(raw["balls"], where, "balls", 0, 3) if "balls" in raw else None,
        strikes=_int_set(raw["strikes"], where, "strikes", 0, 2) if "strikes" in raw else None,
        outs=_int_set(raw["outs"], where, "outs", 0, 2) if "outs" in raw else None,
        bases_empty=bases_empty,
    )


_ABILITY_KEYS = frozenset({"when", "kind", "die", "by", "from", "to", "if"})


def _ability(raw: Any, card_id: str, role: str, index: int) -> Ability:
    where = f"card {card_id} ability {index}"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    unknown = set(raw) - _ABILITY_KEYS
    if unknown:
        raise _fail(where, f"unknown field(s) {sorted(unknown)}")
    triggers = BATTER_TRIGGERS if role == "batter" else PITCHER_TRIGGERS
    when = raw.get("when")
    if when not in triggers:
        raise _fail(where, f"field 'when' is {when!r}; a {role} may use {sorted(triggers)}")
    kind = raw.get("kind")
    cond = _condition(raw.get("if"), where)
    die: str | None = None
    by = 0
    turn_from: str | None = None
    turn_to: str | None = None
    if kind in TRAITS:
        if when != "always":
            raise _fail(where, f"trait '{kind}' must have 'when': 'always'")
        if kind == "speed" and role != "batter":
            raise _fail(where, "trait 'speed' belongs on a batter")
        if kind == "defense" and role != "pitcher":
            raise _fail(where, "trait 'defense' belongs on a pitcher")
        if set(raw) - {"when", "kind"}:
            raise _fail(where, f"trait '{kind}' takes no other fields")
    elif kind in ("modify", "reroll", "turn"):
        if when == "always":
            raise _fail(where, f"'{kind}' needs a stare-down trigger, not 'always'")
        if kind == "modify":
            die = raw.get("die")
            if die not in MODIFY_DICE:
                raise _fail(where, f"field 'die' must be one of {sorted(MODIFY_DICE)}")
            by = raw.get("by")  # type: ignore[assignment]
            if type(by) is not int or by == 0 or not -2 <= by <= 2:
                raise _fail(where, "field 'by' must be a non-zero integer from -2 to 2")
        elif kind == "reroll":
            die = raw.get("die")
            if die not in REROLL_DICE:
                raise _fail(where, f"field 'die' must be one of {sorted(REROLL_DICE)}")
            if getattr(cond, die) is None:
                raise _fail(where, f"a re-roll needs 'if.{die}' naming the faces it re-rolls")
        else:
            turn_from, turn_to = raw.get("from"), raw.get("to")
            if turn_from not in RESULTS or turn_to not in RESULTS or turn_from == turn_to:
                raise _fail(where, f"fields 'from'/'to' must be two different of {RESULTS}")
    else:
        raise _fail(where, f"field 'kind' is {kind!r}; expected modify, reroll, turn or a trait")
    return Ability(card_id, index, when, kind, die, by, turn_from, turn_to, cond)


def _card(raw: Any, position_in_file: int) -> Card:
    if not isinstance(raw, dict):
        raise _fail(f"card #{position_in_file}", "must be an object")
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not card_id:
        raise _fail(f"card #{position_in_file}", "field 'id' must be a non-empty string")
    where = f"card {card_id}"
    role = raw.get("role")
    if role not in ("batter", "pitcher"):
        raise _fail(where, "field 'role' must be 'batter' or 'pitcher'")
    name = _words(raw.get("name"), where, "name")
    text = _words(raw.get("text"), where, "text")
    abilities_raw = raw.get("abilities")
    if not isinstance(abilities_raw, list) or not abilities_raw:
        raise _fail(where, "field 'abilities' must be a non-empty list")
    abilities = tuple(_ability(a, card_id, role, i) for i, a in enumerate(abilities_raw))
    if role == "batter":
        position = raw.get("position")
        if position not in POSITIONS and position not in FLEX_POSITIONS:
            raise _fail(where, f"field 'position' {position!r} is not a position")
        if "usage" in raw or "ace" in raw:
            raise _fail(where, "a batter has no 'usage' or 'ace'")
        covers = FLEX_POSITIONS.get(position, frozenset({position}))
        return Card(card_id, role, name, text, abilities, position=position, covers=covers)
    usage = raw.get("usage")
    if usage not in USAGES:
        raise _fail(where, f"field 'usage' must be one of {USAGES}")
    ace = raw.get("ace")
    if (
        not isinstance(ace, dict)
        or ace.get("direction") not in DIRECTIONS
        or ace.get("location") not in LOCATIONS
    ):
        raise _fail(where, "field 'ace' needs 'direction' (inside/outside), 'location' (high/low)")
    if not any(a.when == "ace" for a in abilities):
        raise _fail(where, "a pitcher needs an ability with 'when': 'ace'")
    if "position" in raw:
        raise _fail(where, "a pitcher has no 'position'")
    return Card(
        card_id,
        role,
        name,
        text,
        abilities,
        usage=usage,
        ace_direction=ace["direction"],
        ace_location=ace["location"],
    )


def parse_cards(raw: Any) -> CardSet:
    """Validates a decoded card file; raises :class:`InvalidCardData` naming card and field."""
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise InvalidCardData("card file: top level must be an object with a 'cards' list")
    cards: dict[str, Card] = {}
    for i, entry in enumerate(raw["cards"]):
        card = _card(entry, i)
        if card.id in cards:
            raise _fail(f"card {card.id}", "duplicate id")
        cards[card.id] = card
    batters = tuple(c.id for c in cards.values() if c.role == "batter")
    pitchers = tuple(c.id for c in cards.values() if c.role == "pitcher")
    if len(cards) != 20:
        raise InvalidCardData(f"card file: the set has {len(cards)} cards; the game has 20")
    if not any(cards[p].may_start() for p in pitchers) or not any(
        cards[p].may_relieve() for p in pitchers
    ):
        raise InvalidCardData("card file: the set needs a possible starter and reliever")
    if not lineup_possible([cards[b] for b in batters]):
        raise InvalidCardData("card file: the batters cannot fill six different positions")
    return CardSet(cards, batters, pitchers)


def assign_positions(batters: Sequence[Card], taken: frozenset[str] = frozenset()) -> bool:
    """Whether every batter can get its own position (a tiny bipartite matching by search)."""
    if not batters:
        return True
    first, rest = batters[0], batters[1:]
    return any(assign_positions(rest, taken | {p}) for p in sorted(first.fills() - taken))


def lineup_possible(batters: Sequence[Card], needed: int = 6) -> bool:
    """Whether some ``needed`` of these batters hold ``needed`` different positions."""

    def search(start: int, chosen: list[Card]) -> bool:
        if len(chosen) == needed:
            return assign_positions(chosen)
        for i in range(start, len(batters)):
            chosen.append(batters[i])
            if search(i + 1, chosen):
                return True
            chosen.pop()
        return False

    return search(0, [])


def load_cards(path: Path | str = CARDS_PATH) -> CardSet:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidCardData(f"card file {path}: cannot be read as JSON ({error})") from error
    return parse_cards(raw)


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    return load_cards(CARDS_PATH)
