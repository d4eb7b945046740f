"""Whole games of the real engines, by bots over the public protocol, with spectators.

These run once the engines import (they are written alongside the server): each game must end,
every spectator must see exactly the public log, and the pitch table must hold one row per
``pitch`` event.
"""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import func, select

from app.bots.client import play_table
from app.db import Database
from app.games.models import GameEvent, Pitch
from app.games.views import verify_draws
from tests.conftest import real_engines
from tests.support.live import LiveServer

GAMES = [
    ("base-on-board", {"innings": 3, "tier": "pro"}),
    ("base-on-board", {"innings": 3, "tier": "lite"}),
    ("bottom-of-the-9th", {}),
    ("bottom-of-the-9th", {"race": "turns", "setup": "random"}),
]


@pytest.mark.parametrize(("kind", "options"), GAMES)
async def test_real_engine_full_game(live: LiveServer, kind: str, options: dict) -> None:
    if kind not in real_engines():
        pytest.skip(f"{kind} engine not importable yet")
    report = await play_table(live.url, kind, options, spectators=2, seed=5, timeout=240)
    assert report.errors == [], report.errors[:3]
    assert report.problems == []
    assert report.result is not None and report.result["reason"] != "claim"
    async with httpx.AsyncClient(base_url=live.url) as http:
        fair = (await http.get(f"/api/games/{report.game_id}/fairness")).json()
        assert fair["draw_count"] == len(fair["draws"]) > 0
        assert verify_draws(fair["seed"], report.game_id, fair["draws"])
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            events = await db.scalar(select(func.count()).where(
                GameEvent.game_id == report.game_id, GameEvent.type == "pitch"))
            rows = await db.scalar(select(func.count()).where(Pitch.game_id == report.game_id))
            stored = {
                e.seq: e for e in await db.scalars(
                    select(GameEvent).where(GameEvent.game_id == report.game_id))
            }
        assert events == rows and rows > 0
    finally:
        await database.dispose()
    # Private parts reach their own side only: each player's copy of an event is the stored
    # event filtered for that side, and holds no key that only the other side may see.
    for side, messages in report.player_messages.items():
        other = "away" if side == "home" else "home"
        for message in messages:
            if message["type"] != "event":
                continue
            row = stored[message["seq"]]
            assert message["event"] == {"type": row.type, **row.data, **row.private.get(side, {})}
            hidden = set(row.private.get(other, {})) - set(row.data) - set(
                row.private.get(side, {})
            )
            assert not hidden & set(message["event"])
    for log in report.spectator_messages:
        for message in log:
            if message["type"] == "event":
                row = stored[message["seq"]]
                assert message["event"] == {"type": row.type, **row.data}
