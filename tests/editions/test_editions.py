"""Editions over HTTP: mint, redeem once (also under parallel requests), list, throttle, and the
``REQUIRE_EDITION_CODES`` gate on Pro rooms."""

from __future__ import annotations

import asyncio
import math
import os
import subprocess
import sys
import uuid

import httpx
import pytest

from app.cli import main
from app.db import Database
from app.editions import service
from app.engine_catalog import EngineCatalog
from app.errors import ApiError
from tests.support.live import LiveServer


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def bearer(token: str, address: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if address is not None:  # uvicorn trusts X-Forwarded-For from 127.0.0.1 (the tests)
        headers["X-Forwarded-For"] = address
    return headers


async def register(http: httpx.AsyncClient) -> str:
    response = await http.post("/api/auth/register",
                               json={"name": unique("ed"), "password": "pw-123456"})
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


async def mint(url: str, count: int) -> list[str]:
    database = Database(url, pool_size=1)
    try:
        async with database.session() as db:
            codes = await service.mint(db, "pro", count)
            await db.commit()
    finally:
        await database.dispose()
    return codes


def error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_codes_are_friendly_and_carry_enough_entropy() -> None:
    code = service.new_code()
    groups = code.split("-")
    assert [len(g) for g in groups] == [4] * 5
    assert set("".join(groups)) <= set(service.ALPHABET)
    assert len(set(service.ALPHABET)) == 32 and not set("ILOU") & set(service.ALPHABET)
    assert service.SYMBOLS * math.log2(len(service.ALPHABET)) >= 80
    assert len({service.new_code() for _ in range(1000)}) == 1000


def test_typing_a_code_is_forgiving() -> None:
    code = "7K3M-QX9T-4HNW-PD2R-8CV0"
    for typed in ("7k3m qx9t 4hnw pd2r 8cvo", "7K3MQX9T4HNWPD2R8CV0",
                  " 7k3m–qx9t-4hnw-pd2r-8cvO\n"):
        assert service.hash_code(typed) == service.hash_code(code), typed
    assert service.normalise("1111-iiii-llll-0000-oooo") == "1111111111110000" + "0000"
    for bad in ("", "7K3M-QX9T", "7K3M-QX9T-4HNW-PD2R-8CVU", "7K3M-QX9T-4HNW-PD2R-8CV0-A",
                "7K3M-QX9T-4HNW-PD2R-8CV!", "한글한글-QX9T-4HNW-PD2R-8CVA"):
        with pytest.raises(ApiError) as refused:
            service.normalise(bad)
        assert (refused.value.code, refused.value.status) == ("bad_code", 400), bad


def test_the_cli_prints_codes_once_and_stores_their_hashes(
    database_url: str, live: LiveServer,
) -> None:
    """``bob codes mint`` in a process of its own (it must know every table it touches)."""
    printed = subprocess.run(
        [sys.executable, "-m", "app.cli", "codes", "mint", "--edition", "pro", "--count", "3"],
        env={**os.environ, "DATABASE_URL": database_url}, capture_output=True, text=True,
        timeout=60, check=True,
    )
    codes = printed.stdout.split()
    assert len(codes) == 3 and len(set(codes)) == 3 and "only their hashes" in printed.stderr

    async def check() -> None:
        from sqlalchemy import select

        from app.editions.models import EditionCode

        database = Database(database_url, pool_size=1)
        try:
            async with database.session() as db:
                rows = {r.code_hash: r for r in await db.scalars(select(EditionCode))}
        finally:
            await database.dispose()
        for code in codes:
            row = rows[service.hash_code(code)]
            assert row.edition == "pro" and row.redeemed_by is None and row.minted_at
        stored = " ".join(f"{r.code_hash} {r.edition}" for r in rows.values())
        assert not any(code.replace("-", "") in stored or code in stored for code in codes)
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            token = await register(http)
            redeemed = await http.post("/api/editions/redeem", json={"code": codes[0]},
                                       headers=bearer(token))
            assert redeemed.status_code == 200, redeemed.text

    asyncio.run(check())


def test_the_cli_refuses_unknown_editions_and_counts() -> None:
    with pytest.raises(SystemExit):
        main(["codes", "mint", "--edition", "deluxe", "--count", "1"])
    with pytest.raises(SystemExit):
        main(["codes", "mint", "--edition", "pro", "--count", "0"])


async def test_mint_redeem_and_mine(live: LiveServer) -> None:
    first, second = await mint(live.database_url, 2)
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        ace, bea = await register(http), await register(http)
        assert (await http.get("/api/editions/mine", headers=bearer(ace))).json() == []
        typed = first.lower().replace("-", " ")
        redeemed = await http.post("/api/editions/redeem", json={"code": typed},
                                   headers=bearer(ace))
        assert redeemed.status_code == 200, redeemed.text
        assert redeemed.json()["edition"] == "pro"
        mine = (await http.get("/api/editions/mine", headers=bearer(ace))).json()
        assert [m["edition"] for m in mine] == ["pro"]
        assert mine[0]["redeemed_at"] == redeemed.json()["redeemed_at"]

        async def redeem(token: str, code: str) -> httpx.Response:
            return await http.post("/api/editions/redeem", json={"code": code},
                                   headers=bearer(token))

        assert error(await redeem(ace, first)) == (409, "code_used")
        assert error(await redeem(bea, first)) == (409, "code_used")
        # Holding the edition already: the second code stays unused, for someone else.
        assert error(await redeem(ace, second)) == (409, "edition_held")
        assert (await redeem(bea, second)).status_code == 200
        assert error(await redeem(bea, service.new_code())) == (404, "bad_code")
        assert error(await redeem(bea, "ABCD-EFGH")) == (400, "bad_code")
        assert (await redeem(bea, "x" * 65)).status_code == 422
        bad_text = await http.post("/api/editions/redeem", json={"code": "AB\u0000CD"},
                                   headers=bearer(bea))
        assert bad_text.status_code == 422
        extra = await http.post("/api/editions/redeem", json={"code": first, "edition": "pro"},
                                headers=bearer(bea))
        assert extra.status_code == 422

        guest = (await http.post("/api/auth/guest", json={})).json()["token"]
        (third,) = await mint(live.database_url, 1)
        assert error(await redeem(guest, third)) == (403, "guest")
        assert (await http.get("/api/editions/mine", headers=bearer(guest))).json() == []
        anonymous = await http.post("/api/editions/redeem", json={"code": third})
        assert error(anonymous) == (401, "auth_required")
        # The guest's refusal did not use the code.
        assert (await redeem(bea, third)).status_code == 409  # bea holds pro already
        assert (await redeem(await register(http), third)).status_code == 200


async def test_a_code_redeems_once_under_parallel_requests(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=60) as http:
        tokens = [await register(http) for _ in range(8)]
        for code in await mint(live.database_url, 4):
            answers = await asyncio.gather(*[
                http.post("/api/editions/redeem", json={"code": code}, headers=bearer(t))
                for t in tokens
            ])
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [200] + [409] * (len(tokens) - 1), [a.text for a in answers]
            assert {error(a) for a in answers if a.status_code == 409} == {(409, "code_used")}
            winner = tokens[[a.status_code for a in answers].index(200)]
            tokens.remove(winner)  # it holds pro now; the others try the next code
            mine = (await http.get("/api/editions/mine", headers=bearer(winner))).json()
            assert [m["edition"] for m in mine] == ["pro"]
        # One account, two codes of one edition at once: it gets the edition once, and the
        # other code stays unused.
        token = tokens[0]
        codes = await mint(live.database_url, 2)
        answers = await asyncio.gather(*[
            http.post("/api/editions/redeem", json={"code": c}, headers=bearer(token))
            for c in codes
        ])
        assert sorted(a.status_code for a in answers) == [200, 409]
        assert {error(a) for a in answers if a.status_code == 409} == {(409, "edition_held")}
        unused = codes[[a.status_code for a in answers].index(409)]
        other = await http.post("/api/editions/redeem", json={"code": unused},
                                headers=bearer(tokens[1]))
        assert other.status_code == 200
        mine = (await http.get("/api/editions/mine", headers=bearer(token))).json()
        assert [m["edition"] for m in mine] == ["pro"]


def refused(response: httpx.Response) -> bool:
    if response.status_code != 429:
        return False
    assert response.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    return True


async def test_redeeming_is_throttled_per_account_and_per_address(
    database_url: str, catalog: EngineCatalog,
) -> None:
    server = LiveServer(database_url, catalog, run_timers=False,
                        limit_redeem_address="4/minute", limit_redeem_account="2/minute").start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            (code,) = await mint(database_url, 1)
            token = await register(http)
            # Per account: 2 failures from anywhere, then even a good code waits.
            for index in range(2):
                wrong = await http.post("/api/editions/redeem",
                                        json={"code": service.new_code()},
                                        headers=bearer(token, f"10.20.0.{index}"))
                assert error(wrong) == (404, "bad_code")
            assert refused(await http.post("/api/editions/redeem", json={"code": code},
                                           headers=bearer(token, "10.21.0.1")))
            # Per address: 4 attempts, whoever makes them and whatever they hold.
            address = f"10.22.{uuid.uuid4().int % 250}.1"
            others = [await register(http) for _ in range(5)]
            answers = [await http.post("/api/editions/redeem", json={"code": "ABCD"},
                                       headers=bearer(t, address)) for t in others]
            assert [a.status_code for a in answers[:4]] == [400] * 4
            assert refused(answers[4])
            # The refused requests did nothing: the code is still there for another account.
            redeemed = await http.post("/api/editions/redeem", json={"code": code},
                                       headers=bearer(others[0], "10.23.0.1"))
            assert redeemed.status_code == 200
    finally:
        server.stop()


PRO = {"kind": "base-on-board", "options": {"tier": "pro", "innings": 3}}


async def test_pro_rooms_need_the_edition_when_the_setting_is_on(
    database_url: str, catalog: EngineCatalog,
) -> None:
    server = LiveServer(database_url, catalog, run_timers=False,
                        require_edition_codes=True).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            token = await register(http)

            async def create(body: dict[str, object]) -> httpx.Response:
                return await http.post("/api/rooms", json=body, headers=bearer(token))

            assert error(await create(PRO)) == (403, "edition_required")
            # Without a tier a Base on Board room is Pro (the engine's default).
            assert error(await create({"kind": "base-on-board"})) == (403, "edition_required")
            for tier in ("lite", "lite-extended"):
                lite = await create({"kind": "base-on-board", "options": {"tier": tier}})
                assert lite.status_code == 201, lite.text
            assert (await create({"kind": "bottom-of-the-9th"})).status_code == 201
            assert (await create({"kind": "dice-duel"})).status_code == 201
            # Bad options are still told first.
            bad = await create({"kind": "base-on-board", "options": {"innings": 4}})
            assert bad.status_code == 422
            (code,) = await mint(database_url, 1)
            redeemed = await http.post("/api/editions/redeem", json={"code": code},
                                       headers=bearer(token))
            assert redeemed.status_code == 200
            room = await create({**PRO, "side": "home"})
            assert room.status_code == 201, room.text
            assert room.json()["options"]["tier"] == "pro"
            assert (await create({"kind": "base-on-board"})).status_code == 201
            # Another account without the edition may still join the creator's Pro room.
            joiner = await register(http)
            joined = await http.post(f"/api/rooms/{room.json()['id']}/join",
                                     json={"side": "away"}, headers=bearer(joiner))
            assert joined.status_code == 200, joined.text
    finally:
        server.stop()


async def test_every_tier_is_open_when_the_setting_is_off(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        token = await register(http)
        guest = (await http.post("/api/auth/guest", json={})).json()["token"]
        for who in (token, guest):
            for body in (PRO, {"kind": "base-on-board"}):
                created = await http.post("/api/rooms", json=body, headers=bearer(who))
                assert created.status_code == 201, created.text


def test_editions_import_no_rooms_or_games() -> None:
    """Rooms ask editions (``require_edition``); editions never reach up into rooms or games."""
    import ast
    from pathlib import Path

    import app.editions

    folder = Path(app.editions.__file__).parent
    upper = ("app.rooms", "app.games", "app.seats", "app.stats", "app.realtime")
    imported = set()
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert "app.errors" in imported  # the scan sees the imports
    assert not {m for m in imported if m.startswith(upper)}
