"""Game options: validated once at ``new_game`` and stored in the state, so a resumed game and
the server read the same race numbers the game started with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engines.bottom_of_the_ninth.cards import CardSet, assign_positions
from app.engines.interface import InvalidOptions

DEFAULT_RACE_WINDOW_MS = 250
"""Two decisive rolls this close count as a tie (the batter's). 250 ms is about the spread of
ordinary home connections, short enough that a slow pitcher roll is not rescued by it."""

DEFAULT_RACE_MAX_ROLLS_PER_SEC = 4
"""The server drops roll commands above this rate per side, so a script is no faster than a
person clicking briskly; the engine never sees time, it only records the number."""

KNOWN = frozenset(
    {
        "mode",
        "solo_side",
        "challenge",
        "race",
        "race_window_ms",
        "race_max_rolls_per_sec",
        "setup",
        "lineup",
        "starter",
        "reliever",
    }
)


def _choice(raw: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    value = raw.get(key, default)
    if value not in allowed:
        raise InvalidOptions(f"option {key!r} must be one of {allowed}, not {value!r}")
    return str(value)


def _int(raw: Mapping[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise InvalidOptions(f"option {key!r} must be an integer from {low} to {high}")
    return value


def normalise(
    raw: Mapping[str, Any], cards: CardSet, challenge_ids: frozenset[str]
) -> dict[str, Any]:
    """Fills defaults and refuses anything the engine could not play, with a clear message."""
    if not isinstance(raw, Mapping):
        raise InvalidOptions("options must be an object")
    unknown = set(raw) - KNOWN
    if unknown:
        raise InvalidOptions(f"unknown option(s) {sorted(unknown)}")
    mode = _choice(raw, "mode", ("versus", "solo"), "versus")
    options: dict[str, Any] = {"mode": mode}
    if mode == "solo":
        options["solo_side"] = _choice(raw, "solo_side", ("home", "away"), "home")
        challenge = raw.get("challenge")
        if challenge is not None and challenge not in challenge_ids:
            raise InvalidOptions(f"option 'challenge' {challenge!r} is not a challenge card")
        options["challenge"] = challenge
    else:
        for key in ("solo_side", "challenge"):
            if key in raw:
                raise InvalidOptions(f"option {key!r} is only for mode 'solo'")
        options["solo_side"] = None
        options["challenge"] = None
    options["race"] = _choice(
        raw, "race", ("realtime", "turns"), "turns" if mode == "solo" else "realtime"
    )
    options["race_window_ms"] = _int(raw, "race_window_ms", 0, 2000, DEFAULT_RACE_WINDOW_MS)
    options["race_max_rolls_per_sec"] = _int(
        raw, "race_max_rolls_per_sec", 1, 20, DEFAULT_RACE_MAX_ROLLS_PER_SEC
    )
    setup = _choice(raw, "setup", ("choose", "random", "given"), "choose")
    if options["challenge"] is not None:
        if "setup" in raw or "lineup" in raw:
            raise InvalidOptions("a challenge card sets the situation; drop 'setup'/'lineup'")
        setup = "challenge"
    options["setup"] = setup
    if setup == "given":
        options.update(_given(raw, cards))
    elif any(k in raw for k in ("lineup", "starter", "reliever")):
        raise InvalidOptions("options 'lineup', 'starter', 'reliever' need setup 'given'")
    return options


def _given(raw: Mapping[str, Any], cards: CardSet) -> dict[str, Any]:
    lineup = raw.get("lineup")
    if (
        not isinstance(lineup, list)
        or len(lineup) != 6
        or len(set(lineup)) != 6
        or any(c not in cards.batters for c in lineup)
    ):
        raise InvalidOptions("option 'lineup' must list six different batter cards")
    if not assign_positions([cards[c] for c in lineup]):
        raise InvalidOptions("option 'lineup' cannot cover six different positions")
    starter, reliever = raw.get("starter"), raw.get("reliever")
    if starter not in cards.pitchers or not cards[starter].may_start():
        raise InvalidOptions(f"option 'starter' {starter!r} is not a pitcher who may start")
    if reliever not in cards.pitchers or not cards[reliever].may_relieve() or reliever == starter:
        raise InvalidOptions(f"option 'reliever' {reliever!r} is not another possible reliever")
    return {"lineup": list(lineup), "starter": starter, "reliever": reliever}
