"""Base on Board against the computer: the room seats it at a chosen level, the game starts at
once, the computer plays its side through the command path, and the game is not rated."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.bots.client import guest
from app.db import Database
from app.games.models import Command
from tests.conftest import real_engines
from tests.games.test_solo import _connect, _play
from tests.support.live import LiveServer

KIND = "base-on-board"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
async def test_a_person_plays_base_on_board_against_the_computer(
    live: LiveServer, level: str
) -> None:
    if KIND not in real_engines():
        pytest.skip("base-on-board engine not importable")
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        session = await guest(http)
        auth = {"Authorization": f"Bearer {session['token']}"}
        created = await http.post("/api/rooms", headers=auth, json={
            "kind": KIND, "options": {"innings": 3, "tier": "lite", "fast_play": True},
            "timers": {"computer_delay_ms": 0, "auto_pass_ms": 0}, "side": "home",
            "computer": {"side": "away", "level": level, "think_ms": 100}})
        assert created.status_code == 201, created.text
        room: dict[str, Any] = created.json()
        assert room["status"] == "live" and room["computer_side"] == "away"
        assert room["computer_level"] == level and room["computer_think_ms"] == 100
        taken = await http.post(f"/api/rooms/{room['id']}/join", json={"side": "away"},
                                headers={"Authorization": f"Bearer {(await guest(http))['token']}"})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "computer_side"
        rating = (await http.get(f"/api/rooms/{room['id']}/rating")).json()
        client = await _connect(live.url, room["id"], session["token"])
        try:
            final = await _play(client)
        finally:
            await client.close()
        assert final["game"]["status"] == "finished" and final["game"]["computer_side"] == "away"
    assert rating["rated"] is False and rating["reason"] == "solo", rating
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            actors = set(await db.scalars(select(Command.actor).where(
                Command.game_id == room["current_game_id"])))
    finally:
        await database.dispose()
    assert "computer" in actors and session["account"]["id"] in actors
    if level == "hard":
        await _assert_the_game_reads_again(live.database_url, room["current_game_id"])


async def _assert_the_game_reads_again(database_url: str, game_id: str) -> None:
    """What the server's ``hard`` reads before each move, the game's applied actions replayed
    from its seed, leads to the stored position: so its reading is never dropped for a
    mismatch (it would fall back to reading nothing)."""
    from app.engine_catalog import default_catalog
    from app.engines.base_on_board.reading import read_game
    from app.games import service, verify
    from app.games.models import Game

    database = Database(database_url)
    try:
        async with database.session() as db:
            game = await db.get(Game, game_id)
            assert game is not None
            past = await verify.game_actions(db, game_id)
    finally:
        await database.dispose()
    engine, _dice = service.engine_for(default_catalog(), game)
    state = engine.from_json(game.state)
    assert past and read_game(engine, state, "away", past) is not None  # type: ignore[arg-type]
    assert read_game(engine, state, "away", past[:-1]) is None  # type: ignore[arg-type]


async def test_the_computer_cannot_take_the_side_solo_mode_gives_a_person(
    live: LiveServer
) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        session = await guest(http)
        refused = await http.post("/api/rooms", headers={
            "Authorization": f"Bearer {session['token']}"}, json={
            "kind": "bottom-of-the-9th", "options": {"mode": "solo", "solo_side": "home"},
            "side": "home", "computer": {"side": "home", "level": "easy"}})
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "invalid_options"


async def test_the_think_time_is_a_validated_room_option(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        session = await guest(http)
        auth = {"Authorization": f"Bearer {session['token']}"}
        body: dict[str, Any] = {"kind": KIND, "options": {"innings": 3}, "side": "home"}
        for bad in (99, 5001, "slow", None, 250.5):
            refused = await http.post("/api/rooms", headers=auth, json={
                **body, "computer": {"side": "away", "level": "hard", "think_ms": bad}})
            assert refused.status_code == 422, (bad, refused.text)
            assert refused.json()["error"]["code"] == "invalid_request", refused.text
        made = await http.post("/api/rooms", headers=auth, json={
            **body, "computer": {"side": "away", "level": "hard"}})
        assert made.status_code == 201 and made.json()["computer_think_ms"] == 500
        people = await http.post("/api/rooms", headers=auth, json=body)
        assert people.status_code == 201 and people.json()["computer_think_ms"] is None


def test_a_thinking_level_is_given_the_game_so_far() -> None:
    """``think`` hands the kind's thinking level the game's actions with its stop check."""
    from app.engine_catalog import EngineCatalog
    from app.engines.base_on_board import Engine
    from app.engines.dice import SeededDice
    from app.engines.registry import make_engine
    from app.games.computer import think

    given: list[tuple[bool, list[dict[str, Any]]]] = []

    def timed(enough: Any, past: Any) -> Any:
        given.append((enough(), list(past)))
        return lambda engine, state, side, pick: engine.legal_actions(state, side)[-1]

    catalog = EngineCatalog({KIND: lambda dice: make_engine(KIND, dice)},
                            timed={KIND: {"hard": timed}})
    engine = Engine(SeededDice(1))
    state = engine.new_game({"innings": 3})
    side = state.queue[0][0]
    past = [{"side": "away", "type": "pass"}]
    action = think(catalog, KIND, "hard", 60_000, engine, state, side, lambda n: 0, past)
    assert action == engine.legal_actions(state, side)[-1]
    assert given == [(False, past)]


def test_thinking_is_inside_the_pause_and_old_seats_get_the_default() -> None:
    from datetime import UTC, datetime, timedelta

    from app.engine_catalog import default_catalog
    from app.engines.base_on_board import Engine
    from app.engines.dice import SeededDice
    from app.games.computer import DEFAULT_THINK_MS, computer_think_ms, stop_after
    from app.games.service import compute_deadlines

    catalog = default_catalog()

    class Row:
        kind = KIND
        stand_in = None

        def __init__(self, computer: dict[str, Any] | None) -> None:
            self.computer = computer

    assert computer_think_ms(catalog, Row({"side": "away", "level": "hard"})) == DEFAULT_THINK_MS
    assert computer_think_ms(catalog, Row({"side": "away", "level": "hard", "think_ms": 900})) \
        == 900
    assert computer_think_ms(catalog, Row({"side": "away", "level": "normal"})) == 0
    assert computer_think_ms(catalog, Row(None)) == 0
    engine = Engine(SeededDice(1))
    state = engine.new_game({"innings": 3})
    side = state.queue[0][0]
    now = datetime(2026, 1, 1, tzinfo=UTC)
    for think, after in ((0, 600), (200, 400), (900, 0)):
        deadlines = compute_deadlines(engine, state, {"computer_delay_ms": 600}, now,
                                      computer=side, think_ms=think)
        assert deadlines[side] == {"at": (now + timedelta(milliseconds=after)).isoformat(),
                                   "timer": "computer"}
    assert stop_after(60_000)() is False and stop_after(0)() is True
