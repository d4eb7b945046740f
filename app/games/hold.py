"""A pass written with the commit before it and shown only at its hidden time.

Design note 1: a side passes at the same moment (its hidden ``pass_at``) whether it had no card
that could answer, and the server passed for it, or a person chose not to play one and said so
sooner; the pause tells nobody what the hand holds. Either way the pass is certain long before
it may be seen: the side's only legal action, or already sent. Applied when its time came, it
was a transaction and a fan-out of its own (four applied commands in ten at the benchmarks'
pace, issue 12). Now it is applied at once and written in the same statement as the command
that made it certain (or, for a person's early pass, in its own statement at once), and the
game row keeps what viewers see until then: the state, the last event's ``seq`` and the
public deadlines before the pass. The server publishes the rest at ``until``
(``CommandPath``); a process that restarts or takes the room over finds it by time.

Every reader of a live game's log, pitches, state or ``seq`` reads through :func:`active`:
events, pitch rows and actions after ``seq`` do not exist for anyone until ``until``. While
a pass is held, the side that passes may only pass again (answered ``scheduled``) and the other
side, which waits for the window in both engines (a side may pass only while the other waits,
``tests/engines/test_windows_alone.py``), may do nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.db import utcnow
from app.engines.interface import Side

PASS_TYPE = "pass"


@dataclass(frozen=True, slots=True)
class Hold:
    until: datetime
    seq: int
    """The last event viewers may see."""
    state_json: dict[str, Any]
    """The engine state viewers see, as stored."""
    deadlines: dict[str, Any]
    """The public deadlines viewers see."""
    side: Side
    """The side whose pass is held."""
    state: Any = None
    """``state_json`` parsed (the command path's copy of a game it holds)."""

    def legal(self, side: str) -> list[dict[str, Any]]:
        """What ``side`` may send meanwhile: the held side its pass again, the other nothing."""
        return [{"side": side, "type": PASS_TYPE}] if side == self.side else []

    def legal_by_side(self) -> dict[str, list[dict[str, Any]]]:
        return {side: self.legal(side) for side in ("home", "away")}

    def to_json(self) -> dict[str, Any]:
        return {"until": self.until.isoformat(), "seq": self.seq, "state": self.state_json,
                "deadlines": self.deadlines, "side": self.side}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Hold:
        return Hold(until=datetime.fromisoformat(data["until"]), seq=int(data["seq"]),
                    state_json=data["state"], deadlines=data["deadlines"], side=data["side"])


def lasting(raw: Hold | dict[str, Any] | None, now: datetime | None = None) -> Hold | None:
    """The hold ``raw`` (as stored, or parsed) while it lasts, else ``None``."""
    if raw is None:
        return None
    hold = raw if isinstance(raw, Hold) else Hold.from_json(raw)
    return hold if hold.until > (now or utcnow()) else None


def active(game: Any, now: datetime | None = None) -> Hold | None:
    """The hold of ``game`` (a stored ``Game`` or a held ``LiveGame``) while it lasts."""
    return lasting(game.hold, now)


def seen_seq(seq: int, raw: Hold | dict[str, Any] | None, now: datetime | None = None) -> int:
    """The last event anyone may see ``now`` of a game written up to ``seq``, with hold
    ``raw``."""
    hold = lasting(raw, now)
    return seq if hold is None else hold.seq


def held_back(game: Any, now: datetime | None = None) -> int | None:
    """The last event of ``game`` anyone may see while a pass is held, else ``None``
    (everything written may be seen): the bound for reads of its events, pitches and
    actions."""
    hold = active(game, now)
    return None if hold is None else hold.seq


def visible_seq(game: Any, now: datetime | None = None) -> int:
    """The last event of ``game`` anyone may see now."""
    return seen_seq(int(game.seq), game.hold, now)
