"""Design note 1: a side whose only legal action is "pass" is passed by the server after a
human-like pause, the same whatever its hand holds, and nothing public tells it apart."""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import select

from app.db import Database
from app.engines.base_on_board import Engine
from app.engines.dice import SeededDice
from app.games.models import Command, GameEvent
from app.games.service import compute_deadlines, public_deadlines
from tests.support.arrivals import Arrival, pass_pauses, watch
from tests.support.live import LiveServer
from tests.support.table import Client, open_table

KIND = "base-on-board"
PASS_ONLY = "pass-only"


def _pass_only(legal: list[dict[str, Any]]) -> bool:
    return len(legal) == 1 and legal[0]["type"] == "pass"


def _windows_with_a_hand(seed: int, wanted: int = 5) -> list[tuple[Any, str]]:
    """Pass-only windows (fast_play off) whose side holds cards that cannot answer them."""
    engine = Engine(SeededDice(seed))
    state, _events = engine.start({"innings": 3, "tier": "pro"})
    rng = random.Random(seed)
    found = []
    while engine.outcome(state) is None and len(found) < wanted:
        side = next(s for s in ("home", "away") if engine.legal_actions(state, s))
        legal = engine.legal_actions(state, side)
        if _pass_only(legal) and state.hands[side]:
            found.append((state, side))
        state, _events = engine.apply(state, rng.choice(legal))
    return found


def test_the_pause_and_the_events_do_not_depend_on_the_hand() -> None:
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    timers = {"response_seconds": 20, "roll_seconds": 15, "auto_pass_ms": 800}
    windows = _windows_with_a_hand(3)
    assert windows
    for state, side in windows:
        engine = Engine(SeededDice(0))
        empty = state.clone()
        empty.hands[side] = []
        assert engine.legal_actions(empty, side) == engine.legal_actions(state, side)
        with_cards = compute_deadlines(engine, state, timers, now, pause=0.3)
        without = compute_deadlines(engine, empty, timers, now, pause=0.3)
        assert with_cards == without
        assert with_cards[side]["acts"] == "pass"
        # 800 ms x (0.75 + 0.5 x 0.3): before the public response deadline, never shown.
        assert with_cards[side]["acts_at"] == "2026-11-29T12:00:00.720000+00:00"
        assert public_deadlines(with_cards) == {
            side: {"at": "2026-11-29T12:00:20+00:00", "timer": "response"}
        }
        other = "away" if side == "home" else "home"
        runs = []
        for start in (state, empty):
            _after, events = Engine(SeededDice(9)).apply(start, {"side": side, "type": "pass"})
            runs.append([(e.for_viewer(None), e.for_viewer(other)) for e in events])
        assert runs[0] == runs[1]


async def _side(client: Client, log: list[dict[str, Any]]) -> None:
    """A player who acts at once on anything but a pass-only window, which it leaves alone."""
    acted = -1
    while True:
        message = await client.next(timeout=30)
        if message["type"] not in ("state", "snapshot"):
            continue
        if message["game"]["status"] != "live":
            return
        legal = message["legal_actions"]
        if _pass_only(legal):
            log.append(message)
        elif legal and message["seq"] > acted:
            acted = message["seq"]
            await client.send({"type": "action", "id": uuid.uuid4().hex, "seq": message["seq"],
                               "action": legal[0]})


async def test_the_server_passes_a_pass_only_window_after_the_pause(live: LiveServer) -> None:
    auto_pass_ms = 60
    table = await open_table(live.url, KIND, {"innings": 3, "tier": "pro"},
                             timers={"auto_pass_ms": auto_pass_ms}, spectators=1)
    seen: list[dict[str, Any]] = []
    arrivals: list[Arrival] = []
    try:
        room = (await table.http.get(f"/api/rooms/{table.room_id}")).json()
        assert room["timers"]["auto_pass_ms"] == auto_pass_ms
        assert "fast play" not in room["description"]
        watcher = asyncio.create_task(watch(table.spectators[0], arrivals, asyncio.Event()))
        players = [asyncio.create_task(_side(table.client(s), seen)) for s in ("home", "away")]
        try:
            await asyncio.wait_for(asyncio.gather(*players, watcher), 240)
        finally:
            for task in (*players, watcher):
                task.cancel()
        assert arrivals[-1][1] == "state"  # the watcher saw the end
    finally:
        await table.close()
    assert seen, "no pass-only window in a whole game"
    for state in seen:  # the owner sees the same kind of deadline as for a real choice
        for deadline in state["game"]["deadlines"].values():
            assert set(deadline) == {"at", "timer"} and deadline["timer"] == "response"
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            commands = list(await db.scalars(
                select(Command).where(Command.game_id == table.game_id).order_by(Command.id)))
            events = {e.seq: e for e in await db.scalars(
                select(GameEvent).where(GameEvent.game_id == table.game_id))}
    finally:
        await database.dispose()
    passes = [c for c in commands if c.command_id.startswith("pass:")]
    assert len(passes) >= len({s["seq"] for s in seen}) > 0
    for command in passes:
        assert command.actor == "server"
        assert command.action == {"side": command.side, "type": "pass"}
        event = events[command.response["first_seq"]]
        assert event.type == "pass" and event.data["side"] == command.side
        assert event.private == {}
    # Each pass reached the watcher after the pause, whether the server wrote it when its time
    # came or with the command that made it certain (``:with``, held until then): most of
    # them, since a pass only shows when its state's frame has gone out.
    _by_hand, pauses = pass_pauses(arrivals, set())
    assert len(pauses) >= len({s["seq"] for s in seen})
    assert all(p <= 1.25 * auto_pass_ms / 1000 + 0.5 for p in pauses), pauses
    low = 0.5 * 0.75 * auto_pass_ms / 1000
    assert sum(p < low for p in pauses) <= len(pauses) // 10, sorted(pauses)
    assert any(c.command_id.endswith(":with") for c in passes)
    # The players never passed by hand here: every pass-only window was the server's.
    assert not [c for c in commands if c.actor != "server" and c.action["type"] == "pass"]


async def test_fast_play_is_in_the_room_description(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        from app.bots.client import guest

        session = await guest(http)
        created = await http.post(
            "/api/rooms", json={"kind": KIND, "options": {"innings": 3, "fast_play": True}},
            headers={"Authorization": f"Bearer {session['token']}"},
        )
        assert created.status_code == 201, created.text
        room = created.json()
        assert room["options"]["fast_play"] is True
        assert "fast play" in room["description"]
        lobby = (await http.get("/api/rooms", params={"kind": KIND})).json()
        assert "fast play" in next(r for r in lobby if r["id"] == room["id"])["description"]
