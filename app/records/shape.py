"""Pitch records as the stats functions read them: one shape, in game order, split into halves.

A *record* is the ``data`` of a ``pitch`` event (keys in ``app/engines/interface.py``,
``PITCH_EVENT``), or a row of the ``pitch`` table turned back into a dict. :func:`normalize`
accepts both: a row's ``extras`` are merged in, its ``challenge_side`` / ``challenge_call`` /
``challenge_result`` columns become ``challenge``, and ``challenges`` (every challenge of the
pitch, Base on Board) falls back to ``[challenge]``. :func:`as_records` normalizes a game's
records and, when every record has a ``seq``, puts them in ``seq`` order (otherwise the given
order is kept, which must be the order the pitches were thrown).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

Record = dict[str, Any]
Side = Literal["home", "away"]
SIDES: tuple[str, str] = ("away", "home")


def other(side: str) -> Side:
    return "away" if side == "home" else "home"


def normalize(raw: Mapping[str, Any]) -> Record:
    """One record with every key the stats read, whatever form it was stored in."""
    record: Record = {key: value for key, value in raw.items() if key != "extras"}
    extras = raw.get("extras")
    if isinstance(extras, Mapping):
        for key, value in extras.items():
            record.setdefault(str(key), value)
    if record.get("challenge") is None and record.get("challenge_call") is not None:
        record["challenge"] = {
            "side": record.get("challenge_side"),
            "call": record.get("challenge_call"),
            "result": record.get("challenge_result"),
        }
    record.setdefault("challenge", None)
    if not record.get("challenges"):
        record["challenges"] = [record["challenge"]] if record["challenge"] else []
    record["dice"] = list(record.get("dice") or [])
    record["cards"] = list(record.get("cards") or [])
    record["runs"] = int(record.get("runs") or 0)
    record["rbi"] = int(record.get("rbi") or 0)
    return record


def as_records(records: Iterable[Mapping[str, Any]]) -> list[Record]:
    """A game's records normalized and in the order they happened."""
    out = [normalize(r) for r in records]
    if out and all(r.get("seq") is not None for r in out):
        out.sort(key=lambda r: int(r["seq"]))
    return out


def halves(records: Iterable[Record]) -> list[list[Record]]:
    """Consecutive records of the same (inning, half), in order."""
    groups: list[list[Record]] = []
    key: tuple[int, str] | None = None
    for record in records:
        this = (int(record["inning"]), str(record["half"]))
        if this != key:
            groups.append([])
            key = this
        groups[-1].append(record)
    return groups


def half_complete(half: list[Record]) -> bool:
    """A half-inning that ended with its third out (not a walk-off, not cut short)."""
    return bool(half) and int(half[-1]["outs_after"]) >= 3


def first_die(record: Record, die: str) -> str | None:
    """The face of the first roll of ``die`` on this pitch, if it was rolled."""
    for roll in record["dice"]:
        if roll.get("die") == die:
            return str(roll.get("face"))
    return None


def reversed_calls(record: Record) -> list[str]:
    """The calls (die codes or card codes) a challenge overturned on this pitch."""
    return [str(c.get("call")) for c in record["challenges"] if c.get("result") == "reverse"]


def score_before(records: Iterable[Record]) -> list[dict[str, int]]:
    """The score before each record, one dict per record."""
    score = {"away": 0, "home": 0}
    out = []
    for record in records:
        out.append(dict(score))
        score[str(record["offense"])] += int(record["runs"])
    return out


def final_score(records: Iterable[Record]) -> dict[str, int]:
    score = {"away": 0, "home": 0}
    for record in records:
        score[str(record["offense"])] += int(record["runs"])
    return score


def ordinal_en(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"
