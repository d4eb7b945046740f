"""Rooms over HTTP: options checked twice, the lobby, sides, leaving, rematches."""

from __future__ import annotations

import httpx

from app.bots.client import guest
from tests.support.live import LiveServer
from tests.support.table import open_table


def auth(session: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['token']}"}


async def test_room_options_lobby_and_sides(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url) as http:
        a, b, c = await guest(http), await guest(http), await guest(http)
        bad = [
            ({"kind": "chess"}, "unknown_kind"),
            ({"kind": "dice-duel", "options": {"innings": 4}}, None),  # pydantic: 3/5/7/9
            ({"kind": "dice-duel", "options": {"home_color": "red"}}, None),
            ({"kind": "dice-duel", "options": {"outs": 7}}, "invalid_options"),  # the engine
            ({"kind": "dice-duel", "options": {"nested": {"x": 1}}}, None),
            ({"kind": "dice-duel", "timers": {"response_seconds": 0}}, None),
        ]
        for body, code in bad:
            response = await http.post("/api/rooms", json=body, headers=auth(a))
            assert response.status_code == 422, body
            if code:
                assert response.json()["error"]["code"] == code
        assert (await http.post("/api/rooms", json={"kind": "dice-duel"})).status_code == 401

        room = (await http.post("/api/rooms", json={
            "kind": "dice-duel", "side": "home",
            "options": {"innings": 3, "home_name": "Bears", "home_color": "#aa0000", "outs": 1},
        }, headers=auth(a))).json()
        assert room["status"] == "open" and room["invite_link"].endswith(f"/rooms/{room['id']}")
        assert room["options"]["outs"] == 1
        hidden = (await http.post("/api/rooms", json={"kind": "dice-duel", "private": True},
                                  headers=auth(a))).json()
        lobby = {r["id"] for r in (await http.get("/api/rooms")).json()}
        assert room["id"] in lobby and hidden["id"] not in lobby

        # Two on home, one on away: uneven sides; the game starts with the first away seat.
        joined = (await http.post(f"/api/rooms/{room['id']}/join", json={"side": "home"},
                                  headers=auth(b))).json()
        assert joined["status"] == "open"
        live_room = (await http.post(f"/api/rooms/{room['id']}/join", json={"side": "away"},
                                     headers=auth(c))).json()
        assert live_room["status"] == "live" and live_room["current_game_id"]
        assert sorted(s["side"] for s in live_room["seats"]) == ["away", "home", "home"]
        lobby = {r["id"]: r for r in (await http.get("/api/rooms")).json()}
        assert lobby[room["id"]]["status"] == "live"
        switch = await http.post(f"/api/rooms/{room['id']}/join", json={"side": "away"},
                                 headers=auth(b))
        assert switch.status_code == 409 and switch.json()["error"]["code"] == "side_locked"
        early = await http.post(f"/api/rooms/{room['id']}/rematch", headers=auth(a))
        assert early.status_code == 409

        left = (await http.post(f"/api/rooms/{room['id']}/leave", headers=auth(b))).json()
        assert len(left["seats"]) == 2
        again = await http.post(f"/api/rooms/{room['id']}/leave", headers=auth(b))
        assert again.status_code == 409
        missing = await http.get("/api/rooms/nope")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


async def test_teammates_act_for_their_side_and_rematch(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=1)
    try:
        mate = await table.join_teammate("home")
        mate_client = await table.connect(None)
        token_client = await _connect_with(table, mate)
        states = await table.latest_states()
        home_state = states["home"]
        while not home_state["legal_actions"]:
            await table.step()
            home_state = await table.client("home").state_at(table.seq)
        mate_view = await token_client.state_at(table.seq)
        assert mate_view["view"]["secret"] == home_state["view"]["secret"]
        await token_client.send({"type": "action", "id": "mate-1",
                                 "action": home_state["legal_actions"][0]})
        ack = await token_client.next(lambda m: m.get("id") == "mate-1")
        assert ack["type"] == "ack"
        table.seq = ack["seq"]
        await table.play_out()
        await token_client.close()
        await mate_client.close()
        outsider = await guest(table.http)
        refused = await table.http.post(f"/api/rooms/{table.room_id}/rematch",
                                        headers=auth(outsider))
        assert refused.status_code == 403
        # Away offers; nothing starts until home accepts.
        for _twice in range(2):
            offer = (await table.http.post(f"/api/rooms/{table.room_id}/rematch",
                                           headers=table.auth("away"))).json()
            assert offer["status"] == "finished" and offer["games_played"] == 1
            assert offer["rematch_offer"] == "away"
        home = table.client("home")
        await home.next(lambda m: m["type"] == "room")  # told to read the room again
        rematch = (await table.http.post(f"/api/rooms/{table.room_id}/rematch",
                                         headers=table.auth("home"))).json()
        assert rematch["status"] == "live" and rematch["games_played"] == 2
        assert rematch["current_game_id"] != table.game_id and rematch["rematch_offer"] is None
        # The sides swapped: home's two members now bat away, away's player is home.
        sides = {s["account_id"]: s["side"] for s in rematch["seats"]}
        assert sides[table.home_session["account"]["id"]] == "away"
        assert sides[mate["account"]["id"]] == "away"
        assert sides[table.away_session["account"]["id"]] == "home"
        assert (await home.next(lambda m: m["type"] == "seat"))["side"] == "away"
        snapshot = await home.next(lambda m: m["type"] == "snapshot")
        assert snapshot["game"]["game_id"] == rematch["current_game_id"]
        watcher = table.spectators[0]
        start = await watcher.next(
            lambda m: m["type"] == "event" and m["game_id"] == rematch["current_game_id"]
        )
        assert start["seq"] == 1 and start["event"]["number"] == 2
    finally:
        await table.close()


async def _connect_with(table, session: dict):  # type: ignore[no-untyped-def]
    from app.bots.client import open_socket
    from tests.support.table import Client

    ws, welcome = await open_socket(table.url, table.room_id, session["token"])
    assert welcome["side"] == "home"
    return Client(ws, welcome)


async def test_leaving_takes_the_seat_away_from_the_socket(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        left = await table.http.post(f"/api/rooms/{table.room_id}/leave",
                                     headers=table.auth(mover))
        assert left.status_code == 200
        client = table.client(mover)
        assert (await client.next(lambda m: m["type"] == "seat"))["side"] is None
        snapshot = await client.next(lambda m: m["type"] == "snapshot")
        assert snapshot["legal_actions"] == [] and "secret" not in snapshot["view"]
        reply = await table.act(mover, states[mover]["legal_actions"][0])
        assert reply["code"] == "spectator"
        events = (await table.http.get(f"/api/games/{table.game_id}/events",
                                       headers=table.auth(mover))).json()
        assert events["viewer"] == "spectator"
    finally:
        await table.close()
