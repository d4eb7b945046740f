"""A pass written before its time (``app.games.hold``) does not exist for anyone until then:
not on a socket, not in any REST read, not to another server on the same database; the side
that passes may only pass again, the other side nothing; at its time it reaches everyone."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db import Database, utcnow
from app.engine_catalog import EngineCatalog
from app.games.hold import Hold
from app.games.models import Command, Game
from tests.support.live import LiveServer
from tests.support.table import Client, Table, open_table

AUTO_PASS_MS = 3000
"""A hold lasts 2.25-3.75 s: long enough to look at everything meanwhile."""
PRO = {"innings": 3, "tier": "pro"}


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


async def _stored(url: str, game_id: str) -> tuple[Game, list[Command]]:
    database = Database(url)
    try:
        async with database.session() as db:
            game = await db.get(Game, game_id)
            assert game is not None
            commands = list(await db.scalars(select(Command).where(Command.game_id == game_id)))
            return game, commands
    finally:
        await database.dispose()


async def _until(table: Table, found: Any) -> tuple[str, dict[str, Any]]:
    """Plays (never passing by hand) until ``found(side, state)`` holds for a side's newest
    state; returns that side and state."""
    for _ in range(2000):
        states = await table.latest_states()
        for side, state in states.items():
            assert state["game"]["status"] == "live", "the game ended first"
            if found(side, state):
                return side, state
        side, state = next((s, m) for s, m in states.items() if m["legal_actions"])
        legal = state["legal_actions"]
        action = next((a for a in legal if a["type"] != "pass"), legal[0])
        reply = await table.act(side, action, seq=state["seq"])
        assert reply["type"] == "ack", reply
        if reply["result"] == "scheduled":
            table.seq = max(table.seq, await table._applied_after(side, reply["seq"]))
    raise AssertionError("no such state in 2,000 moves")


async def _looks(http: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    """Every REST read of a live game, as a spectator makes them."""
    events = (await http.get(f"/api/games/{game_id}/events", params={"limit": 5000})).json()
    summary = (await http.get(f"/api/games/{game_id}")).json()
    pitches = (await http.get(f"/api/games/{game_id}/pitches")).json()
    record = (await http.get(f"/api/games/{game_id}/record")).json()
    return {"events_seq": events["seq"], "last_event": max(e["seq"] for e in events["events"]),
            "summary_seq": summary["seq"], "pitches": summary["pitches"],
            "last_pitch": max((p["seq"] for p in pitches), default=0),
            "record_pitches": len(record["seqs"])}


async def test_a_certain_pass_is_written_with_the_command_and_shown_at_its_time(
    live: LiveServer, catalog: EngineCatalog
) -> None:
    table = await open_table(live.url, "base-on-board", PRO,
                             timers={"auto_pass_ms": AUTO_PASS_MS}, spectators=1)
    other_server = LiveServer(live.database_url, catalog, run_timers=False).start()
    try:
        side, state = await _until(table, lambda _s, m: [a["type"] for a in m["legal_actions"]]
                                   == ["pass"])
        seen = state["seq"]
        game, commands = await _stored(live.database_url, table.game_id)
        hold = Hold.from_json(game.hold or {})
        # Written already: the pass, its events, and the state after it...
        assert hold.seq == seen and hold.side == side and hold.until > utcnow()
        assert game.seq > seen
        folded = [c for c in commands if c.command_id.endswith(":with")]
        assert folded[-1].response["first_seq"] == seen + 1
        assert folded[-1].response["seq"] == game.seq
        # ...and nowhere to be seen: every REST read stops at the visible seq,
        looks = await _looks(table.http, table.game_id)
        assert looks["events_seq"] == looks["last_event"] == looks["summary_seq"] == seen
        assert looks["last_pitch"] <= seen and looks["pitches"] == looks["record_pitches"]
        # a socket opened now (here, and on another server) is told what was before it,
        for url in (live.url, other_server.url):
            table.url = url
            late = await table.connect(None, last_seq=0)
            update = await late.next(lambda m: m["type"] == "state")
            assert update["seq"] == seen and update["game"]["seq"] == seen
            assert max(s for s, _e in late.events()) == seen
            await late.close()
        table.url = live.url
        # the side may only pass again (answered as a pass held until its time), on either
        # server, and the other side may do nothing.
        reply = await table.act(side, {"side": side, "type": "pass"}, seq=seen)
        assert (reply["type"], reply["result"], reply["seq"]) == ("ack", "scheduled", seen)
        table.url = other_server.url
        mover = await table.connect(side)
        snapshot = await mover.next(lambda m: m["type"] in ("state", "snapshot"))
        assert snapshot["seq"] == seen and snapshot["legal_actions"] == [
            {"side": side, "type": "pass"}]
        await mover.send({"type": "action", "id": uuid.uuid4().hex, "seq": seen,
                          "action": {"side": side, "type": "pass"}})
        reply = await mover.next(lambda m: m["type"] in ("ack", "error"))
        assert (reply["type"], reply.get("result")) == ("ack", "scheduled"), reply
        await mover.close()
        table.url = live.url
        reply = await table.act(_other(side), {"side": _other(side), "type": "pass"})
        assert (reply["type"], reply["code"]) == ("error", "not_your_turn")
        assert utcnow() < hold.until, "the machine was too slow to look within the hold"
        # At its time everyone gets it, and every read shows it.
        watcher: Client = table.spectators[0]
        passed = await watcher.next(lambda m: m["type"] == "event" and m["seq"] == seen + 1,
                                    timeout=10)
        assert (passed["event"]["type"], passed["event"]["side"]) == ("pass", side)
        assert utcnow() >= hold.until
        looks = await _looks(table.http, table.game_id)
        assert looks["events_seq"] == looks["summary_seq"] == looks["last_event"] >= game.seq
        # The game goes on from the state after the pass.
        table.seq = looks["events_seq"]
        moved = await table.step()
        assert moved is not None and moved["type"] == "ack"
    finally:
        other_server.stop()
        await table.close()


async def test_a_persons_early_pass_is_written_once_and_shown_at_its_time(
    live: LiveServer,
) -> None:
    table = await open_table(live.url, "base-on-board", PRO,
                             timers={"auto_pass_ms": AUTO_PASS_MS}, spectators=1)
    try:
        side, state = await _until(
            table, lambda _s, m: len(m["legal_actions"]) > 1
            and {"side": _s, "type": "pass"} in m["legal_actions"])
        seen = state["seq"]
        command = uuid.uuid4().hex
        sent = asyncio.get_running_loop().time()
        reply = await table.act(side, {"side": side, "type": "pass"}, command, seq=seen)
        assert (reply["type"], reply["result"], reply["seq"]) == ("ack", "scheduled", seen)
        game, commands = await _stored(live.database_url, table.game_id)
        hold = Hold.from_json(game.hold or {})
        assert hold.seq == seen and hold.side == side and game.seq > seen
        [mine] = [c for c in commands if c.command_id == command]
        assert mine.response == {"result": "applied", "first_seq": seen + 1, "seq": game.seq,
                                 "duplicate": False}
        # Sent again (a reconnecting client), the same answer; a card now is refused.
        again = await table.act(side, {"side": side, "type": "pass"}, command, seq=seen)
        assert again["type"] == "ack" and again["seq"] >= seen
        card = next((a for a in state["legal_actions"] if a["type"] != "pass"), None)
        if card is not None:
            refused = await table.act(side, card, seq=seen)
            assert (refused["type"], refused["code"]) == ("error", "illegal_action")
        looks = await _looks(table.http, table.game_id)
        assert looks["events_seq"] == looks["summary_seq"] == seen
        watcher: Client = table.spectators[0]
        await watcher.next(lambda m: m["type"] == "event" and m["seq"] == seen + 1, timeout=10)
        waited = asyncio.get_running_loop().time() - sent
        assert waited >= 0.75 * AUTO_PASS_MS / 1000 - 0.05, waited
        # One write for the pass: no second command row, no server pass for that window.
        _game, after = await _stored(live.database_url, table.game_id)
        assert not [c for c in after if c.command_id.startswith("pass:")
                    and c.response.get("first_seq") == seen + 1]
    finally:
        await table.close()


async def test_a_commit_slower_than_its_pause_still_reaches_sockets_in_order(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a busy server the held pass's time may pass while its command is still being
    written. Here the command path's clock runs 30 s behind, so every hold has ended before
    its commit is published (and the timer runner, on the true clock, plays each deadline at
    once): a spectator must still see every event, in order, as the public log has it."""
    from app.games import commands

    def behind() -> datetime:
        return utcnow() - timedelta(seconds=30)

    monkeypatch.setattr(commands, "utcnow", behind)
    table = await open_table(live.url, "base-on-board", PRO,
                             timers={"auto_pass_ms": AUTO_PASS_MS}, spectators=1)
    try:
        watcher: Client = table.spectators[0]
        await watcher.next(lambda m: m["type"] in ("state", "snapshot")
                           and m["game"]["status"] == "finished", timeout=120)
        _game, stored = await _stored(live.database_url, table.game_id)
        assert any(c.command_id.endswith(":with") for c in stored), "no pass was held"
        public = (await table.http.get(f"/api/games/{table.game_id}/events",
                                       params={"limit": 5000})).json()["events"]
        seen = watcher.events()
        assert [s for s, _e in seen] == [e["seq"] for e in public]
    finally:
        await table.close()
