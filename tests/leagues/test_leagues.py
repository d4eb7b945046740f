"""Leagues over HTTP on both databases: a player league's game played over sockets and recorded
by the game-end hook, who may play where, and every refusal typed and changing nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import func, select

from app.clubs.models import Club, ClubMember
from app.leagues.models import League, LeagueEntrant, LeagueGame
from app.seats.models import Seat
from tests.leagues.helpers import (
    bearer,
    entrant_of,
    error,
    player_league,
    register,
    schedule,
    unique,
    with_db,
)
from tests.support.live import LiveServer
from tests.support.table import Table


async def play_league_game(url: str, http: httpx.AsyncClient, room_id: str,
                           home: dict[str, Any], away: dict[str, Any]) -> Table:
    """Both entrants sit down in the league game's room and play it to the end."""
    table = Table(url, http, home, away, room_id=room_id)
    table.home = await table.connect("home")
    table.away = await table.connect("away")
    for side in ("home", "away"):
        joined = await http.post(f"/api/rooms/{room_id}/join", json={"side": side},
                                 headers=table.auth(side))
        assert joined.status_code == 200, joined.text
    table.game_id = joined.json()["current_game_id"]
    assert table.game_id
    await table.play_out()
    return table


async def test_a_league_game_played_over_sockets_is_recorded_by_the_hook(live: LiveServer
                                                                        ) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        league, players = await player_league(http, 3)
        assert league["status"] == "season" and len(league["entrants"]) == 3
        games = await schedule(http, league["id"], players[0])
        assert len(games) == 3 and {g["round"] for g in games} == {1, 2, 3}
        me = entrant_of(league, players[0])
        mine = [g for g in games if me in (g["home"], g["away"])]
        assert len(mine) == 2 and all(g["play_url"] for g in mine)
        assert all(g["play_url"] is None for g in games if g not in mine)
        assert all(g["play_url"] is None for g in await schedule(http, league["id"]))
        first = mine[0]
        by_entrant = {entrant_of(league, p): p for p in players}
        home, away = by_entrant[first["home"]], by_entrant[first["away"]]
        outsider = by_entrant[next(e for e in by_entrant if e not in (first["home"],
                                                                     first["away"]))]
        for side in ("home", "away"):  # the third entrant and a stranger may not sit here
            for who in (outsider, await register(http)):
                refused = await http.post(f"/api/rooms/{first['room_id']}/join",
                                          json={"side": side}, headers=bearer(who))
                assert error(refused) == (403, "side_reserved")
        wrong = await http.post(f"/api/rooms/{first['room_id']}/join", json={"side": "away"},
                                headers=bearer(home))
        assert error(wrong) == (403, "side_reserved")
        seats = with_db(live.database_url, lambda db: db.scalar(
            select(func.count()).where(Seat.room_id == first["room_id"])))
        assert seats == 0

        table = await play_league_game(live.url, http, first["room_id"], home, away)
        try:
            summary = (await http.get(f"/api/games/{table.game_id}")).json()
            result = summary["result"]
            after = next(g for g in await schedule(http, league["id"]) if g["id"] == first["id"])
            assert after["status"] == "final" and after["decided_by"] == "play"
            assert after["game_id"] == table.game_id
            assert after["box_score_url"].endswith(f"/games/{table.game_id}")
            assert (after["home_runs"], after["away_runs"]) == (
                result["score"]["home"], result["score"]["away"])
            expected = {"home": first["home"], "away": first["away"]}.get(result["winner"])
            assert after["winner"] == expected
            table_rows = (await http.get(f"/api/leagues/{league['id']}/standings")).json()
            rows = {r["entrant_id"]: r for r in table_rows}
            assert rows[first["home"]]["games"] == rows[first["away"]]["games"] == 1
            assert rows[first["home"]]["runs_for"] == result["score"]["home"]
            assert rows[outsider_id(by_entrant, outsider)]["games"] == 0
            if expected is not None:
                assert rows[expected]["wins"] == 1 and table_rows[0]["entrant_id"] == expected
            leaders = (await http.get(f"/api/leagues/{league['id']}/leaders")).json()
            assert leaders["games"] == 1
            hrs = {row["name"]: row["value"] for c in leaders["categories"] if c["key"] == "hr"
                   for row in c["leaders"]}
            # dice-duel: every run is a home run by the side at bat
            for side, session in (("home", home), ("away", away)):
                runs = result["score"][side]
                assert hrs.get(session["account"]["name"], 0) == runs
        finally:
            await table.close()


