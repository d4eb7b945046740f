"""Club against club rooms: who may create one and sit on a club's side, the clubs written with
each game (and swapped by a rematch), and club ratings at game end and rebuilt."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clubs import ratings as club_ratings
from app.clubs.models import GameClub
from tests.clubs.helpers import add_member, auth, club_table, finish, in_db, make_club, register
from tests.clubs.test_clubs_api import error
from tests.support.live import LiveServer


async def game_clubs(url: str, game_id: str) -> dict[str, str]:
    async def read(db: AsyncSession) -> dict[str, str]:
        rows = await db.execute(
            select(GameClub.side, GameClub.club_id).where(GameClub.game_id == game_id))
        return {side: club for side, club in rows.all()}
    return dict(await in_db(url, read))


async def test_who_may_create_a_club_room(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        owner, outsider = await register(http), await register(http)
        mine, theirs = await make_club(http, owner), await make_club(http, outsider)
        rooms_before = len((await http.get("/api/rooms", params={"limit": 200})).json())

        def body(clubs: dict[str, Any], **extra: Any) -> dict[str, Any]:
            return {"kind": "dice-duel", "clubs": clubs, **extra}

        error(await http.post("/api/rooms", json=body({"away": theirs["id"]}),
                              headers=auth(owner)), 403, "not_member")
        error(await http.post("/api/rooms", json=body({"home": "ZZZZZZZZ"}),
                              headers=auth(owner)), 404, "club_not_found")
        error(await http.post("/api/rooms", json=body({"home": mine["id"],
                                                       "away": mine["code"]}),
                              headers=auth(owner)), 422, "same_club")
        error(await http.post("/api/rooms", json=body({"home": mine["id"]},
                                                      computer={"side": "away"}),
                              headers=auth(owner)), 422, "club_solo")
        error(await http.post("/api/rooms", json=body({"home": mine["id"], "third": "x"}),
                              headers=auth(owner)), 422, "invalid_request")
        # Seated on the other club's side at creation: refused, and no room is left behind.
        error(await http.post("/api/rooms", json=body(
            {"home": mine["id"], "away": theirs["id"]}, side="away"), headers=auth(owner)),
            403, "not_club_member")
        assert len((await http.get("/api/rooms", params={"limit": 200})).json()) == rooms_before

        created = await http.post("/api/rooms", json=body(
            {"home": mine["code"], "away": theirs["id"]}, side="home"), headers=auth(owner))
        assert created.status_code == 201, created.text
        room = created.json()
        assert room["clubs"]["home"] == {"id": mine["id"], "name": mine["name"],
                                         "code": mine["code"], "colors": mine["colors"]}
        assert room["clubs"]["away"]["id"] == theirs["id"]
        assert room["teams"]["home_name"] == mine["name"]
        assert room["teams"]["away_color"] == theirs["colors"]["primary"]

        # Club against a pick-up side: anyone may take the pick-up side.
        named = await http.post("/api/rooms", json=body(
            {"home": mine["id"]}, options={"home_name": "Own name"}), headers=auth(owner))
        assert named.status_code == 201
        assert named.json()["teams"] == {"home_name": "Own name", "home_color": "#aa0000"}
        assert set(named.json()["clubs"]) == {"home"}
        stranger = await register(http)
        sat = await http.post(f"/api/rooms/{named.json()['id']}/join", json={"side": "away"},
                              headers=auth(stranger))
        assert sat.status_code == 200, sat.text


async def test_only_members_sit_on_a_clubs_side(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        home, away, mate, outsider = [await register(http) for _ in range(4)]
        home_club, away_club = await make_club(http, home), await make_club(http, away)
        await add_member(http, away_club, away, mate)
        created = await http.post("/api/rooms", json={
            "kind": "dice-duel", "side": "home",
            "clubs": {"home": home_club["id"], "away": away_club["id"]}}, headers=auth(home))
        room_id = created.json()["id"]
        for side in ("home", "away"):
            error(await http.post(f"/api/rooms/{room_id}/join", json={"side": side},
                                  headers=auth(outsider)), 403, "not_club_member")
        # A member of one club may not switch to the other club's side before the game.
        error(await http.post(f"/api/rooms/{room_id}/join", json={"side": "away"},
                              headers=auth(home)), 403, "not_club_member")
        room = (await http.get(f"/api/rooms/{room_id}")).json()
        assert [(s["name"], s["side"]) for s in room["seats"]] == [
            (home["account"]["name"], "home")]
        assert room["status"] == "open"

        joined = await http.post(f"/api/rooms/{room_id}/join", json={"side": "away"},
                                 headers=auth(away))
        assert joined.status_code == 200
        game_id = joined.json()["current_game_id"]
        assert game_id
        assert await game_clubs(live.database_url, game_id) == {"home": home_club["id"],
                                                       "away": away_club["id"]}
        # During the game: the invitation alone does not seat a non-member.
        invite = (await http.get(f"/api/rooms/{room_id}/invite", headers=auth(away))).json()
        error(await http.post(f"/api/rooms/{room_id}/join", json={
            "side": "away", "invite": invite["token"]}, headers=auth(outsider)), 403,
            "not_club_member")
        # A member of the club joins its side during the game without any invitation (the
        # membership is the credential), and plays for the side too.
        with_mate = await http.post(f"/api/rooms/{room_id}/join", json={"side": "away"},
                                    headers=auth(mate))
        assert with_mate.status_code == 200, with_mate.text
        assert sorted(s["name"] for s in with_mate.json()["seats"] if s["side"] == "away") == \
            sorted([away["account"]["name"], mate["account"]["name"]])
        # Removed from the club: a member who left the room cannot sit back down.
        assert (await http.post(f"/api/rooms/{room_id}/leave",
                                headers=auth(mate))).status_code == 200
        assert (await http.delete(f"/api/clubs/{away_club['id']}/members/"
                                  f"{mate['account']['id']}",
                                  headers=auth(away))).status_code == 204
        error(await http.post(f"/api/rooms/{room_id}/join", json={"side": "away"},
                              headers=auth(mate)), 403, "not_club_member")


def expected_ratings(winner: str | None) -> dict[str, Any]:
    m = PlackettLuce()
    home, away = m.rate([[m.rating()], [m.rating()]],
                        ranks=[1.0 if winner in (None, "home") else 2.0,
                               1.0 if winner in (None, "away") else 2.0])
    return {"home": home[0], "away": away[0]}


async def test_club_game_is_recorded_rated_swapped_and_rebuilt(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        home, away = await register(http), await register(http)
        clubs = {"home": await make_club(http, home), "away": await make_club(http, away)}
    table = await club_table(live.url, home, away,
                             {side: c["id"] for side, c in clubs.items()})
    try:
        http = table.http
        first = table.game_id
        assert await game_clubs(live.database_url, first) == {s: c["id"] for s, c in clubs.items()}
        await finish(table)
        result = (await http.get(f"/api/games/{first}")).json()["result"]
        expected = expected_ratings(result.get("winner"))
        for side, club in clubs.items():
            page = (await http.get(f"/api/clubs/{club['code']}")).json()
            pool = page["pools"]["dice-duel"]
            assert pool["rating"]["mu"] == pytest.approx(expected[side].mu)
            assert pool["rating"]["sigma"] == pytest.approx(expected[side].sigma)
            assert pool["rating"]["games"] == 1 and pool["games"] == 1
            won = result.get("winner") == side
            assert (page["record"]["wins"], page["record"]["losses"]) == (
                (1, 0) if won else (0, 1) if result.get("winner") else (0, 0))
            assert page["recent"][0]["game_id"] == first
            assert page["recent"][0]["link"] == f"/games/{first}"
            other = clubs["away" if side == "home" else "home"]
            assert page["recent"][0]["opponent"]["id"] == other["id"]

        # A rematch swaps the sides, and the clubs with them.
        for side in ("home", "away"):
            asked = await http.post(f"/api/rooms/{table.room_id}/rematch",
                                    headers=table.auth(side))
            assert asked.status_code == 200, asked.text
        room = asked.json()
        assert room["clubs"]["home"]["id"] == clubs["away"]["id"]
        assert room["clubs"]["away"]["id"] == clubs["home"]["id"]
        assert room["teams"]["home_name"] == clubs["away"]["name"]
        second = room["current_game_id"]
        assert second != first
        assert await game_clubs(live.database_url, second) == {"home": clubs["away"]["id"],
                                                      "away": clubs["home"]["id"]}
    finally:
        await table.close()

    # `bob ratings rebuild`, in a process of its own, rebuilds the club ratings from the
    # games: the same numbers as the incremental updates.
    before = await in_db(live.database_url, club_ratings.stored)
    printed = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "app.cli", "ratings", "rebuild"],
        env={**os.environ, "DATABASE_URL": live.database_url}, capture_output=True, text=True,
        timeout=120, check=True)
    after = await in_db(live.database_url, club_ratings.stored)
    assert after == before
    assert json.loads(printed.stdout)["clubs"]["dice-duel"] == len(before["dice-duel"])
    assert await in_db(live.database_url, club_ratings.rebuild) == before
    assert after["dice-duel"][clubs["home"]["id"]].games == 1


async def test_a_club_against_a_pickup_side_counts_but_is_not_rated(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        home, away = await register(http), await register(http)
        club = await make_club(http, home)
    table = await club_table(live.url, home, away, {"home": club["id"]})
    try:
        assert await game_clubs(live.database_url, table.game_id) == {"home": club["id"]}
        await finish(table)
        page = (await table.http.get(f"/api/clubs/{club['id']}")).json()
        assert page["record"]["games"] == 1
        assert page["pools"]["dice-duel"]["rating"] is None
        assert page["recent"][0]["opponent"] is None
        stored = await in_db(live.database_url, club_ratings.stored)
        assert club["id"] not in stored.get("dice-duel", {})
    finally:
        await table.close()
