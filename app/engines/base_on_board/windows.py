"""When each card may be played: the conditions column of the rulebook's card tables.

A *window* is a moment where one side may act. ``card_choices`` answers "may this card be played
now, and with which choices?" from the situation alone. The engine asks it for every card of
both sides' windows once per situation and keeps the answers (``engine._situation``), then
decides from them whether a window opens at all (design note 1) and which cards in hand are
legal actions.
"""

from __future__ import annotations

from typing import Any, Final

from app.engines.base_on_board.bases import BASE_NAMES, FIRST, SECOND, THIRD, runner_bits
from app.engines.base_on_board.state import State

Choice = dict[str, Any]

SWINGS: Final = frozenset({"S", "SM", "B"})
BAT_OUTS: Final = frozenset({"GF", "G3", "GA", "PO", "FO", "F2", "F3", "FA"})

# Which cards a side's result window offers, by phase; the rest are answers to other cards.
OFFENSE_WINDOW: Final[dict[str, tuple[str, ...]]] = {
    "pre": ("BK", "HNR", "RNH"),
    "pitch": ("SB2", "SB3", "SBH", "HBP", "WP", "CIB", "SNO"),
    "swing": ("SB", "SQ1", "SQ2"),
    "bat": ("E", "IOB"),
    "hit": ("1H1E",),
    "hr": ("HRC",),
}
DEFENSE_WINDOW: Final[dict[str, tuple[str, ...]]] = {
    "pre": ("PO1", "PO2"),
    "pitch": ("CO1", "CO3", "FFO"),
    "bat": ("GDP", "GTP", "RHB", "GBH", "IFD", "A3F", "AHF"),
    "ht": ("LDP",),
    "hit": ("A2", "A3H", "AHH"),
}
# Decision D15: the cards that answer another card (and nothing else answers it but a challenge).
ANSWERS: Final[dict[str, tuple[str, ...]]] = {
    "SB2": ("CS2",),
    "SB3": ("CS3",),
    "SBH": ("CSH",),
    "RNH": ("CS2", "CS3"),
    "PO1": ("POE",),
    "PO2": ("POE",),
    "CO1": ("POE",),
    "CO3": ("POE",),
    "SB": ("BD",),
    "SQ1": ("BD",),
    "SQ2": ("BD",),
    "GDP": ("E",),
    "GTP": ("E",),
    "GBH": ("E",),
}

_NO_CHOICE: Final[list[Choice]] = [{}]


def card_moments(code: str) -> tuple[list[str], list[str]]:
    """When ``code`` is ever played: the phases of the result windows that offer it, and the
    cards it answers (a hand's greyed card tells its player this)."""
    phases, answers = _MOMENTS.get(code, ((), ()))
    return list(phases), list(answers)


def _moments() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """:func:`card_moments` of every card the tables name, worked out once: a side's view asks
    for each card of its hand at every commit, and searching the tables each time was a
    quarter of a view's cost (issue 12)."""
    codes = {c for table in (OFFENSE_WINDOW, DEFENSE_WINDOW, ANSWERS) for cs in table.values()
             for c in cs}
    return {
        code: (
            tuple(p for table in (OFFENSE_WINDOW, DEFENSE_WINDOW) for p, cs in table.items()
                  if code in cs),
            tuple(card for card, cs in ANSWERS.items() if code in cs),
        )
        for code in codes
    }


_MOMENTS: Final = _moments()


def _runners(bases: int, among: int) -> list[Choice]:
    return [{"runner": BASE_NAMES[bit]} for bit in runner_bits(bases & among)]


