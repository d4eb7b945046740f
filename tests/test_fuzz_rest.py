"""Property-based fuzzing of the REST API from its own OpenAPI document (schemathesis): any
input, valid or not, gets an answer below 500 in the documented shape, and a refused request
changes nothing that the refusing route could have changed.

Each operation is fuzzed with schemathesis' positive and negative cases, once with made-up path
parameters and once with the ids of a real live game, so the handlers behind the 404s are
reached too."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from sqlalchemy import func, select

from app.accounts.models import Account, DeviceSession
from app.clubs.models import Club, ClubInvite, ClubMember
from app.db import Database
from app.leagues.models import League, LeagueEntrant, LeagueGame
from app.rooms.models import Room
from app.seats.models import Seat
from tests.clubs.helpers import new_code
from tests.support.live import LiveServer
from tests.support.table import open_table

COUNTED = (Account, DeviceSession, Room, Seat, Club, ClubMember, ClubInvite, League,
           LeagueEntrant, LeagueGame)
EXAMPLES = 25


def _counts(url: str) -> tuple[int, ...]:
    async def count() -> tuple[int, ...]:
        database = Database(url, pool_size=1)
        try:
            async with database.session() as db:
                return tuple([
                    int(await db.scalar(select(func.count()).select_from(m)) or 0)
                    for m in COUNTED
                ])
        finally:
            await database.dispose()

    return asyncio.run(count())


def _fuzz(operation: Any, live: LiveServer, token: str, real: dict[str, str]) -> None:
    path_parameters = {k: v for k, v in real.items() if "{" + k + "}" in operation.path}
    mutating = operation.method.upper() in ("POST", "PATCH", "PUT", "DELETE")
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        for parameters in ({}, path_parameters) if path_parameters else ({},):
            strategy = operation.as_strategy(mode, path_parameters=parameters or None)

            @given(case=strategy)
            @settings(max_examples=EXAMPLES, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def run(case: Any) -> None:
                before = _counts(live.database_url) if mutating else None
                headers = dict(case.headers or {})
                if "authorization" not in {k.lower() for k in headers}:
                    headers["Authorization"] = f"Bearer {token}"
                response = case.call(base_url=live.url, headers=headers)
                where = (case.method, case.formatted_path, case.query, str(case.body)[:200])
                assert response.status_code < 500, (where, response.text[:500])
                if response.status_code >= 400:
                    body = response.json()
                    assert set(body) == {"error"}, (where, body)
                    assert isinstance(body["error"]["code"], str), where
                    if mutating:
                        assert _counts(live.database_url) == before, where

            try:
                run()
            except Unsatisfiable:  # nothing to make invalid (an operation with no inputs)
                assert mode is GenerationMode.NEGATIVE


async def test_no_input_breaks_the_api(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        organiser = (await table.http.post("/api/auth/register", json={
            "name": f"fuzz{uuid.uuid4().hex[:10]}", "password": "pw-123456"})).json()
        league = await table.http.post(
            "/api/leagues", json={"name": f"Fuzz {uuid.uuid4().hex[:10]}", "kind": "dice-duel",
                                  "entrant_type": "player"},
            headers={"Authorization": f"Bearer {organiser['token']}"})
        assert league.status_code == 201, league.text
        owner = (await table.http.post("/api/auth/register", json={
            "name": f"f{uuid.uuid4().hex[:12]}", "password": "pw-123456"})).json()
        club = await table.http.post(
            "/api/clubs", json={"name": f"fuzz {uuid.uuid4().hex[:8]}",
                                "code": new_code()},
            headers={"Authorization": f"Bearer {owner['token']}"})
        assert club.status_code == 201, club.text
        real = {"room_id": table.room_id, "game_id": table.game_id,
                "name": table.home_session["account"]["name"], "game": "base-on-board",
                "league_id": league.json()["id"],
                "ref": club.json()["code"], "account_id": owner["account"]["id"],
                "code": club.json()["code"]}
        schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) > 30
        for operation in operations:
            await asyncio.to_thread(_fuzz, operation, live, table.token("home"), real)
    finally:
        await table.close()
