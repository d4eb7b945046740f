"""Accounts over HTTP: registration, sign-in, guests, unique names, the 3-device limit."""

from __future__ import annotations

import uuid

import httpx

from tests.support.live import LiveServer


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


async def test_register_login_and_device_limit(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url) as http:
        name = unique("Ace")
        body = {"name": name, "password": "pw-123456"}
        created = await http.post("/api/auth/register", json=body)
        assert created.status_code == 201
        first = created.json()["token"]
        taken = await http.post("/api/auth/register",
                                json={"name": name.lower(), "password": "pw-123456"})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
        wrong = await http.post("/api/auth/login", json={"name": name, "password": "nope-nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_credentials"
        missing = await http.post("/api/auth/login",
                                  json={"name": unique("x"), "password": "whatever1"})
        assert missing.status_code == 401

        tokens = [first]
        for _ in range(3):
            login = await http.post("/api/auth/login", json=body)
            assert login.status_code == 200
            tokens.append(login.json()["token"])
        assert login.json()["ended_sessions"] == 1

        def me(token: str) -> httpx.Response:
            return http.get("/api/auth/me", headers={"Authorization": f"Bearer {token}"})  # type: ignore[return-value]

        assert (await me(tokens[0])).status_code == 401  # the oldest device was signed out
        for token in tokens[1:]:
            response = await me(token)
            assert response.status_code == 200 and response.json()["name"] == name
        out = await http.post("/api/auth/logout",
                              headers={"Authorization": f"Bearer {tokens[1]}"})
        assert out.status_code == 204
        assert (await me(tokens[1])).status_code == 401


async def test_validation_and_guests(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url) as http:
        for body in ({"name": "x", "password": "long-enough"},
                     {"name": "bad name!", "password": "long-enough"},
                     {"name": unique("ok"), "password": "short"},
                     {"name": unique("ok"), "password": "long-enough", "admin": True}):
            response = await http.post("/api/auth/register", json=body)
            assert response.status_code == 422, body
        guest = await http.post("/api/auth/guest", json={})
        assert guest.status_code == 201
        account = guest.json()["account"]
        assert account["is_guest"] and account["name"].startswith("guest-")
        named = unique("Guesty")
        assert (await http.post("/api/auth/guest", json={"name": named})).status_code == 201
        again = await http.post("/api/auth/guest", json={"name": named})
        assert again.status_code == 409
        assert (await http.get("/api/auth/me")).json()["error"]["code"] == "auth_required"
        health = await http.get("/healthz")
        assert health.json()["status"] == "ok" and health.json()["database"] == "ok"
        schema = (await http.get("/openapi.json")).json()
        for path in ("/api/rooms", "/api/rooms/{room_id}/join", "/api/games/{game_id}/fairness",
                     "/api/leaderboard", "/api/players/{name}", "/api/auth/login"):
            assert path in schema["paths"], path


async def test_account_settings(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url) as http:
        guest = (await http.post("/api/auth/guest", json={})).json()
        headers = {"Authorization": f"Bearer {guest['token']}"}
        taken = unique("Taken")
        await http.post("/api/auth/register", json={"name": taken, "password": "pw-123456"})
        clash = await http.patch("/api/auth/me", json={"name": taken.upper()}, headers=headers)
        assert clash.status_code == 409
        assert (await http.patch("/api/auth/me", json={"name": "no way"},
                                 headers=headers)).status_code == 422
        name = unique("Kept")
        kept = await http.patch("/api/auth/me", json={"name": name, "password": "new-pass-1"},
                                headers=headers)
        assert kept.status_code == 200 and kept.json() == {
            **kept.json(), "name": name, "is_guest": False
        }
        login = await http.post("/api/auth/login", json={"name": name, "password": "new-pass-1"})
        assert login.status_code == 200
