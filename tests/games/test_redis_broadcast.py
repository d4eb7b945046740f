"""The Redis fan-out's dispatch of what it hears: its own copies dropped before decoding,
everyone else's delivered to the room's local listeners."""

from __future__ import annotations

from typing import Any

import orjson

from app.games.redis_broadcast import RedisBroadcaster


def _heard(broadcaster: RedisBroadcaster) -> list[tuple[str, Any]]:
    heard: list[tuple[str, Any]] = []
    broadcaster.local.deliver = lambda room, message: heard.append((room, message))  # type: ignore[method-assign]
    return heard


def test_its_own_copy_is_dropped_unread_and_another_process_s_is_delivered() -> None:
    mine = RedisBroadcaster("redis://127.0.0.1:6379/0", prefix="p:")
    other = RedisBroadcaster("redis://127.0.0.1:6379/0", prefix="p:")
    heard = _heard(mine)
    message = {"seq": 4, "events": []}
    own = orjson.dumps({"o": mine._origin, "m": message})
    # Not even parsed: a copy of its own that is cut short raises nothing.
    mine._dispatch({"type": "message", "channel": b"p:r1", "data": own[:-5]})
    mine._dispatch({"type": "message", "channel": b"p:r1", "data": own})
    assert heard == []
    theirs = orjson.dumps({"o": other._origin, "m": message})
    mine._dispatch({"type": "message", "channel": b"p:r1", "data": theirs})
    assert heard == [("r1", message)]
