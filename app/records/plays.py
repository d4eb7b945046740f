"""What each strategy card and challenge of a Base on Board pitch record did.

Below both ``games`` (which writes each pitch's ``pitch_play`` rows with these outcomes) and
``stats`` (which counts them).

A record lists the cards played on its pitch in order (``cards``: ``{side, code[, runner]}``)
and every challenge (``challenges``: ``{side, call, result}``). From these alone:

- A card is **reversed** when a challenge on its code (``call == code``) drew ``"reverse"``.
- A card is **answered** when a later card of the same pitch, played by the other side, is one
  of its answers (``ANSWERS`` in ``app/engines/base_on_board/windows.py``: CS2 answers SB2, POE
  answers PO1, BD answers a bunt, E answers GDP...) and that answer was not itself reversed.
- A card **succeeds** when it is neither reversed nor answered. Answer cards succeed unless
  reversed. The infield-fly token (``IFL``) always succeeds.
- An ``RNH`` whose pitch came up foul (``F``) is returned to the hand and counts as not played
  (rulebook 4.2.1): it is left out of every count.

A **challenge succeeds** when the call is reversed (the challenger got the call overturned).

Steals for the box score (``SB`` / ``CS``):

- ``SB2``, ``SB3``, ``SBH``: one attempt each; a stolen base when the card succeeds, caught
  stealing otherwise (answered by CS2/CS3/CSH, or the steal itself reversed on a challenge).
- ``RNH`` (run and hit) on a pitch that was not contact (``C``) and not a foul: every runner on
  first or second when the pitch began was sent, one attempt each; each CS2 / CS3 answer that
  was not reversed is a caught stealing, the other attempts are stolen bases. On contact it is a
  hit-and-run and no steal is credited.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.engines.base_on_board.windows import ANSWERS
from app.records.shape import Record, as_records, first_die

STEALS = {"SB2": "CS2", "SB3": "CS3", "SBH": "CSH"}


@dataclass(frozen=True, slots=True)
class CardPlay:
    """One card played: where, by whom, and how it went."""

    index: int
    """Position of its record in the game's records (0-based)."""
    inning: int
    half: str
    side: str
    role: str
    """``"offense"`` or ``"defense"``: the side's role on that pitch."""
    code: str
    runner: str | None
    challenged: bool
    reversed: bool
    answered_by: str | None
    success: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "inning": self.inning, "half": self.half, "side": self.side,
            "role": self.role, "code": self.code, "runner": self.runner,
            "challenged": self.challenged, "reversed": self.reversed,
            "answered_by": self.answered_by, "success": self.success,
        }


@dataclass(frozen=True, slots=True)
class ChallengeMade:
    index: int
    side: str
    call: str
    result: str

    @property
    def success(self) -> bool:
        return self.result == "reverse"


def _rnh_returned(record: Record) -> bool:
    return first_die(record, "pitch") == "F"


def record_cards(record: Record, index: int = 0) -> list[CardPlay]:
    """The cards of one (normalized) record with their outcomes."""
    cards = [dict(c) for c in record["cards"]]
    challenges: Counter[str] = Counter()
    reverses: Counter[str] = Counter()
    for challenge in record["challenges"]:
        challenges[str(challenge.get("call"))] += 1
        if challenge.get("result") == "reverse":
            reverses[str(challenge.get("call"))] += 1
    # Each challenge belongs to the first card of its code not yet matched.
    reversed_flags: list[bool] = []
    challenged_flags: list[bool] = []
    for card in cards:
        code = str(card.get("code"))
        challenged_flags.append(challenges[code] > 0)
        if challenges[code] > 0:
            challenges[code] -= 1
        reversed_flags.append(reverses[code] > 0)
        if reverses[code] > 0:
            reverses[code] -= 1
    plays: list[CardPlay] = []
    used_answers: set[int] = set()
    for i, card in enumerate(cards):
        code = str(card.get("code"))
        side = str(card.get("side"))
        if code == "RNH" and _rnh_returned(record):
            continue
        answered_by: str | None = None
        for j in range(i + 1, len(cards)):
            later = cards[j]
            if (
                j not in used_answers
                and str(later.get("side")) != side
                and str(later.get("code")) in ANSWERS.get(code, ())
            ):
                used_answers.add(j)
                if not reversed_flags[j]:
                    answered_by = str(later.get("code"))
                    break
        runner = card.get("runner")
        plays.append(
            CardPlay(
                index=index,
                inning=int(record["inning"]),
                half=str(record["half"]),
                side=side,
                role="offense" if side == record["offense"] else "defense",
                code=code,
                runner=None if runner is None else str(runner),
                challenged=challenged_flags[i],
                reversed=reversed_flags[i],
                answered_by=answered_by,
                success=not reversed_flags[i] and answered_by is None,
            )
        )
    return plays


def card_plays(records: Iterable[Mapping[str, Any]]) -> list[CardPlay]:
    """Every card of a game, in order, with its outcome."""
    out: list[CardPlay] = []
    for index, record in enumerate(as_records(records)):
        out.extend(record_cards(record, index))
    return out


def challenges(records: Iterable[Mapping[str, Any]]) -> list[ChallengeMade]:
    out = []
    for index, record in enumerate(as_records(records)):
        for c in record["challenges"]:
            out.append(
                ChallengeMade(index, str(c.get("side")), str(c.get("call")), str(c.get("result")))
            )
    return out


def play_steals(record: Record, plays: list[CardPlay]) -> list[tuple[int, int]]:
    """(stolen bases, caught stealing) each of ``plays`` (``record_cards(record)``) gave the
    offense, in order; :func:`steals` is their sum."""
    out = []
    for play in plays:
        sb = cs = 0
        if play.code in STEALS:
            if play.success:
                sb = 1
            else:
                cs = 1
        elif play.code == "RNH" and first_die(record, "pitch") in ("S", "SM", "B"):
            sent = str(record["bases"])[:2].count("1")
            caught = sum(1 for p in plays if p.code in ("CS2", "CS3") and p.success)
            caught = min(caught, sent)
            sb, cs = sent - caught, caught
        out.append((sb, cs))
    return out


def steals(record: Record) -> tuple[int, int]:
    """(stolen bases, caught stealing) of the offense on one normalized record."""
    pairs = play_steals(record, record_cards(record))
    return sum(sb for sb, _ in pairs), sum(cs for _, cs in pairs)
