"""Solo play: the 15 manager challenge cards (data) and the short campaign built from them.

A challenge is a situation (runners, outs, count, the batters still to come, the pitcher) with
an objective for the batting side and manager points. The engine plays it as an ordinary game
started mid-inning; this module only loads the cards, judges the objective and keeps the
campaign's tally, so the server can store a campaign as plain JSON between games.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.engines.bottom_of_the_ninth.cards import CardSet, default_cards
from app.engines.bottom_of_the_ninth.state import State
from app.engines.dice import shuffled
from app.engines.interface import DiceSource, InvalidCardData, InvalidState

CHALLENGES_PATH = Path(__file__).with_name("challenges.json")
OBJECTIVES = ("score", "score_within", "score_without_strikeout")


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    name: Mapping[str, str]
    text: Mapping[str, str]
    lineup: tuple[str, ...]
    pitcher: str
    reliever: str | None
    bases: tuple[bool, bool, bool]
    outs: int
    balls: int
    strikes: int
    fatigue: tuple[int, int]
    objective: str
    within: int
    points: int


@dataclass(frozen=True, slots=True)
class CampaignRules:
    length: int
    points_to_win: int


def _fail(where: str, message: str) -> InvalidCardData:
    return InvalidCardData(f"{where}: {message}")


def _small_int(raw: Mapping[str, Any], key: str, low: int, high: int, where: str) -> int:
    value = raw.get(key)
    if type(value) is not int or not low <= value <= high:
        raise _fail(where, f"field '{key}' must be an integer from {low} to {high}")
    return value


def _challenge(raw: Any, cards: CardSet, n: int) -> Challenge:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise _fail(f"challenge #{n}", "must be an object with a string 'id'")
    where = f"challenge {raw['id']}"
    words = {}
    for key in ("name", "text"):
        value = raw.get(key)
        if not isinstance(value, dict) or not all(
            isinstance(value.get(lang), str) and value[lang] for lang in ("en", "ko")
        ):
            raise _fail(where, f"field '{key}' needs non-empty 'en' and 'ko'")
        words[key] = {"en": value["en"], "ko": value["ko"]}
    lineup = raw.get("lineup")
    if (
        not isinstance(lineup, list)
        or not lineup
        or len(set(lineup)) != len(lineup)
        or any(c not in cards.batters for c in lineup)
    ):
        raise _fail(where, "field 'lineup' must list different batter cards")
    pitcher, reliever = raw.get("pitcher"), raw.get("reliever")
    if pitcher not in cards.pitchers:
        raise _fail(where, f"field 'pitcher' {pitcher!r} is not a pitcher card")
    if reliever is not None and (
        reliever not in cards.pitchers or reliever == pitcher or not cards[reliever].may_relieve()
    ):
        raise _fail(where, f"field 'reliever' {reliever!r} is not another pitcher who may relieve")
    bases = raw.get("bases")
    if not isinstance(bases, str) or len(bases) != 3 or set(bases) - {"0", "1"}:
        raise _fail(where, "field 'bases' must be like '101' (first base first)")
    outs = _small_int(raw, "outs", 0, 2, where)
    balls = _small_int(raw, "balls", 0, 3, where)
    strikes = _small_int(raw, "strikes", 0, 2, where)
    fatigue = raw.get("fatigue")
    if (
        not isinstance(fatigue, list)
        or len(fatigue) != 2
        or any(type(r) is not int or not 0 <= r <= 3 for r in fatigue)
    ):
        raise _fail(where, "field 'fatigue' must be two rows from 0 to 3")
    runners = bases.count("1")
    if len(lineup) < 6 - outs - runners:
        raise _fail(where, f"field 'lineup' needs at least {6 - outs - runners} batters to finish")
    objective = raw.get("objective")
    if not isinstance(objective, dict) or objective.get("kind") not in OBJECTIVES:
        raise _fail(where, f"field 'objective.kind' must be one of {OBJECTIVES}")
    within = 0
    if objective["kind"] == "score_within":
        within = _small_int(objective, "plate_appearances", 1, 6, where + " objective")
    points = _small_int(raw, "points", 1, 5, where)
    return Challenge(
        raw["id"],
        words["name"],
        words["text"],
        tuple(lineup),
        pitcher,
        reliever,
        (bases[0] == "1", bases[1] == "1", bases[2] == "1"),
        outs,
        balls,
        strikes,
        (fatigue[0], fatigue[1]),
        objective["kind"],
        within,
        points,
    )


def parse_challenges(raw: Any, cards: CardSet) -> tuple[dict[str, Challenge], CampaignRules]:
    if not isinstance(raw, dict) or not isinstance(raw.get("challenges"), list):
        raise InvalidCardData("challenge file: top level needs a 'challenges' list")
    found: dict[str, Challenge] = {}
    for n, entry in enumerate(raw["challenges"]):
        challenge = _challenge(entry, cards, n)
        if challenge.id in found:
            raise _fail(f"challenge {challenge.id}", "duplicate id")
        found[challenge.id] = challenge
    if len(found) != 15:
        raise InvalidCardData(f"challenge file: {len(found)} challenges; the game has 15")
    campaign = raw.get("campaign")
    if not isinstance(campaign, dict):
        raise InvalidCardData("challenge file: field 'campaign' must be an object")
    length = _small_int(campaign, "length", 1, 15, "campaign")
    target = _small_int(campaign, "points_to_win", 1, 75, "campaign")
    return found, CampaignRules(length, target)


def load_challenges(
    path: Path | str = CHALLENGES_PATH, cards: CardSet | None = None
) -> tuple[dict[str, Challenge], CampaignRules]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidCardData(f"challenge file {path}: cannot be read as JSON ({error})") from error
    return parse_challenges(raw, cards if cards is not None else default_cards())


@lru_cache(maxsize=1)
def _default() -> tuple[dict[str, Challenge], CampaignRules]:
    return load_challenges()


def default_challenges() -> dict[str, Challenge]:
    return _default()[0]


def campaign_rules() -> CampaignRules:
    return _default()[1]


def objective_met(challenge: Challenge, state: State) -> bool | None:
    """Whether the batting side met the card's objective; ``None`` while the game goes on."""
    if state.phase != "over":
        return None
    if state.winner != "home":
        return False
    if challenge.objective == "score_within":
        return state.plate_appearances <= challenge.within
    if challenge.objective == "score_without_strikeout":
        return state.strikeouts == 0
    return True


