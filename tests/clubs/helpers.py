"""Registered accounts, clubs and club rooms for the clubs tests, over the REST API."""

from __future__ import annotations

import itertools
import secrets
from typing import Any

import httpx

from app.db import Database
from tests.support.table import Table


def auth(session: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['token']}"}


async def register(http: httpx.AsyncClient, prefix: str = "p") -> dict[str, Any]:
    body = {"name": f"{prefix}{secrets.token_hex(5)}", "password": "correct horse"}
    response = await http.post("/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CODES = itertools.count(secrets.randbelow(len(_DIGITS) ** 4))


def new_code() -> str:
    """A club code no other call in this run gave. Codes are at most four letters or digits,
    and random ones collided now and then among the clubs of one test database (a ``409
    code_taken`` where the test wanted its club)."""
    number = next(_CODES) % len(_DIGITS) ** 4
    return "".join(_DIGITS[number // len(_DIGITS) ** place % len(_DIGITS)]
                   for place in (3, 2, 1, 0))


async def make_club(http: httpx.AsyncClient, owner: dict[str, Any], **extra: Any
                    ) -> dict[str, Any]:
    body = {"name": f"Club {secrets.token_hex(4)}", "code": new_code(),
            "colors": {"primary": "#aa0000", "secondary": "#ffffff"}, **extra}
    response = await http.post("/api/clubs", json=body, headers=auth(owner))
    assert response.status_code == 201, response.text
    return dict(response.json())


async def add_member(http: httpx.AsyncClient, club: dict[str, Any], owner: dict[str, Any],
                     member: dict[str, Any]) -> None:
    invited = await http.post(f"/api/clubs/{club['code']}/invites",
                              json={"name": member["account"]["name"]}, headers=auth(owner))
    assert invited.status_code == 201, invited.text
    accepted = await http.post(f"/api/clubs/{club['code']}/accept", headers=auth(member))
    assert accepted.status_code == 200, accepted.text


async def club_table(url: str, home: dict[str, Any], away: dict[str, Any],
                     clubs: dict[str, str], kind: str = "dice-duel",
                     options: dict[str, Any] | None = None,
                     timers: dict[str, Any] | None = None) -> Table:
    """A live game of a club room: ``home`` creates it on the home side, ``away`` joins."""
    http = httpx.AsyncClient(base_url=url, timeout=30)
    table = Table(url, http, home, away)
    body: dict[str, Any] = {"kind": kind, "options": options or {"innings": 3},
                            "side": "home", "clubs": clubs}
    if timers:
        body["timers"] = timers
    created = await http.post("/api/rooms", json=body, headers=auth(home))
    assert created.status_code == 201, created.text
    table.room_id = created.json()["id"]
    table.spectators = [await table.connect(None, last_seq=0)]
    table.home = await table.connect("home")
    table.away = await table.connect("away")
    joined = await http.post(f"/api/rooms/{table.room_id}/join", json={"side": "away"},
                             headers=auth(away))
    assert joined.status_code == 200, joined.text
    table.game_id = joined.json()["current_game_id"]
    assert table.game_id
    return table


async def finish(table: Table) -> None:
    await table.play_out(5000)
    await table.spectators[0].next(
        lambda m: m["type"] == "state" and m["game"]["status"] != "live")


async def in_db(url: str, fn: Any) -> Any:
    """``await fn(db)`` in a session of its own on the live server's database."""
    database = Database(url, pool_size=1)
    try:
        async with database.session() as db:
            return await fn(db)
    finally:
        await database.dispose()
