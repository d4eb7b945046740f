"""What a pitch record says about the pitch itself: was one thrown, was it a strike.

Below both ``games`` (the ``pitch`` row's ``thrown`` / ``strike`` columns are set when it is
written) and ``stats`` (box scores and SQL pitching lines count them). The conventions are
the box score's (:mod:`app.stats.boxscore`).
"""

from __future__ import annotations

from app.records.shape import Record, first_die, reversed_calls

BOB_PITCH_FACES = frozenset({"S", "SM", "F", "B", "C"})


def pitch_thrown(record: Record) -> bool:
    return first_die(record, "pitch") is not None or bool(record.get("pitch_by_card"))


def is_strike(record: Record) -> bool:
    """The pitch's call under the conventions above (only meaningful when it was thrown)."""
    if "stare" in record:
        return record.get("result") != "B"
    if record.get("pa_result") == "HBP":
        return False
    face = first_die(record, "pitch")
    if face is None:
        return bool(record.get("pitch_by_card"))
    if face in ("B", "SM") and face in reversed_calls(record):
        face = "SM" if face == "B" else "B"
    return face in BOB_PITCH_FACES and face != "B"
