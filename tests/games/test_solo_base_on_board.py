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


@pytest.mark.parametrize("level", ["easy", "normal"])
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
            "computer": {"side": "away", "level": level}})
        assert created.status_code == 201, created.text
        room: dict[str, Any] = created.json()
        assert room["status"] == "live" and room["computer_side"] == "away"
        assert room["computer_level"] == level
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
