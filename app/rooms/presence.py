"""When a seat counts as connected: the rule the room answers, claims and the lobby share.

Each process refreshes the ``last_seen_at`` of the seats it has sockets for every
``PRESENCE_HEARTBEAT_SECONDS`` (``app.realtime.presence``), so the rule holds across processes.
"""

from __future__ import annotations

from datetime import UTC, datetime

MISSED_HEARTBEATS = 3
"""A seat counts as connected while it was seen within this many heartbeats (plus a second)."""


def seat_connected(last_seen_at: datetime | None, now: datetime, heartbeat_seconds: float) -> bool:
    """Whether a seat has a socket open, as far as its heartbeat tells (any process's)."""
    if last_seen_at is None:
        return False
    if last_seen_at.tzinfo is None:
        last_seen_at = last_seen_at.replace(tzinfo=UTC)
    window = MISSED_HEARTBEATS * heartbeat_seconds + 1
    return (now - last_seen_at).total_seconds() <= window