def card_choices(state: State, code: str) -> list[Choice]:
    """The ways ``code`` may be played now as a result-window card; [] when it may not."""
    play = state.play
    phase = play.get("phase")
    face = play.get("code")
    bases = state.bases
    outs = state.outs
    hnr = bool(play.get("hnr"))
    ok: bool
    if phase == "pre":
        if code == "BK":
            ok = bases != 0
        elif code == "HNR":
            ok = bases in (1, 3)
        elif code == "RNH":
            ok = state.balls == 3 and bases in (1, 3)
        elif code == "PO1":
            ok = bases in (1, 5)
        elif code == "PO2":
            ok = bases in (2, 3)
        else:
            ok = False
    elif phase == "pitch":
        swing = face in SWINGS
        if code == "SB2":
            ok = swing and bool(bases & FIRST) and not bases & SECOND
        elif code == "SB3":
            ok = swing and bool(bases & SECOND) and not bases & THIRD
        elif code == "SBH":
            ok = swing and bool(bases & THIRD)
        elif code == "HBP":
            ok = face == "B"
        elif code == "WP":
            ok = face == "B" and bases != 0
        elif code == "CIB":
            ok = face == "SM"
        elif code == "SNO":
            ok = face == "SM" and state.strikes == 2 and (not bases & FIRST or outs == 2)
        elif code == "CO1":
            ok = swing and bool(bases & FIRST)
        elif code == "CO3":
            ok = swing and bool(bases & THIRD)
        elif code == "FFO":
            ok = face == "F"
        else:
            ok = False
    elif phase == "swing":
        if hnr:
            ok = False
        elif code == "SB":
            ok = bases in (1, 2, 3) and outs < 2
        elif code == "SQ1":
            ok = bool(bases & THIRD) and outs < 2
        elif code == "SQ2":
            ok = bool(bases & THIRD)
        else:
            ok = False
    elif phase == "bat":
        if code == "GDP":
            ok = face in ("GF", "GA") and outs < 2 and bases in (1, 3, 7) and not hnr
        elif code == "GTP":
            ok = face == "GF" and outs == 0 and bases in (3, 7) and not hnr
        elif code == "RHB":
            return _runners(bases, FIRST | SECOND) if face in ("GF", "GA") else []
        elif code == "GBH":
            ok = face == "GA" and bases in (2, 4, 6)
        elif code == "IFD":
            ok = (
                face == "PO"
                and outs < 2
                and (bases in (1, 5) or (bases in (3, 7) and not play.get("ifl")))
            )
        elif code == "A3F":
            ok = face in ("F2", "FA") and bool(bases & SECOND) and outs < 2
        elif code == "AHF":
            ok = face in ("F3", "FA") and bool(bases & THIRD) and outs < 2
        elif code == "E":
            ok = face in BAT_OUTS
        elif code == "IOB":
            ok = face in ("GF", "GA", "PO") and bases != 0
        else:
            ok = False
    elif phase == "ht":
        if code == "LDP":
            return _runners(bases, 0b111) if outs < 2 else []
        ok = False
    elif phase == "hit":
        if code == "A2":
            ok = face in ("D2", "D3")
        elif code == "A3H":
            ok = face in ("L2", "C2", "R2", "D2") and bool(bases & FIRST)
        elif code == "AHH":
            ok = face in ("L2", "C2", "R2") and bool(bases & SECOND)
        elif code == "1H1E":
            ok = True
        else:
            ok = False
    elif phase == "hr":
        ok = code == "HRC"
    else:
        ok = False
    return _NO_CHOICE if ok else []


def answer_choices(state: State, code: str) -> list[Choice]:
    """The ways ``code`` may answer the last card of the chain; [] when it may not."""
    chain: list[dict[str, Any]] = state.play.get("chain", [])
    if not chain:
        return []
    last = chain[-1]["code"]
    if code not in ANSWERS.get(last, ()):
        return []
    if last == "RNH":
        stole = int(state.play.get("rnh_stole", 0))
        # CS2 catches the runner who left first; CS3 the one who left second.
        if code == "CS2" and not stole & FIRST:
            return []
        if code == "CS3" and not stole & SECOND:
            return []
    return _NO_CHOICE
