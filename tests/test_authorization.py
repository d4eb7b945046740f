"""The authorization matrix: every REST route and every socket message, as each kind of caller.

Callers: ``anonymous`` (no token), ``spectator`` (signed in, no seat in the room), ``other``
(seated on the side not to move), ``member`` (seated on the side to move), ``stranger`` (seated
in another room) and ``revoked`` (a token whose session has ended). Each cell says the status
(and error code) the caller gets. The routes come from the app's own route table: a route
without a row fails :func:`test_every_route_has_a_row`. Every answer is also scanned for the
hidden parts of each side's view: only that side's members may ever see them.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi import FastAPI
from websockets.exceptions import ConnectionClosed

from app.bots.client import expand, guest, open_socket
from app.main import create_app
from app.settings import Settings
from tests.clubs.helpers import new_code
from tests.support.live import LiveServer
from tests.support.table import Table, open_table

CALLERS = ("anonymous", "spectator", "other", "member", "stranger", "revoked")
Cell = int | tuple[int, str]
"""A status, or a status and the error code."""


def route_table(app: FastAPI) -> set[tuple[str, str]]:
    """(method, path) of every HTTP route and ("WS", path) of every socket route, those of the
    router and those a middleware serves ahead of it (its ``PATH``)."""
    found: set[tuple[str, str]] = set()

    def add(route: Any, prefix: str = "") -> None:
        if not hasattr(route, "path"):  # an included router (FastAPI >= 0.160)
            context = route.include_context
            for inner in context.included_router.routes:
                add(inner, prefix + context.prefix)
            return
        methods = getattr(route, "methods", None)
        if methods is None:
            found.add(("WS", prefix + route.path))
        else:
            found.update((m, prefix + route.path) for m in methods if m != "HEAD")

    for route in app.routes:
        add(route)
    for middleware in app.user_middleware:
        served = getattr(middleware.cls, "PATH", None)
        if served is not None:
            found.add(("WS", served))
    return found


@dataclass
class Row:
    """One route: how to call it, and what each caller gets (same order as :data:`CALLERS`)."""

    cells: tuple[Cell, ...]
    body: Callable[[World], Any] | None = None
    query: dict[str, Any] = field(default_factory=dict)
    fresh: bool = False
    """The call changes the world (seats, sessions): each caller gets a world of its own."""

    def __post_init__(self) -> None:
        assert len(self.cells) == len(CALLERS)


def every(cell: Cell) -> tuple[Cell, ...]:
    return (cell,) * len(CALLERS)


def signed_in(ok: Cell, spectator: Cell | None = None, stranger: Cell | None = None,
              other: Cell | None = None) -> tuple[Cell, ...]:
    """401 without a valid token; ``ok`` for the seated member, and the others as given."""
    return ((401, "auth_required"), spectator or ok, other or ok, ok, stranger or ok,
            (401, "bad_token"))


def _credentials(world: World) -> dict[str, str]:
    return {"name": f"m{uuid.uuid4().hex[:12]}", "password": "pw-123456"}


def _login(world: World) -> dict[str, str]:
    return world.login_body


ROWS: dict[tuple[str, str], Row] = {
    ("GET", "/healthz"): Row(every(200)),
    ("GET", "/metrics"): Row(every(200)),  # from loopback; others 403 (tests/test_metrics.py)
    ("GET", "/openapi.json"): Row(every(200)),
    ("GET", "/docs"): Row(every(200)),
    ("GET", "/docs/oauth2-redirect"): Row(every(200)),
    ("GET", "/redoc"): Row(every(200)),
    ("POST", "/api/auth/register"): Row(every(201), body=_credentials),
    ("POST", "/api/auth/login"): Row(every(200), body=_login),
    ("POST", "/api/auth/guest"): Row(every(201), body=lambda w: {}),
    ("POST", "/api/auth/logout"): Row(signed_in(204), fresh=True),
    ("GET", "/api/auth/me"): Row(signed_in(200)),
    ("PATCH", "/api/auth/me"): Row(signed_in(200), body=lambda w: {}),
    ("POST", "/api/editions/redeem"): Row(  # every caller here is a guest
        signed_in((403, "guest")), body=lambda w: {"code": "0000-0000-0000-0000-0000"}),
    ("GET", "/api/editions/mine"): Row(signed_in(200)),
    ("POST", "/api/rooms"): Row(signed_in(201), body=lambda w: {"kind": "dice-duel"}),
    ("GET", "/api/rooms"): Row(every(200)),
    ("GET", "/api/rooms/{room_id}"): Row(every(200)),
    ("POST", "/api/rooms/{room_id}/join"): Row(
        signed_in(200, spectator=(403, "invite_required"), stranger=(403, "invite_required"),
                  other=(409, "side_locked")),
        body=lambda w: {"side": w.mover}, fresh=True),
    ("GET", "/api/rooms/{room_id}/invite"): Row(
        signed_in(200, spectator=(403, "not_seated"), stranger=(403, "not_seated"))),
    ("POST", "/api/rooms/{room_id}/leave"): Row(
        signed_in(200, spectator=(409, "not_seated"), stranger=(409, "not_seated")),
        fresh=True),
    ("POST", "/api/rooms/{room_id}/rematch"): Row(
        signed_in((409, "game_live"), spectator=(403, "not_seated"),
                  stranger=(403, "not_seated"))),
    ("GET", "/api/rooms/{room_id}/presence"): Row(every(200)),
    # clubs: every caller here is a guest and none is in the world's club (its owner is the
    # registered account of login_body)
    ("POST", "/api/clubs"): Row(signed_in((403, "guest")), body=lambda w: {
        "name": f"c{uuid.uuid4().hex[:12]}", "code": "ZZ"}),
    ("GET", "/api/clubs"): Row(every(200)),
    ("GET", "/api/clubs/mine"): Row(signed_in(200)),
    ("GET", "/api/clubs/invitations"): Row(signed_in(200)),
    ("GET", "/api/clubs/{ref}"): Row((200, 200, 200, 200, 200, (401, "bad_token"))),
    ("GET", "/api/clubs/{ref}/invites"): Row(signed_in((403, "owner_only"))),
    ("POST", "/api/clubs/{ref}/invites"): Row(
        signed_in((403, "owner_only")), body=lambda w: {"name": w.member_name}),
    ("DELETE", "/api/clubs/{ref}/invites/{account_id}"): Row(signed_in((403, "owner_only"))),
    ("POST", "/api/clubs/{ref}/accept"): Row(signed_in((404, "no_invite"))),
    ("POST", "/api/clubs/{ref}/decline"): Row(signed_in((404, "no_invite"))),
    ("POST", "/api/clubs/{ref}/leave"): Row(signed_in((404, "not_member"))),
    ("DELETE", "/api/clubs/{ref}/members/{account_id}"): Row(signed_in((403, "owner_only"))),
    ("POST", "/api/clubs/{ref}/members/{account_id}/promote"): Row(
        signed_in((403, "owner_only"))),
    # play now: every caller here is a guest, which may play now (unrated); callers after the
    # first signed-in one may be paired with it, and both answers are 200
    ("POST", "/api/play-now"): Row(signed_in(200), body=lambda w: {"kind": "dice-duel"}),
    ("GET", "/api/play-now"): Row(signed_in(200)),
    ("DELETE", "/api/play-now"): Row(signed_in(204)),
    # leagues: reading is public (a bad token is still refused); every caller here is a guest,
    # and guests may not create or enter leagues; the world's league is another account's
    ("POST", "/api/leagues"): Row(signed_in((403, "guest")),
                                  body=lambda w: {"name": f"L{uuid.uuid4().hex[:8]}",
                                                  "kind": "dice-duel"}),
    ("GET", "/api/leagues"): Row(every(200)),
    ("GET", "/api/leagues/{league_id}"): Row((200, 200, 200, 200, 200, (401, "bad_token"))),
    ("POST", "/api/leagues/{league_id}/entrants"): Row(signed_in((403, "guest")),
                                                       body=lambda w: {}),
    ("DELETE", "/api/leagues/{league_id}/entrants/{entrant_id}"): Row(  # the league has none
        signed_in((404, "not_found"))),
    ("POST", "/api/leagues/{league_id}/start"): Row(signed_in((403, "not_creator"))),
    ("GET", "/api/leagues/{league_id}/schedule"): Row(
        (200, 200, 200, 200, 200, (401, "bad_token"))),
    ("GET", "/api/leagues/{league_id}/standings"): Row(every(200)),
    ("GET", "/api/leagues/{league_id}/leaders"): Row(every(200)),
    ("GET", "/leagues"): Row(every(200)),
    ("GET", "/leagues/{league_id}"): Row(every(200)),
    ("GET", "/api/games/{game_id}"): Row(every(200)),
    ("GET", "/api/games/{game_id}/pitches"): Row(every(200)),
    ("GET", "/api/games/{game_id}/events"): Row(
        (200, 200, 200, 200, 200, (401, "bad_token"))),
    ("GET", "/api/games/{game_id}/fairness"): Row(every(200)),
    ("GET", "/api/games/{game_id}/record"): Row(every(200)),
    ("GET", "/api/games/{game_id}/playbyplay"): Row(every(200)),
    ("GET", "/api/games/{game_id}/replay"): Row(every(200), query={"seq": 1}),
    ("GET", "/api/games/{game_id}/export"): Row(every(200)),
    ("GET", "/api/leaderboard"): Row(every(200), query={"game": "base-on-board"}),
    ("GET", "/api/players/{name}"): Row(every(200)),
    ("GET", "/api/players/{name}/charts"): Row(every(200)),
    ("GET", "/api/analysis/dice"): Row(every(200)),
    ("GET", "/api/analysis/run-expectancy"): Row(every(200)),
    ("GET", "/api/analysis/win-probability"): Row(every(200)),
    ("GET", "/api/analysis/card-value"): Row(every(200)),
    ("GET", "/api/catalogue/{game}"): Row(every(200)),
    ("GET", "/api/rules/{game}"): Row(every(200)),
    ("GET", "/api/lobby"): Row(every(200)),
    ("GET", "/api/rooms/{room_id}/rating"): Row(every(200)),
    ("GET", "/rules"): Row(every(200)),
    ("GET", "/rules/{game}"): Row(every(200)),
    ("GET", "/tutorial"): Row(every(200)),
    ("GET", "/tutorial/{game}"): Row(every(200)),
    ("GET", "/manifest.webmanifest"): Row(every(200)),
    ("GET", "/sw.js"): Row(every(200)),
    ("GET", "/"): Row(every(200)),
    ("GET", "/lobby"): Row(every(200)),
    ("GET", "/signin"): Row(every(200)),
    ("GET", "/leaderboard"): Row(every(200)),
    ("GET", "/rooms/{room_id}"): Row(every(200)),
    ("GET", "/players/{name}"): Row(every(200)),
    ("GET", "/games/{game_id}"): Row(every(200)),
    ("GET", "/clubs"): Row(every(200)),
    ("GET", "/clubs/{code}"): Row(every(200)),
    ("GET", "/static/{path:path}"): Row(every(200)),
    ("WS", "/ws/rooms/{room_id}"): Row(every(101)),  # the socket matrix below
}


def test_every_route_has_a_row() -> None:
    app = create_app(Settings(analysis_refresh_seconds=0))
    assert route_table(app) == set(ROWS)


@dataclass
class World:
    """A live dice-duel game, another room, and one session per kind of caller."""

    table: Table
    mover: str
    other_side: str
    tokens: dict[str, str | None]
    login_body: dict[str, str]
    member_name: str
    league_id: str
    """A forming player league an account outside the callers created."""
    secrets: dict[str, str]
    """Per side, a string only that side's members may see (dice-duel's ``secret``), read
    before any call changed a seat."""
    club: str = ""
    """The code of a club owned by the registered account of ``login_body``."""
    club_owner: str = ""

    def headers(self, caller: str) -> dict[str, str]:
        token = self.tokens[caller]
        return {} if token is None else {"Authorization": f"Bearer {token}"}



async def make_world(url: str) -> World:
    table = await open_table(url, spectators=0)
    states = await table.latest_states()
    mover = next(s for s, m in states.items() if m["legal_actions"])
    other_side = "away" if mover == "home" else "home"
    http = table.http
    spectator, stranger, revoked = await guest(http), await guest(http), await guest(http)
    created = await http.post("/api/rooms", json={"kind": "dice-duel", "side": "home"},
                              headers={"Authorization": f"Bearer {stranger['token']}"})
    assert created.status_code == 201
    out = await http.post("/api/auth/logout",
                          headers={"Authorization": f"Bearer {revoked['token']}"})
    assert out.status_code == 204
    login_body = {"name": f"l{uuid.uuid4().hex[:12]}", "password": "pw-123456"}
    registered = await http.post("/api/auth/register", json=login_body)
    assert registered.status_code == 201
    owner = registered.json()
    club = await http.post(
        "/api/clubs", json={"name": f"club {uuid.uuid4().hex[:8]}",
                            "code": new_code()},
        headers={"Authorization": f"Bearer {owner['token']}"})
    assert club.status_code == 201, club.text
    organiser = (await http.post("/api/auth/register", json={
        "name": f"o{uuid.uuid4().hex[:12]}", "password": "pw-123456"})).json()
    league = await http.post(
        "/api/leagues", json={"name": f"W{uuid.uuid4().hex[:12]}", "kind": "dice-duel",
                              "entrant_type": "player"},
        headers={"Authorization": f"Bearer {organiser['token']}"})
    assert league.status_code == 201, league.text
    member = table.home_session if mover == "home" else table.away_session
    secrets = {side: states[side]["view"]["secret"] for side in ("home", "away")}
    return World(
        table=table, mover=mover, other_side=other_side,
        tokens={"anonymous": None, "spectator": spectator["token"],
                "other": table.token(other_side), "member": table.token(mover),
                "stranger": stranger["token"], "revoked": revoked["token"]},
        login_body=login_body, member_name=member["account"]["name"],
        league_id=league.json()["id"], secrets=secrets,
        club=club.json()["code"], club_owner=owner["account"]["id"],
    )


def _path(template: str, world: World) -> str:
    return (template.replace("{room_id}", world.table.room_id)
            .replace("{game_id}", world.table.game_id)
            .replace("{league_id}", world.league_id).replace("{entrant_id}", "1")
            .replace("{name}", world.member_name).replace("{game}", "base-on-board")
            .replace("{path:path}", "js/main.js")
            .replace("{ref}", world.club).replace("{code}", world.club)
            .replace("{account_id}", world.club_owner))


def _check_secrets(world: World, caller: str, text: str, where: str) -> None:
    for side, secret in world.secrets.items():
        allowed = (caller == "member" and side == world.mover) or (
            caller == "other" and side == world.other_side)
        assert allowed or secret not in text, f"{caller} saw {side}'s secret at {where}"


async def test_rest_matrix(live: LiveServer) -> None:
    shared = await make_world(live.url)
    try:
        for (method, template), row in sorted(ROWS.items()):
            if method == "WS":
                continue
            for caller, cell in zip(CALLERS, row.cells, strict=True):
                world = await make_world(live.url) if row.fresh else shared
                try:
                    response = await world.table.http.request(
                        method, _path(template, world), headers=world.headers(caller),
                        params=row.query, json=row.body(world) if row.body else None,
                    )
                    status, code = cell if isinstance(cell, tuple) else (cell, None)
                    where = f"{method} {template} as {caller}"
                    assert response.status_code == status, (where, response.text)
                    if code is not None:
                        assert response.json()["error"]["code"] == code, where
                    _check_secrets(world, caller, response.text, where)
                    if template == "/api/games/{game_id}/events" and status == 200:
                        viewer = {"member": world.mover, "other": world.other_side}
                        assert response.json()["viewer"] == viewer.get(caller, "spectator")
                    if template == "/api/rooms/{room_id}/invite" and status == 200:
                        mine = world.mover if caller == "member" else world.other_side
                        assert response.json()["side"] == mine
                finally:
                    if row.fresh:
                        await world.table.close()
    finally:
        await shared.table.close()


SOCKET: dict[str, tuple[Cell, ...]] = {
    # what each caller gets for each client message (hello: the side in welcome, or refusal)
    "hello": (("welcome", None), ("welcome", None), ("welcome", "other"),  # type: ignore[dict-item]
              ("welcome", "member"), ("welcome", None), ("error", "bad_token")),
    "action": (("error", "spectator"), ("error", "spectator"), ("error", "wrong_side"),  # type: ignore[dict-item]
               ("ack", "applied"), ("error", "spectator"), None),
    "claim": (("error", "spectator"), ("error", "spectator"),  # type: ignore[dict-item]
              ("error", "opponent_present"), ("error", "opponent_present"),
              ("error", "spectator"), None),
    "sync": (("snapshot", None),) * 5 + (None,),  # type: ignore[dict-item]
    "ping": (("pong", None),) * 5 + (None,),  # type: ignore[dict-item]
    # a reaction comes back to its sender in its channel; chat needs an account
    "react": (("reaction", None),) * 5 + (None,),  # type: ignore[dict-item]
    "chat": (("error", "sign_in_required"),) + (("chat", None),) * 4 + (None,),  # type: ignore[dict-item]
    # the other side is here: nobody may hand it to the computer
    "stand_in": (("error", "spectator"), ("error", "spectator"),  # type: ignore[dict-item]
                 ("error", "opponent_present"), ("error", "opponent_present"),
                 ("error", "spectator"), None),
    # last: a seated player's resign ends the game
    "resign": (("error", "spectator"), ("error", "spectator"), ("ack", "applied"),  # type: ignore[dict-item]
               ("ack", "applied"), ("error", "spectator"), None),
}


def test_every_client_message_has_a_row() -> None:
    from app.realtime.messages import CLIENT_TYPES

    assert set(SOCKET) == set(CLIENT_TYPES)


async def test_socket_matrix(live: LiveServer) -> None:
    for caller in CALLERS:
        world = await make_world(live.url)
        try:
            states = await world.table.latest_states()
            action = states[world.mover]["legal_actions"][0]
            token = world.tokens[caller]
            if caller == "revoked":
                with pytest.raises(RuntimeError, match="bad_token"):
                    await open_socket(live.url, world.table.room_id, token)
                continue
            ws, welcome = await open_socket(live.url, world.table.room_id, token)
            try:
                expected_side = {"other": world.other_side, "member": world.mover}.get(caller)
                assert welcome["side"] == expected_side, caller
                first = json.loads(await ws.recv())
                assert first["type"] == "snapshot"
                messages = {
                    "action": {"type": "action", "id": "a1", "action": action},
                    "claim": {"type": "claim", "id": "c1"},
                    "sync": {"type": "sync"},
                    "ping": {"type": "ping"},
                    "react": {"type": "react", "emote": "clap"},
                    "chat": {"type": "chat", "text": "good luck"},
                    "stand_in": {"type": "stand_in", "id": "s1"},
                    "resign": {"type": "resign", "id": "r1"},
                }
                seen: list[str] = [json.dumps(first)]
                unread: list[dict[str, Any]] = []
                for kind, message in messages.items():
                    expected = SOCKET[kind][CALLERS.index(caller)]
                    assert isinstance(expected, tuple)
                    await ws.send(json.dumps(message))
                    while True:
                        if not unread:
                            raw = await asyncio.wait_for(ws.recv(), 10)
                            seen.append(str(raw))
                            # an update carries its commander's ack after its events and state
                            unread.extend(expand(json.loads(raw)))
                        reply = unread.pop(0)
                        if reply["type"] in ("event", "state") and kind != "sync":
                            continue
                        if reply["type"] == "error" and reply.get("id") not in (
                                None, "a1", "c1", "s1", "r1"):
                            continue
                        if reply["type"] in ("heartbeat", "room") and kind != reply["type"]:
                            continue
                        break
                    assert reply["type"] == expected[0], (caller, kind, reply)
                    if expected[1] is not None:
                        got = reply.get("code") or reply.get("result")
                        assert got == expected[1], (caller, kind, reply)
                _check_secrets(world, caller, "".join(seen), f"socket as {caller}")
            except ConnectionClosed as closed:
                raise AssertionError(f"{caller}: socket closed {closed}") from None
            finally:
                await ws.close()
        finally:
            await world.table.close()
