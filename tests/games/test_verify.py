"""The event log is the truth: a game played over the public protocol rebuilds exactly from
its commands and seed, and any change to what was stored is caught and located."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from sqlalchemy import delete, select, update

from app.bots.client import play_table
from app.db import Database
from app.engine_catalog import EngineCatalog
from app.games.models import Command, DiceDraw, Game, GameEvent
from app.games.verify import verify_games
from tests.conftest import real_engines
from tests.support.live import LiveServer
from tests.support.table import open_table

GAMES = [
    ("base-on-board", {"innings": 3, "tier": "pro"}),
    ("bottom-of-the-9th", {}),
]


async def _dice_duel_game(live: LiveServer) -> str:
    table = await open_table(live.url)
    try:
        await table.play_out()
        return table.game_id
    finally:
        await table.close()


async def _check(url: str, catalog: EngineCatalog, game_id: str, tamper: Any = None
                 ) -> dict[str, Any]:
    """The verdict on one game, after ``tamper(db)`` if given; the tampering is rolled back."""
    database = Database(url)
    try:
        async with database.session() as db:
            if tamper is not None:
                await tamper(db)
                await db.flush()
            [check] = await verify_games(db, catalog, game_ids=[game_id])
            await db.rollback()
            return check.to_json()
    finally:
        await database.dispose()


@pytest.mark.parametrize(("kind", "options"), GAMES)
async def test_a_played_game_rebuilds_exactly(
    live: LiveServer, catalog: EngineCatalog, kind: str, options: dict[str, Any]
) -> None:
    if kind not in real_engines():
        pytest.skip(f"{kind} engine not importable")
    report = await play_table(live.url, kind, options, spectators=0, seed=11, timeout=240)
    assert report.result is not None
    check = await _check(live.database_url, catalog, report.game_id)
    assert check["verdict"] == "ok", check
    assert check["commands"] > 5 and check["events"] > check["commands"]


async def test_a_changed_event_command_state_or_die_is_caught(
    live: LiveServer, catalog: EngineCatalog
) -> None:
    game_id = await _dice_duel_game(live)
    assert (await _check(live.database_url, catalog, game_id))["verdict"] == "ok"

    async def event_changed(db: Any) -> None:
        row = await db.scalar(select(GameEvent).where(GameEvent.game_id == game_id,
                                                      GameEvent.seq == 3))
        row.data = {**row.data, "choice": "forged"}

    async def command_lost(db: Any) -> None:
        rows = (await db.scalars(select(Command).where(Command.game_id == game_id))).all()
        middle = sorted(rows, key=lambda r: r.response["first_seq"])[len(rows) // 2]
        await db.execute(delete(Command).where(Command.id == middle.id))

    async def state_changed(db: Any) -> None:
        game = await db.get(Game, game_id)
        game.state = {**game.state, "runs": {"home": 99, "away": 0}}

    async def die_changed(db: Any) -> None:
        await db.execute(update(DiceDraw).where(DiceDraw.game_id == game_id,
                                                DiceDraw.draw_index == 1)
                         .values(value=DiceDraw.value + 1))

    async def rules_changed(db: Any) -> None:
        await db.execute(update(Game).where(Game.id == game_id).values(rules_version="0"))

    changed = await _check(live.database_url, catalog, game_id, event_changed)
    assert changed["verdict"] == "mismatch" and changed["problem"].startswith("event 3 differs")
    lost = await _check(live.database_url, catalog, game_id, command_lost)
    assert lost["verdict"] == "mismatch" and "first_seq" in lost["problem"]
    state = await _check(live.database_url, catalog, game_id, state_changed)
    assert state == {**state, "verdict": "mismatch",
                     "problem": "the stored state differs from the rebuilt one"}
    die = await _check(live.database_url, catalog, game_id, die_changed)
    assert die["verdict"] == "mismatch" and "dice draws differ" in die["problem"]
    rules = await _check(live.database_url, catalog, game_id, rules_changed)
    assert rules["verdict"] == "other_rules" and "rules version 0" in rules["problem"]
    # Every check rolled back: the game rebuilds again.
    assert (await _check(live.database_url, catalog, game_id))["verdict"] == "ok"


async def test_bob_games_verify_exits_1_on_a_difference(live: LiveServer) -> None:
    if "bottom-of-the-9th" not in real_engines():
        pytest.skip("bottom-of-the-9th engine not importable")
    report = await play_table(live.url, "bottom-of-the-9th", {}, spectators=0, seed=3,
                              timeout=240)
    env = {**os.environ, "DATABASE_URL": live.database_url}
    command = [sys.executable, "-m", "app.cli", "games", "verify", "--game", report.game_id]

    def verify() -> tuple[int, list[dict[str, Any]]]:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                              check=False)
        return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]

    code, lines = verify()
    assert code == 0 and lines == [{"verified": 1, "ok": 1}], lines
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            row = await db.scalar(select(GameEvent).where(GameEvent.game_id == report.game_id,
                                                          GameEvent.type == "game_end"))
            original = row.data
            row.data = {"result": {**original["result"], "winner": "forged"}}
            await db.commit()
        try:
            code, lines = verify()
            assert code == 1 and lines[-1] == {"verified": 1, "mismatch": 1}, lines
            assert lines[0]["game_id"] == report.game_id and "differs" in lines[0]["problem"]
        finally:
            async with database.session() as db:
                await db.execute(update(GameEvent).where(GameEvent.id == row.id)
                                 .values(data=original))
                await db.commit()
    finally:
        await database.dispose()
    assert verify()[0] == 0


async def test_a_game_of_other_rules_is_not_moved_on(live: LiveServer,
                                                     catalog: EngineCatalog) -> None:
    # A server that holds no game parsed reads every command's game afresh, as a server just
    # started with a new engine release does.
    server = LiveServer(live.database_url, catalog, run_timers=False, live_games_held=0).start()
    table = await open_table(server.url, timers={"response_seconds": 600, "roll_seconds": 600})
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            await db.execute(update(Game).where(Game.id == table.game_id)
                             .values(rules_version="0"))
            await db.commit()
        states = await table.latest_states()
        side = next(s for s, m in states.items() if m["legal_actions"])
        await table.client(side).send({"type": "action", "id": "after-release",
                                       "action": states[side]["legal_actions"][0]})
        refused = await table.client(side).error()
        assert refused["code"] == "rules_changed" and refused["id"] == "after-release"
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == table.seq and summary["status"] == "live"
    finally:
        async with database.session() as db:  # the suite's own check rebuilds it afterwards
            await db.execute(update(Game).where(Game.id == table.game_id)
                             .values(rules_version="1"))
            await db.commit()
        await database.dispose()
        await table.close()
        server.stop()
