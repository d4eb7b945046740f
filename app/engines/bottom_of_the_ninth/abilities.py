"""Interpreter of the card vocabulary: which abilities a reveal switches on, and what they do.

Every effect is computed from data (:class:`~.cards.Ability`); the engine calls these helpers at
fixed moments of a pitch (re-rolls right after a die is rolled, modifications and turns when the
swing is compared) so that the order of effects is the same for every card and documented once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from app.engines.bottom_of_the_ninth.cards import Ability, Card, CardSet, Condition
from app.engines.bottom_of_the_ninth.rules import clamp_die


def triggered(
    batter: Card, pitcher: Card, pitch: tuple[str, str], guess: tuple[str, str]
) -> tuple[list[Ability], list[Ability], bool, bool, bool]:
    """The abilities a reveal switches on: (batter's, pitcher's, direction read, location read,
    ace on).

    Correct reads go to the batter's card (the part of the pitch read names the trigger); misses
    go to the pitcher's card (the part of the pitch that fooled the batter). The ace is on when
    any part of the ace pitch was thrown, which is also what costs fatigue, unless the batter
    read both parts; the batter's MVP line is on exactly then.
    """
    direction, location = pitch
    dir_read = guess[0] == direction
    loc_read = guess[1] == location
    both = dir_read and loc_read
    ace = not both and (direction == pitcher.ace_direction or location == pitcher.ace_location)
    batter_on: list[Ability] = []
    for ability in batter.abilities:
        when = ability.when
        if (
            (when == direction and dir_read)
            or (when == location and loc_read)
            or (when == "mvp" and both)
        ):
            batter_on.append(ability)
    pitcher_on: list[Ability] = []
    for ability in pitcher.abilities:
        when = ability.when
        if (
            (when == direction and not dir_read)
            or (when == location and not loc_read)
            or (when == "ace" and ace)
        ):
            pitcher_on.append(ability)
    return batter_on, pitcher_on, dir_read, loc_read, ace


class Situation:
    """What conditions may look at: natural dice (never modified ones) and the count before."""

    __slots__ = ("balls", "bases_empty", "control", "outs", "pitch", "strikes", "swing")

    def __init__(
        self,
        pitch: str | None,
        control: int | None,
        swing: int | None,
        balls: int,
        strikes: int,
        outs: int,
        bases_empty: bool,
    ) -> None:
        self.pitch = pitch
        self.control = control
        self.swing = swing
        self.balls = balls
        self.strikes = strikes
        self.outs = outs
        self.bases_empty = bases_empty


def holds(cond: Condition, s: Situation) -> bool:
    """A die not rolled yet fails any condition on it, so a condition never fires early."""
    if cond.pitch is not None and s.pitch not in cond.pitch:
        return False
    if cond.control is not None and s.control not in cond.control:
        return False
    if cond.swing is not None and s.swing not in cond.swing:
        return False
    if cond.balls is not None and s.balls not in cond.balls:
        return False
    if cond.strikes is not None and s.strikes not in cond.strikes:
        return False
    if cond.outs is not None and s.outs not in cond.outs:
        return False
    return cond.bases_empty is None or s.bases_empty == cond.bases_empty


def rerolls(
    die: str,
    abilities: Iterable[Ability],
    situation: Situation,
    roll: Callable[[], int | str],
    fired: list[Ability],
) -> int | str | None:
    """Runs each re-roll of ``die`` whose condition holds on the current natural face, once
    each in card order; returns the final face (``None`` when nothing re-rolled)."""
    result: int | str | None = None
    for ability in abilities:
        if ability.kind != "reroll" or ability.die != die:
            continue
        if not holds(ability.cond, situation):
            continue
        face = roll()
        fired.append(ability)
        result = face
        if die == "pitch":
            situation.pitch = str(face)
        elif die == "control":
            situation.control = int(face)
        else:
            situation.swing = int(face)
    return result


def modified(
    die: str, natural: int, abilities: Iterable[Ability], situation: Situation, fired: list[Ability]
) -> int:
    """The die after every modification whose condition holds, clamped to 1..6."""
    total = 0
    for ability in abilities:
        if ability.kind == "modify" and ability.die == die and holds(ability.cond, situation):
            total += ability.by
            fired.append(ability)
    return clamp_die(natural + total) if total else natural


def turned(
    result: str, abilities: Sequence[Ability], situation: Situation, fired: list[Ability]
) -> str:
    """Turns a result into another; each turn fires at most once, pitcher's card first."""
    for ability in abilities:
        if (
            ability.kind == "turn"
            and ability.turn_from == result
            and holds(ability.cond, situation)
        ):
            result = ability.turn_to or result
            fired.append(ability)
    return result


def race_threshold(card: Card, trait: str) -> int:
    """The lowest winning race face: 5, or 4 with a speed (batter) / defense (pitcher) +1."""
    return 4 if card.has_trait(trait) else 5


def abilities_by_ref(cards: CardSet, refs: Iterable[Sequence[object]]) -> list[Ability]:
    """Resolves stored ``[card, index]`` references back to abilities (state stays plain JSON)."""
    out: list[Ability] = []
    for ref in refs:
        card_id, index = ref[0], ref[1]
        out.append(cards[str(card_id)].abilities[int(str(index))])
    return out
