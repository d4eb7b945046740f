"""The game's fixed data: die faces, card counts, which cards each tier uses, challengeable calls.

Kept as data so that docs/rules/base-on-board.md (decisions D1-D4, D9, D11) and the code cannot
drift apart: the document's tables are these tables.
"""

from __future__ import annotations

from typing import Final, Literal

Tier = Literal["lite", "lite-extended", "pro"]
TIERS: Final[tuple[Tier, ...]] = ("lite", "lite-extended", "pro")

# Decision D1: strike family S x2, SM x1, F x1 (33%), B x4 (33%), C x4 (33%).
PITCH_DIE: Final[tuple[str, ...]] = ("S", "S", "SM", "F", "B", "B", "B", "B", "C", "C", "C", "C")
# The rulebook: eight outs at 1/12 each, HT three faces, HR one face.
BAT_DIE: Final[tuple[str, ...]] = (
    "GF", "G3", "GA", "PO", "FO", "F2", "F3", "FA", "HT", "HT", "HT", "HR",
)
# Decision D2: nine single faces; the two-run singles L2 and C2 twice each.
HIT_DIE: Final[tuple[str, ...]] = (
    "iH", "L1", "L2", "L2", "C1", "C2", "C2", "R1", "R2", "D2", "D3", "T3",
)

OFFENSE_CODES: Final[tuple[str, ...]] = (
    "HBP", "WP", "BK", "POE", "SB2", "SB3", "SBH", "SB", "SQ1", "SQ2",
    "E", "1H1E", "HRC", "HNR", "RNH", "SNO", "CIB", "IOB",
)
DEFENSE_CODES: Final[tuple[str, ...]] = (
    "CS2", "CS3", "CSH", "GDP", "PO1", "PO2", "BD", "GBH", "GTP", "LDP",
    "A2", "A3H", "AHH", "A3F", "AHF", "IFD", "CO1", "CO3", "FFO", "RHB",
)

# (code, copies, first tier that uses it). Decision D9: Lite basic is the white-bordered 14 + 23,
# Lite extended adds the grey steal/bunt cards (19 + 10, giving the rulebook's 33 + 33), Pro adds
# the last 7 + 7 (40 + 40) and the infield-fly token.
OFFENSE_DECK: Final[tuple[tuple[str, int, Tier], ...]] = (
    ("HBP", 2, "lite"), ("WP", 3, "lite"), ("BK", 2, "lite"), ("POE", 2, "lite"),
    ("E", 2, "lite"), ("1H1E", 1, "lite"), ("HRC", 2, "lite"),
    ("SB2", 5, "lite-extended"), ("SB3", 4, "lite-extended"), ("SBH", 1, "lite-extended"),
    ("SB", 4, "lite-extended"), ("SQ1", 3, "lite-extended"), ("SQ2", 2, "lite-extended"),
    ("HNR", 2, "pro"), ("RNH", 1, "pro"), ("SNO", 2, "pro"), ("CIB", 1, "pro"),
    ("IOB", 1, "pro"),
)
DEFENSE_DECK: Final[tuple[tuple[str, int, Tier], ...]] = (
    ("GDP", 3, "lite"), ("PO1", 3, "lite"), ("PO2", 2, "lite"), ("GBH", 3, "lite"),
    ("A2", 2, "lite"), ("A3H", 2, "lite"), ("AHH", 2, "lite"), ("A3F", 2, "lite"),
    ("AHF", 2, "lite"), ("FFO", 2, "lite"),
    ("CS2", 3, "lite-extended"), ("CS3", 3, "lite-extended"), ("CSH", 1, "lite-extended"),
    ("BD", 3, "lite-extended"),
    ("IFD", 1, "pro"), ("GTP", 1, "pro"), ("LDP", 1, "pro"), ("RHB", 1, "pro"),
    ("CO1", 2, "pro"), ("CO3", 1, "pro"),
)

# Decision D11: the challenge deck of 20 holds 10 Confirm and 10 Reverse.
CHALLENGE_DECK: Final[tuple[str, ...]] = ("confirm",) * 10 + ("reverse",) * 10

# Calls each side may challenge (rulebook section 5's two tables).
DEFENSE_CHALLENGEABLE: Final[frozenset[str]] = frozenset(
    {"B", "iH", "HR", "SQ2", "SB2", "SB3", "SBH", "SNO", "IOB"}
)
OFFENSE_CHALLENGEABLE: Final[frozenset[str]] = frozenset(
    {"SM", "PO1", "PO2", "GA", "BD", "CS2", "CS3", "CSH", "AHH"}
)
ALL_CHALLENGEABLE: Final[tuple[str, ...]] = tuple(
    sorted(DEFENSE_CHALLENGEABLE | OFFENSE_CHALLENGEABLE)
)

_TIER_RANK: Final[dict[Tier, int]] = {"lite": 0, "lite-extended": 1, "pro": 2}


def deck_for(tier: Tier, offense: bool) -> list[str]:
    """The cards of one deck in a fixed order (the game shuffles it from the dice stream)."""
    return list(_DECKS[tier, offense])


def _deck(tier: Tier, offense: bool) -> tuple[str, ...]:
    rank = _TIER_RANK[tier]
    table = OFFENSE_DECK if offense else DEFENSE_DECK
    return tuple(code for code, copies, first in table if _TIER_RANK[first] <= rank
                 for _ in range(copies))


_DECKS: Final[dict[tuple[Tier, bool], tuple[str, ...]]] = {
    (tier, offense): _deck(tier, offense) for tier in TIERS for offense in (True, False)
}
"""Every deck, listed once (a game starts with two of them)."""


def _codes_in_tier(tier: Tier) -> frozenset[str]:
    rank = _TIER_RANK[tier]
    return frozenset(
        code for code, _, first in OFFENSE_DECK + DEFENSE_DECK if _TIER_RANK[first] <= rank
    )


TIER_CODES: Final[dict[str, frozenset[str]]] = {tier: _codes_in_tier(tier) for tier in TIERS}