def points_earned(challenge: Challenge, state: State, human: str) -> int | None:
    """Manager points for the human: the card's points when the human's side got its way.

    Playing the batting side that means meeting the objective; playing the pitching side
    (the optional reversed solo) it means denying it.
    """
    met = objective_met(challenge, state)
    if met is None:
        return None
    won = met if human == "home" else not met
    return challenge.points if won else 0


@dataclass(frozen=True, slots=True)
class Campaign:
    """A run of challenges drawn from the deck; stored by the server as JSON between games."""

    order: tuple[str, ...]
    points: tuple[int, ...]
    dice_index: int

    def to_json(self) -> dict[str, Any]:
        return {
            "order": list(self.order),
            "points": list(self.points),
            "dice_index": self.dice_index,
        }

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Campaign:
        try:
            order = tuple(str(c) for c in raw["order"])
            points = tuple(int(p) for p in raw["points"])
            index = int(raw["dice_index"])
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"not a campaign: {error}") from error
        known = default_challenges()
        if any(c not in known for c in order) or len(points) > len(order) or index < 0:
            raise InvalidState("not a campaign: unknown challenge or too many results")
        return Campaign(order, points, index)

    @property
    def current(self) -> str | None:
        """The challenge to play next, ``None`` when the campaign is over."""
        return self.order[len(self.points)] if len(self.points) < len(self.order) else None

    def record(self, earned: int) -> Campaign:
        if self.current is None:
            raise InvalidState("the campaign is already over")
        return Campaign(self.order, (*self.points, earned), self.dice_index)

    def total(self) -> int:
        return sum(self.points)

    def result(self) -> str | None:
        """'won' once the points reach the target, 'lost' when it can no longer be reached."""
        rules = campaign_rules()
        if self.total() >= rules.points_to_win:
            return "won"
        known = default_challenges()
        still = sum(known[c].points for c in self.order[len(self.points) :])
        if self.total() + still < rules.points_to_win:
            return "lost"
        return None


def new_campaign(dice: DiceSource, start_index: int = 0) -> Campaign:
    """Draws the campaign's challenges by shuffling the deck from the dice stream."""
    deck = sorted(default_challenges())
    order, index = shuffled(deck, dice, start_index)
    return Campaign(tuple(order[: campaign_rules().length]), (), index)
