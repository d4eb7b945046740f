"""Clubs over REST on a live server: who may do what, and that every refusal is typed and
changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.bots.client import guest
from tests.clubs.helpers import add_member, auth, make_club, new_code, register
from tests.support.live import LiveServer


def error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body


async def roster(http: httpx.AsyncClient, club: dict[str, Any]) -> dict[str, str]:
    page = (await http.get(f"/api/clubs/{club['id']}")).json()
    return {m["name"]: m["role"] for m in page["members"]}


@pytest.fixture
async def http(live: LiveServer) -> Any:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
        yield client


async def test_create_club_rules(http: httpx.AsyncClient) -> None:
    owner = await register(http)
    name = f"Tigers {new_code()}"
    code = new_code()
    created = await http.post("/api/clubs", json={
        "name": f"  {name} ", "code": code.lower(),
        "colors": {"primary": "#FF8800", "secondary": "#000000"}}, headers=auth(owner))
    assert created.status_code == 201, created.text
    club = created.json()
    assert club["name"] == name and club["code"] == code and club["my_role"] == "owner"
    assert club["members"][0]["name"] == owner["account"]["name"]
    assert club["colors"] == {"primary": "#FF8800", "secondary": "#000000"}

    other = await register(http)
    error(await http.post("/api/clubs", json={"name": name.upper(), "code": new_code()},
                          headers=auth(other)), 409, "name_taken")
    error(await http.post("/api/clubs", json={"name": f"x{name}", "code": code.lower()},
                          headers=auth(other)), 409, "code_taken")
    a_guest = await guest(http)
    error(await http.post("/api/clubs", json={"name": f"g{name}", "code": new_code()},
                          headers=auth(a_guest)), 403, "guest")
    error(await http.post("/api/clubs", json={"name": f"n{name}", "code": new_code()}),
          401, "auth_required")
    for bad in ({"name": "", "code": "AB"}, {"name": "a\u0007b", "code": "AB"},
                {"name": "a\u202eb", "code": "AB"}, {"name": "x" * 33, "code": "AB"},
                {"name": "   ", "code": "AB"}, {"name": "ok", "code": "A"},
                {"name": "ok", "code": "ABCDE"}, {"name": "ok", "code": "A-B"},
                {"name": "ok", "code": "AB", "colors": {"primary": "red", "secondary": "#fff"}},
                {"name": "ok", "code": "AB", "owner": "x"}):
        error(await http.post("/api/clubs", json=bad, headers=auth(other)), 422,
              "invalid_request")
    # Nothing of the refused ones exists.
    found = (await http.get("/api/clubs", params={"q": name})).json()
    assert [c["id"] for c in found["clubs"]] == [club["id"]] and found["total"] == 1
    assert (await http.get("/api/clubs/mine", headers=auth(other))).json() == []

    by_code = (await http.get(f"/api/clubs/{code.lower()}")).json()
    assert by_code["id"] == club["id"]
    assert (await http.get(f"/api/clubs/{club['id']}")).json()["code"] == code
    error(await http.get("/api/clubs/QQQQQQQQ"), 404, "not_found")
    mine = (await http.get("/api/clubs/mine", headers=auth(owner))).json()
    assert [(c["id"], c["role"]) for c in mine] == [(club["id"], "owner")]


async def test_search_is_paginated(http: httpx.AsyncClient) -> None:
    owner = await register(http)
    tag = new_code()
    ids = [(await make_club(http, owner, name=f"Page{tag} {i}"))["id"] for i in range(3)]
    first = (await http.get("/api/clubs", params={"q": f"page{tag}", "limit": 2})).json()
    second = (await http.get("/api/clubs", params={"q": f"PAGE{tag}", "limit": 2,
                                                   "offset": 2})).json()
    assert first["total"] == second["total"] == 3
    assert [c["id"] for c in first["clubs"] + second["clubs"]] == ids
    assert first["clubs"][0]["members"] == 1
    error(await http.get("/api/clubs", params={"limit": 101}), 422, "invalid_request")
    error(await http.get("/api/clubs", params={"offset": -1}), 422, "invalid_request")
    assert (await http.get("/api/clubs", params={"q": "%_%"})).status_code == 200
    literal = (await http.get("/api/clubs", params={"q": f"page{tag}%"})).json()
    assert literal["total"] == 0  # % is a character to look for, not a wildcard


async def test_invitations(http: httpx.AsyncClient) -> None:
    owner, invitee, outsider = await register(http), await register(http), await register(http)
    club = await make_club(http, owner)
    ref = club["code"]
    name = invitee["account"]["name"]

    # Only an owner invites; a refused invite leaves no invitation behind.
    error(await http.post(f"/api/clubs/{ref}/invites", json={"name": name},
                          headers=auth(outsider)), 403, "owner_only")
    assert (await http.get("/api/clubs/invitations", headers=auth(invitee))).json() == []
    error(await http.post(f"/api/clubs/{ref}/invites", json={"name": "nobody-at-all-x"},
                          headers=auth(owner)), 404, "account_not_found")
    a_guest = await guest(http)
    error(await http.post(f"/api/clubs/{ref}/invites", json={"name": a_guest["account"]["name"]},
                          headers=auth(owner)), 409, "guest")
    error(await http.post(f"/api/clubs/{ref}/invites", json={"name": owner["account"]["name"]},
                          headers=auth(owner)), 409, "already_member")

    sent = await http.post(f"/api/clubs/{ref}/invites", json={"name": name.upper()},
                           headers=auth(owner))
    assert sent.status_code == 201, sent.text
    assert sent.json()["account_id"] == invitee["account"]["id"]
    error(await http.post(f"/api/clubs/{ref}/invites", json={"name": name},
                          headers=auth(owner)), 409, "already_invited")
    error(await http.get(f"/api/clubs/{ref}/invites", headers=auth(outsider)), 403,
          "owner_only")
    pending = (await http.get(f"/api/clubs/{ref}/invites", headers=auth(owner))).json()
    assert [i["name"] for i in pending] == [name]
    mine = (await http.get("/api/clubs/invitations", headers=auth(invitee))).json()
    assert [i["club"]["id"] for i in mine] == [club["id"]]
    page = (await http.get(f"/api/clubs/{ref}", headers=auth(invitee))).json()
    assert page["invited"] is True and page["my_role"] is None

    # Only the invitee accepts; someone else gets no_invite and does not join.
    error(await http.post(f"/api/clubs/{ref}/accept", headers=auth(outsider)), 404, "no_invite")
    error(await http.post(f"/api/clubs/{ref}/decline", headers=auth(outsider)), 404,
          "no_invite")
    error(await http.delete(f"/api/clubs/{ref}/invites/{invitee['account']['id']}",
                            headers=auth(outsider)), 403, "owner_only")
    assert (await http.get("/api/clubs/invitations", headers=auth(invitee))).json() != []
    accepted = await http.post(f"/api/clubs/{ref}/accept", headers=auth(invitee))
    assert accepted.status_code == 200 and accepted.json()["my_role"] == "member"
    assert await roster(http, club) == {owner["account"]["name"]: "owner", name: "member"}
    assert (await http.get("/api/clubs/invitations", headers=auth(invitee))).json() == []
    error(await http.post(f"/api/clubs/{ref}/accept", headers=auth(invitee)), 404, "no_invite")

    # Decline and withdraw end an invitation without joining.
    for ender in ("decline", "withdraw"):
        other = await register(http)
        assert (await http.post(f"/api/clubs/{ref}/invites", json={
            "name": other["account"]["name"]}, headers=auth(owner))).status_code == 201
        if ender == "decline":
            done = await http.post(f"/api/clubs/{ref}/decline", headers=auth(other))
        else:
            done = await http.delete(f"/api/clubs/{ref}/invites/{other['account']['id']}",
                                     headers=auth(owner))
        assert done.status_code == 204, done.text
        assert (await http.get("/api/clubs/invitations", headers=auth(other))).json() == []
        assert other["account"]["name"] not in await roster(http, club)
        error(await http.post(f"/api/clubs/{ref}/accept", headers=auth(other)), 404,
              "no_invite")


async def test_members_owners_and_leaving(http: httpx.AsyncClient) -> None:
    owner, member, third = await register(http), await register(http), await register(http)
    club = await make_club(http, owner)
    ref = club["code"]
    await add_member(http, club, owner, member)
    await add_member(http, club, owner, third)
    owner_id, member_id, third_id = (s["account"]["id"] for s in (owner, member, third))

    # A member may not remove, promote or see invitations.
    error(await http.delete(f"/api/clubs/{ref}/members/{third_id}", headers=auth(member)),
          403, "owner_only")
    error(await http.post(f"/api/clubs/{ref}/members/{member_id}/promote",
                          headers=auth(member)), 403, "owner_only")
    error(await http.delete(f"/api/clubs/{ref}/members/{owner_id}", headers=auth(member)),
          403, "owner_only")
    # The last owner can neither be removed nor leave.
    error(await http.delete(f"/api/clubs/{ref}/members/{owner_id}", headers=auth(owner)),
          409, "last_owner")
    error(await http.post(f"/api/clubs/{ref}/leave", headers=auth(owner)), 409, "last_owner")
    error(await http.post(f"/api/clubs/{ref}/members/nobody/promote", headers=auth(owner)),
          404, "not_member")
    error(await http.delete(f"/api/clubs/{ref}/members/nobody", headers=auth(owner)),
          404, "not_member")
    assert await roster(http, club) == {owner["account"]["name"]: "owner",
                                        member["account"]["name"]: "member",
                                        third["account"]["name"]: "member"}

    # An owner removes a member; a member leaves; not-a-member cannot leave.
    assert (await http.delete(f"/api/clubs/{ref}/members/{third_id}",
                              headers=auth(owner))).status_code == 204
    error(await http.post(f"/api/clubs/{ref}/leave", headers=auth(third)), 404, "not_member")
    promoted = await http.post(f"/api/clubs/{ref}/members/{member_id}/promote",
                               headers=auth(owner))
    assert promoted.status_code == 200
    assert await roster(http, club) == {owner["account"]["name"]: "owner",
                                        member["account"]["name"]: "owner"}
    assert (await http.post(f"/api/clubs/{ref}/leave", headers=auth(owner))).status_code == 204
    assert await roster(http, club) == {member["account"]["name"]: "owner"}
    error(await http.post(f"/api/clubs/{ref}/leave", headers=auth(member)), 409, "last_owner")


async def test_two_owners_removing_each_other_at_once_leave_one(http: httpx.AsyncClient) -> None:
    for _ in range(3):
        first, second = await register(http), await register(http)
        club = await make_club(http, first)
        await add_member(http, club, first, second)
        promoted = await http.post(
            f"/api/clubs/{club['id']}/members/{second['account']['id']}/promote",
            headers=auth(first))
        assert promoted.status_code == 200
        answers = await asyncio.gather(*(
            http.delete(f"/api/clubs/{club['id']}/members/{b['account']['id']}", headers=auth(a))
            for a, b in ((first, second), (second, first))))
        codes = sorted(r.status_code for r in answers)
        assert codes[0] == 204 and codes[1] in (403, 409), [r.text for r in answers]
        left = await roster(http, club)
        assert list(left.values()) == ["owner"], left
