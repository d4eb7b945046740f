"""Leagues over HTTP for the tests: registered players, a league, its entrants, its rooms."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from app.db import Database

Message = dict[str, Any]


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def bearer(session: Message) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['token']}"}


async def register(http: httpx.AsyncClient) -> Message:
    response = await http.post("/api/auth/register",
                               json={"name": unique("lg"), "password": "pw-123456"})
    assert response.status_code == 201, response.text
    session: Message = response.json()
    return session


def error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


async def player_league(http: httpx.AsyncClient, players: int, **settings: Any
                        ) -> tuple[Message, list[Message]]:
    """A started player league of dice-duel games between ``players`` new accounts (the first
    creates it); the league as its creator sees it and the sessions in entry order."""
    sessions = [await register(http) for _ in range(players)]
    body = {"name": unique("League "), "kind": "dice-duel", "options": {"innings": 3},
            "entrant_type": "player", **settings}
    created = await http.post("/api/leagues", json=body, headers=bearer(sessions[0]))
    assert created.status_code == 201, created.text
    league = created.json()
    for session in sessions:
        entered = await http.post(f"/api/leagues/{league['id']}/entrants", json={},
                                  headers=bearer(session))
        assert entered.status_code == 201, entered.text
    started = await http.post(f"/api/leagues/{league['id']}/start", headers=bearer(sessions[0]))
    assert started.status_code == 200, started.text
    return started.json(), sessions


def entrant_of(league: Message, session: Message) -> int:
    return next(int(e["id"]) for e in league["entrants"]
                if e["account_id"] == session["account"]["id"])


async def schedule(http: httpx.AsyncClient, league_id: str, session: Message | None = None
                   ) -> list[Message]:
    response = await http.get(f"/api/leagues/{league_id}/schedule",
                              headers=bearer(session) if session else {})
    assert response.status_code == 200, response.text
    games: list[Message] = response.json()
    return games


def with_db(url: str, work: Callable[[Any], Awaitable[Any]]) -> Any:
    """Runs ``work(session)`` on a database session of its own, in a thread of its own (the
    test's event loop is another)."""

    async def run() -> Any:
        database = Database(url, pool_size=1)
        try:
            async with database.session() as db:
                return await work(db)
        finally:
            await database.dispose()

    box: dict[str, Any] = {}

    def target() -> None:
        box["value"] = asyncio.run(run())

    import threading
    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    return box.get("value")