def outsider_id(by_entrant: dict[int, dict[str, Any]], outsider: dict[str, Any]) -> int:
    return next(e for e, s in by_entrant.items() if s is outsider)


def _counts(url: str) -> tuple[int, ...]:
    async def count(db: Any) -> tuple[int, ...]:
        return tuple([int(await db.scalar(select(func.count()).select_from(m)) or 0)
                      for m in (League, LeagueEntrant, LeagueGame)])
    return tuple(with_db(url, count))


async def test_refusals_are_typed_and_change_nothing(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        owner, other = await register(http), await register(http)
        guest = (await http.post("/api/auth/guest", json={})).json()
        name = unique("Refusals ")
        good = {"name": name, "kind": "dice-duel", "entrant_type": "player"}
        before = _counts(live.database_url)
        cases: list[tuple[dict[str, str], dict[str, Any], tuple[int, str]]] = [
            ({}, good, (401, "auth_required")),
            ({"Authorization": "Bearer nope"}, good, (401, "bad_token")),
            (bearer(guest), good, (403, "guest")),
            (bearer(owner), {**good, "kind": "chess"}, (422, "unknown_kind")),
            (bearer(owner), {**good, "options": {"innings": 4}}, (422, "invalid_request")),
            (bearer(owner), {**good, "options": {"outs": 9}}, (422, "invalid_options")),
            (bearer(owner), {**good, "rounds": 3}, (422, "invalid_request")),
            (bearer(owner), {**good, "knockout": 3}, (422, "invalid_request")),
            (bearer(owner), {**good, "deadline_hours": 0}, (422, "invalid_request")),
            (bearer(owner), {**good, "name": "   x  "}, (422, "invalid_request")),
            (bearer(owner), {**good, "name": "a\u0000b"}, (422, "invalid_request")),
            (bearer(owner), {**good, "secret": 1}, (422, "invalid_request")),
        ]
        for headers, body, expected in cases:
            assert error(await http.post("/api/leagues", json=body, headers=headers)) == \
                expected, body
        assert _counts(live.database_url) == before
        created = await http.post("/api/leagues", json=good, headers=bearer(owner))
        assert created.status_code == 201, created.text
        league_id = created.json()["id"]
        upper = {**good, "name": "  " + name.upper().replace(" ", "   ")}
        assert error(await http.post("/api/leagues", json=upper, headers=bearer(other))) == \
            (409, "name_taken")
        entrants = f"/api/leagues/{league_id}/entrants"
        assert (await http.post(entrants, json={}, headers=bearer(owner))).status_code == 201
        before = _counts(live.database_url)
        for headers, body, expected in [
            ({}, {}, (401, "auth_required")),
            (bearer(guest), {}, (403, "guest")),
            (bearer(owner), {}, (409, "already_entered")),
            (bearer(other), {"club_id": "x"}, (422, "not_club_league")),
            (bearer(other), {"club_id": ""}, (422, "invalid_request")),
        ]:
            assert error(await http.post(entrants, json=body, headers=headers)) == expected
        start = f"/api/leagues/{league_id}/start"
        assert error(await http.post(start, headers=bearer(other))) == (403, "not_creator")
        assert error(await http.post(start, headers=bearer(owner))) == (409, "too_few_entrants")
        assert error(await http.post(start)) == (401, "auth_required")
        for path in ("", "/schedule", "/standings", "/leaders"):
            assert error(await http.get(f"/api/leagues/nope{path}")) == (404, "not_found")
        assert error(await http.post("/api/leagues/nope/start", headers=bearer(owner))) == \
            (404, "not_found")
        assert error(await http.get("/api/leagues?limit=101")) == (422, "invalid_request")
        assert error(await http.get("/api/leagues?status=odd")) == (422, "invalid_request")
        assert _counts(live.database_url) == before
        shown = (await http.get(f"/api/leagues/{league_id}")).json()
        assert shown["status"] == "forming" and len(shown["entrants"]) == 1
        # started: entries close, a second start is refused
        assert (await http.post(entrants, json={}, headers=bearer(other))).status_code == 201
        assert (await http.post(start, headers=bearer(owner))).status_code == 200
        before = _counts(live.database_url)
        late = await register(http)
        assert error(await http.post(entrants, json={}, headers=bearer(late))) == \
            (409, "league_started")
        assert error(await http.post(start, headers=bearer(owner))) == (409, "league_started")
        assert _counts(live.database_url) == before
        listed = (await http.get("/api/leagues", params={"status": "season"})).json()
        assert any(lg["id"] == league_id and lg["entrants"] == 2 for lg in listed)


async def test_a_club_league_is_entered_by_owners_and_played_by_members(live: LiveServer
                                                                       ) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        owners = [await register(http) for _ in range(2)]
        member, outsider = await register(http), await register(http)
        clubs = [unique("c")[:12] for _ in owners]

        async def make_clubs(db: Any) -> None:
            for club_id, owner in zip(clubs, owners, strict=True):
                db.add(Club(id=club_id, name=unique("Club")[:20], name_key=club_id,
                            code=club_id[-4:].upper(), colors={},
                            created_by=owner["account"]["id"]))
                await db.flush()
                db.add(ClubMember(club_id=club_id, account_id=owner["account"]["id"],
                                  role="owner"))
            db.add(ClubMember(club_id=clubs[0], account_id=member["account"]["id"],
                              role="member"))
            await db.commit()

        with_db(live.database_url, make_clubs)
        created = await http.post("/api/leagues", headers=bearer(owners[0]), json={
            "name": unique("Clubs "), "kind": "dice-duel", "options": {"innings": 3}})
        assert created.status_code == 201, created.text
        league_id = created.json()["id"]
        entrants = f"/api/leagues/{league_id}/entrants"
        assert error(await http.post(entrants, json={}, headers=bearer(owners[0]))) == \
            (422, "club_required")
        assert error(await http.post(entrants, json={"club_id": clubs[0]},
                                     headers=bearer(member))) == (403, "not_club_owner")
        assert error(await http.post(entrants, json={"club_id": clubs[1]},
                                     headers=bearer(owners[0]))) == (403, "not_club_owner")
        assert error(await http.post(entrants, json={"club_id": "no-such-club"},
                                     headers=bearer(owners[0]))) == (404, "not_found")
        for club_id, owner in zip(clubs, owners, strict=True):
            entered = await http.post(entrants, json={"club_id": club_id},
                                      headers=bearer(owner))
            assert entered.status_code == 201, entered.text
        # A club is withdrawn by its owner only (and entered again).
        second = entered.json()["entrants"][1]["id"]
        assert error(await http.delete(f"{entrants}/{second}", headers=bearer(member))) == (
            403, "not_club_owner")
        assert error(await http.delete(f"{entrants}/{second}", headers=bearer(owners[0]))) == (
            403, "not_club_owner")
        out = await http.delete(f"{entrants}/{second}", headers=bearer(owners[1]))
        assert out.status_code == 200, out.text
        assert [e["club_id"] for e in out.json()["entrants"]] == [clubs[0]]
        again = await http.post(entrants, json={"club_id": clubs[1]}, headers=bearer(owners[1]))
        assert again.status_code == 201, again.text
        league = (await http.post(f"/api/leagues/{league_id}/start",
                                  headers=bearer(owners[0]))).json()
        assert league["mine"] == [league["entrants"][0]["id"]]  # the owner plays for its club
        (game,) = await schedule(http, league_id, member)
        assert game["play_url"] is not None
        assert (await schedule(http, league_id, outsider))[0]["play_url"] is None
        room = (await http.get(f"/api/rooms/{game['room_id']}")).json()
        assert room["private"] is True and room["kind"] == "dice-duel"
        first_side = "home" if game["home"] == league["entrants"][0]["id"] else "away"
        other_side = "away" if first_side == "home" else "home"
        refused = await http.post(f"/api/rooms/{game['room_id']}/join",
                                  json={"side": other_side}, headers=bearer(member))
        assert error(refused) == (403, "not_club_member")
        refused = await http.post(f"/api/rooms/{game['room_id']}/join",
                                  json={"side": first_side}, headers=bearer(outsider))
        assert error(refused) == (403, "not_club_member")
        sat = await http.post(f"/api/rooms/{game['room_id']}/join", json={"side": first_side},
                              headers=bearer(member))
        assert sat.status_code == 200, sat.text
        details = (await http.get(f"/api/leagues/{league_id}",
                                  headers=bearer(member))).json()
        assert details["mine"] == [league["entrants"][0]["id"]]


async def test_a_resigned_league_game_is_recorded_as_resigned(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        league, players = await player_league(http, 2)
        (game,) = await schedule(http, league["id"])
        by_entrant = {entrant_of(league, p): p for p in players}
        table = Table(live.url, http, by_entrant[game["home"]], by_entrant[game["away"]],
                      room_id=game["room_id"])
        table.home, table.away = await table.connect("home"), await table.connect("away")
        try:
            for side in ("home", "away"):
                joined = await http.post(f"/api/rooms/{game['room_id']}/join",
                                         json={"side": side}, headers=table.auth(side))
                assert joined.status_code == 200, joined.text
            table.game_id = joined.json()["current_game_id"]
            for _ in range(6):
                assert await table.step() is not None
            runs = (await table.latest_states())["home"]["view"]["runs"]
            await table.client("away").send({"type": "resign", "id": "r1"})
            reply = await table.client("away").next(lambda m: m.get("id") == "r1")
            assert reply["type"] == "ack", reply
            (after,) = await schedule(http, league["id"])
            assert (after["status"], after["decided_by"], after["winner"]) == (
                "final", "resign", game["home"])
            assert (after["home_runs"], after["away_runs"]) == (runs["home"], runs["away"])
            done = (await http.get(f"/api/leagues/{league['id']}")).json()
            assert done["status"] == "finished" and done["champion"] == game["home"]
        finally:
            await table.close()


async def _new_league(http: httpx.AsyncClient, creator: dict[str, Any]) -> dict[str, Any]:
    created = await http.post("/api/leagues", headers=bearer(creator), json={
        "name": unique("Race "), "kind": "dice-duel", "options": {"innings": 3},
        "entrant_type": "player"})
    assert created.status_code == 201, created.text
    league: dict[str, Any] = created.json()
    return league


async def _enter(http: httpx.AsyncClient, league: dict[str, Any], who: dict[str, Any]
                 ) -> httpx.Response:
    return await http.post(f"/api/leagues/{league['id']}/entrants", json={},
                           headers=bearer(who))


async def test_entries_at_once_never_overrun_the_cap_nor_miss_the_start(live: LiveServer
                                                                        ) -> None:
    from app.leagues.service import MAX_ENTRANTS

    async with httpx.AsyncClient(base_url=live.url, timeout=60) as http:
        players = [await register(http) for _ in range(MAX_ENTRANTS + 4)]
        league = await _new_league(http, players[0])
        for player in players[:MAX_ENTRANTS - 4]:
            assert (await _enter(http, league, player)).status_code == 201
        # The last four places asked for by eight at once: four get one, four are told no.
        last = await asyncio.gather(*(_enter(http, league, p) for p in players[-8:]))
        assert sorted(r.status_code for r in last) == [201] * 4 + [409] * 4, [
            r.text for r in last]
        assert {error(r) for r in last if r.status_code == 409} == {(409, "league_full")}
        page = (await http.get(f"/api/leagues/{league['id']}")).json()
        assert len(page["entrants"]) == MAX_ENTRANTS

        # An entry racing the start is either in the season's schedule or refused: never an
        # entrant the round robin left out.
        for _ in range(3):
            league = await _new_league(http, players[0])
            for player in players[:2]:
                assert (await _enter(http, league, player)).status_code == 201
            entered, started = await asyncio.gather(
                _enter(http, league, players[-1]),
                http.post(f"/api/leagues/{league['id']}/start", headers=bearer(players[0])))
            assert started.status_code == 200, started.text
            assert entered.status_code in (201, 409), entered.text
            if entered.status_code == 409:
                assert error(entered) == (409, "league_started")
            page = (await http.get(f"/api/leagues/{league['id']}")).json()
            ids = {int(e["id"]) for e in page["entrants"]}
            assert len(ids) == (3 if entered.status_code == 201 else 2)
            games = await schedule(http, league["id"])
            playing = {g[k] for g in games for k in ("home", "away")}
            assert playing == ids, (playing, ids)


async def test_an_entrant_withdraws_while_forming_and_only_itself(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        creator, other, third = [await register(http) for _ in range(3)]
        league = await _new_league(http, creator)
        for player in (creator, other, third):
            assert (await _enter(http, league, player)).status_code == 201
        page = (await http.get(f"/api/leagues/{league['id']}")).json()
        ids = {e["account_id"]: int(e["id"]) for e in page["entrants"]}
        base = f"/api/leagues/{league['id']}/entrants"
        mine, theirs = ids[third["account"]["id"]], ids[other["account"]["id"]]
        before = _counts(live.database_url)
        for path, headers, expected in (
            (f"{base}/{theirs}", bearer(third), (403, "not_entrant")),
            (f"{base}/{mine}", {}, (401, "auth_required")),
            (f"{base}/999999", bearer(third), (404, "not_found")),
            (f"{base}/{2**40}", bearer(third), (422, "invalid_request")),
            (f"{base}/0", bearer(third), (422, "invalid_request")),
            (f"/api/leagues/nope/entrants/{mine}", bearer(third), (404, "not_found")),
        ):
            assert error(await http.delete(path, headers=headers)) == expected, path
        assert _counts(live.database_url) == before
        # An entrant of another league is not this league's.
        elsewhere = await _new_league(http, other)
        assert error(await http.delete(f"/api/leagues/{elsewhere['id']}/entrants/{mine}",
                                       headers=bearer(third))) == (404, "not_found")

        left = await http.delete(f"{base}/{mine}", headers=bearer(third))
        assert left.status_code == 200, left.text
        assert {e["account_id"] for e in left.json()["entrants"]} == {
            creator["account"]["id"], other["account"]["id"]}
        assert left.json()["mine"] == []
        # Back in again, then the season starts: the field is fixed.
        assert (await _enter(http, league, third)).status_code == 201
        started = await http.post(f"/api/leagues/{league['id']}/start", headers=bearer(creator))
        assert started.status_code == 200, started.text
        again = {e["account_id"]: int(e["id"]) for e in started.json()["entrants"]}
        assert error(await http.delete(f"{base}/{again[third['account']['id']]}",
                                       headers=bearer(third))) == (409, "league_started")
        assert len((await http.get(f"/api/leagues/{league['id']}")).json()["entrants"]) == 3
