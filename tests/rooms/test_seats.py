"""Seats once a game has started: invitation only, no switching sides, spectators stay out.

Each hole here was found by a hostile client: a stranger joining a live side read its hidden
view and acted for it; a player left and joined the other side to read the other hand.
"""

from __future__ import annotations

import json

import httpx

from app.bots.client import guest, open_socket
from tests.support.live import LiveServer
from tests.support.table import Client, Table, open_table


def auth(session: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['token']}"}


async def _join(table: Table, session: dict, side: str, invite: str | None = None
                ) -> httpx.Response:
    body: dict[str, str] = {"side": side}
    if invite is not None:
        body["invite"] = invite
    return await table.http.post(f"/api/rooms/{table.room_id}/join", json=body,
                                 headers=auth(session))


async def test_a_stranger_cannot_sit_down_in_a_live_game(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        stranger = await guest(table.http)
        for side in ("home", "away"):
            refused = await _join(table, stranger, side)
            assert refused.status_code == 403
            assert refused.json()["error"]["code"] == "invite_required"
            forged = await _join(table, stranger, side, "not-the-invite")
            assert forged.status_code == 403 and forged.json()["error"]["code"] == "bad_invite"
        # The other side's invitation does not open this side.
        wrong = await _join(table, stranger, "home", await table.invite("away"))
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_invite"
        room = (await table.http.get(f"/api/rooms/{table.room_id}")).json()
        assert len(room["seats"]) == 2  # nothing changed

        # Its socket is a spectator's: no hidden view, no legal actions, no acting.
        ws, welcome = await open_socket(live.url, table.room_id, stranger["token"])
        try:
            assert welcome["side"] is None
            snapshot = json.loads(await ws.recv())
            assert snapshot["type"] == "snapshot" and snapshot["legal_actions"] == []
            assert "SECRET-" not in json.dumps(snapshot)
            states = await table.latest_states()
            mover = next(s for s, m in states.items() if m["legal_actions"])
            await ws.send(json.dumps({"type": "action", "id": "x1",
                                      "action": states[mover]["legal_actions"][0]}))
            error = json.loads(await ws.recv())
            assert error["type"] == "error" and error["code"] == "spectator"
        finally:
            await ws.close()
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == table.seq  # the refused action changed nothing
    finally:
        await table.close()


async def test_a_player_cannot_switch_sides_but_may_come_back(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        away = table.away_session
        left = await table.http.post(f"/api/rooms/{table.room_id}/leave", headers=auth(away))
        assert left.status_code == 200
        for invite in (None, await table.invite("home")):
            switched = await _join(table, away, "home", invite)
            assert switched.status_code == 409, invite
            assert switched.json()["error"]["code"] == "side_locked"
        back = await _join(table, away, "away")
        assert back.status_code == 200
        assert sorted(s["side"] for s in back.json()["seats"]) == ["away", "home"]
        # A seated player asking for the other side is refused the same way.
        home_switch = await _join(table, table.home_session, "away")
        assert home_switch.status_code == 409
        assert home_switch.json()["error"]["code"] == "side_locked"
    finally:
        await table.close()


async def test_an_invited_teammate_joins_and_acts_for_its_side(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        other = "away" if mover == "home" else "home"
        # Only members see an invitation, and only their own side's.
        stranger = await guest(table.http)
        hidden = await table.http.get(f"/api/rooms/{table.room_id}/invite",
                                      headers=auth(stranger))
        assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "not_seated"
        mine = (await table.http.get(f"/api/rooms/{table.room_id}/invite",
                                     headers=table.auth(other))).json()
        assert mine["side"] == other and f"invite={mine['token']}" in mine["link"]

        mate = await table.join_teammate(mover)
        ws, welcome = await open_socket(live.url, table.room_id, mate["token"])
        try:
            assert welcome["side"] == mover
            snapshot = json.loads(await ws.recv())
            assert snapshot["legal_actions"] == states[mover]["legal_actions"]
            assert f"SECRET-{mover}-" in json.dumps(snapshot)
            assert f"SECRET-{other}-" not in json.dumps(snapshot)
            await ws.send(json.dumps({"type": "action", "id": "mate-1",
                                      "action": states[mover]["legal_actions"][0]}))
            # the answer comes in the commit's update or on its own: Client reads both
            reply = await Client(ws, welcome).next(lambda m: m.get("id") == "mate-1")
            assert reply["type"] == "ack", reply
        finally:
            await ws.close()
        game = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert mate["account"]["name"] in game["players"][mover]
    finally:
        await table.close()


async def test_before_the_first_game_anyone_may_sit_and_move(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        host, friend, other = await guest(http), await guest(http), await guest(http)
        room = (await http.post("/api/rooms", json={"kind": "dice-duel", "side": "home"},
                                headers=auth(host))).json()
        path = f"/api/rooms/{room['id']}/join"
        moved = await http.post(path, json={"side": "home"}, headers=auth(friend))
        assert moved.status_code == 200 and moved.json()["status"] == "open"
        moved = await http.post(path, json={"side": "away"}, headers=auth(friend))
        assert moved.status_code == 200 and moved.json()["status"] == "live"
        late = await http.post(path, json={"side": "away"}, headers=auth(other))
        assert late.status_code == 403 and late.json()["error"]["code"] == "invite_required"
