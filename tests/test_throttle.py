"""Sign-in, registration, guests and rooms are throttled per address and per account (429 with
Retry-After), in memory for one process and in Redis across several."""

from __future__ import annotations

import uuid

import httpx

from app.engine_catalog import EngineCatalog
from tests.support.live import LiveServer

LIMITS = {
    "limit_login_address": "5/minute", "limit_login_account": "3/minute",
    "limit_register_address": "2/minute", "limit_guest_address": "3/minute",
    "limit_rooms_address": "2/minute",
}


def from_address(address: str) -> dict[str, str]:
    """uvicorn takes X-Forwarded-For from a trusted proxy (127.0.0.1): each test client can be
    a different address."""
    return {"X-Forwarded-For": address}


def refused(response: httpx.Response) -> bool:
    if response.status_code != 429:
        return False
    assert response.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    return True


async def test_each_rule_refuses_past_its_window(database_url: str,
                                                 catalog: EngineCatalog) -> None:
    server = LiveServer(database_url, catalog, **LIMITS).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            name = f"th{uuid.uuid4().hex[:10]}"
            body = {"name": name, "password": "pw-123456"}
            assert (await http.post("/api/auth/register", json=body,
                                    headers=from_address("10.0.0.1"))).status_code == 201
            # Per account: 3 failures from anywhere, then even the right password waits.
            for index in range(3):
                wrong = await http.post("/api/auth/login", json={**body, "password": "bad-bad-1"},
                                        headers=from_address(f"10.1.0.{index}"))
                assert wrong.status_code == 401
            assert refused(await http.post("/api/auth/login", json=body,
                                           headers=from_address("10.2.0.1")))
            # Per address: 5 attempts, whatever the names.
            for index in range(5):
                other = {"name": f"nobody{index}", "password": "pw-123456"}
                assert (await http.post("/api/auth/login", json=other,
                                        headers=from_address("10.3.0.1"))).status_code == 401
            assert refused(await http.post("/api/auth/login", json={**body, "name": "x1y"},
                                           headers=from_address("10.3.0.1")))
            # Registration, guests and rooms per address.
            for index in range(2):
                assert (await http.post(
                    "/api/auth/register", json={"name": f"r{uuid.uuid4().hex[:10]}",
                                                "password": "pw-123456"},
                    headers=from_address("10.4.0.1"))).status_code == 201, index
            assert refused(await http.post(
                "/api/auth/register", json={"name": f"r{uuid.uuid4().hex[:10]}",
                                            "password": "pw-123456"},
                headers=from_address("10.4.0.1")))
            guests = [await http.post("/api/auth/guest", json={},
                                      headers=from_address("10.5.0.1")) for _ in range(4)]
            assert [g.status_code for g in guests[:3]] == [201, 201, 201]
            assert refused(guests[3])
            token = guests[0].json()["token"]
            rooms = [await http.post("/api/rooms", json={"kind": "dice-duel"},
                                     headers={"Authorization": f"Bearer {token}",
                                              **from_address("10.6.0.1")}) for _ in range(3)]
            assert [r.status_code for r in rooms[:2]] == [201, 201]
            assert refused(rooms[2])
            # Another address is counted on its own.
            assert (await http.post("/api/auth/guest", json={},
                                    headers=from_address("10.5.0.2"))).status_code == 201
    finally:
        server.stop()


async def test_processes_on_redis_count_together(database_url: str,
                                                 catalog: EngineCatalog) -> None:
    prefix = f"bob-test-{uuid.uuid4().hex[:8]}:"
    settings = {"redis_url": "redis://127.0.0.1:6379/0",
                "redis_channel_prefix": f"{prefix}room:",
                "redis_notice_channel": f"{prefix}notices", **LIMITS}
    first = LiveServer(database_url, catalog, **settings).start()
    second = LiveServer(database_url, catalog, **settings).start()
    address = from_address(f"10.9.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}")
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            codes = []
            for server in (first, second, first, second):
                response = await http.post(f"{server.url}/api/auth/guest", json={},
                                           headers=address)
                codes.append(response.status_code)
            assert codes == [201, 201, 201, 429]
    finally:
        first.stop()
        second.stop()
