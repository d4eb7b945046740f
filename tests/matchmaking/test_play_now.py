"""Play now: pairing by nearest rating, the widening window, concurrency across two server
processes, cancelling, lapsing, validation and the rate limit.

The tests run servers of their own on a database of their own (of the suite's backend): the
shared server's queue holds the authorization matrix's entries, which would pair with these.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import delete, select, update

from app.bots.client import guest
from app.db import Database, utcnow
from app.engine_catalog import EngineCatalog
from app.matchmaking import service
from app.matchmaking.models import PlayQueueEntry
from app.stats.models import PlayerRating
from tests.support.databases import postgres_database, sqlite_database
from tests.support.live import LiveServer
from tests.support.verify import assert_played_games_rebuild

KIND = "dice-duel"


@pytest.fixture(scope="module")
def queue_url(database_url: str, catalog: EngineCatalog,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chosen = (sqlite_database(tmp_path_factory.mktemp("play-now"))
              if database_url.startswith("sqlite") else postgres_database())
    with chosen as url:
        yield url
        assert_played_games_rebuild(url, catalog)


@pytest.fixture(scope="module")
def servers(queue_url: str, catalog: EngineCatalog) -> Iterator[list[LiveServer]]:
    """Two server processes' worth of apps on one database."""
    started = [LiveServer(queue_url, catalog).start() for _ in range(2)]
    yield started
    for server in started:
        server.stop()


@pytest.fixture
async def db(queue_url: str) -> AsyncIterator[Database]:
    database = Database(queue_url)
    async with database.session() as session:
        await session.execute(delete(PlayQueueEntry))
        await session.commit()
    yield database
    await database.dispose()


@pytest.fixture
async def http(servers: list[LiveServer]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as client:
        yield client


def auth(session: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['token']}"}


async def player(http: httpx.AsyncClient, db: Database, rating: int | None = None,
                 pool: str = KIND) -> dict[str, Any]:
    """A guest; with ``rating``, a rating row that displays as that many points."""
    session = await guest(http)
    if rating is not None:
        sigma = 1.0
        mu = (rating - 1500) / 20 + 3 * sigma
        async with db.session() as s:
            s.add(PlayerRating(account_id=session["account"]["id"], pool=pool, mu=mu,
                               sigma=sigma, games=20, last_played=utcnow()))
            await s.commit()
    return session


async def waiting_entry(db: Database, session: dict[str, Any], rating: int,
                        since: datetime | None = None) -> None:
    """Puts ``session`` in the queue directly (as if it had entered and not been paired)."""
    async with db.session() as s:
        s.add(PlayQueueEntry(account_id=session["account"]["id"], pool=KIND, kind=KIND,
                             options={}, rating=rating, since=since or utcnow()))
        await s.commit()


async def set_since(db: Database, session: dict[str, Any], since: datetime) -> None:
    async with db.session() as s:
        await s.execute(update(PlayQueueEntry)
                        .where(PlayQueueEntry.account_id == session["account"]["id"])
                        .values(since=since))
        await s.commit()


async def enter(http: httpx.AsyncClient, session: dict[str, Any], kind: str = KIND,
                **options: Any) -> dict[str, Any]:
    response = await http.post("/api/play-now", json={"kind": kind, "options": options},
                               headers=auth(session))
    assert response.status_code == 200, response.text
    return dict(response.json())


async def state(http: httpx.AsyncClient, session: dict[str, Any]) -> dict[str, Any]:
    response = await http.get("/api/play-now", headers=auth(session))
    assert response.status_code == 200, response.text
    return dict(response.json())


def seated(room: dict[str, Any]) -> dict[str, str]:
    return {seat["account_id"]: seat["side"] for seat in room["seats"]}


def test_window_widens_by_50_every_10_seconds() -> None:
    assert [service.window(s) for s in (0, 9.9, 10, 25, 50, 300)] == [
        150, 150, 200, 250, 400, 1650]
    now = utcnow()

    def entry(account: str, rating: int, waited: float, id_: int) -> PlayQueueEntry:
        return PlayQueueEntry(id=id_, account_id=account, pool=KIND, kind=KIND, options={},
                              rating=rating, since=now - timedelta(seconds=waited))

    mine = entry("me", 1500, 0, 0)
    others = [entry("far", 1800, 0, 1), entry("near", 1560, 0, 2), entry("nearer", 1450, 0, 3),
              entry("me", 1500, 0, 4), entry("tied", 1550, 5, 5)]
    assert [e.account_id for e in service.choose(mine, others, now)] == [
        "tied", "nearer", "near"]  # 50 (waited longer), 50, 60; never myself
    assert [e.account_id for e in service.choose(mine, [entry("far", 1800, 60, 1)], now)] == [
        "far"]  # 60 s waited: ±450


async def test_pairs_with_the_nearest_rating(http: httpx.AsyncClient, db: Database) -> None:
    waiting = {r: await player(http, db) for r in (1400, 1480, 1600)}
    for rating, session in waiting.items():
        await waiting_entry(db, session, rating)
    newcomer = await player(http, db, rating=1500)
    answer = await enter(http, newcomer)
    assert answer["status"] == "paired" and answer["rating"] == 1500
    room = answer["room"]
    sides = seated(room)
    assert set(sides) == {newcomer["account"]["id"], waiting[1480]["account"]["id"]}
    assert sorted(sides.values()) == ["away", "home"]
    assert room["status"] == "live" and not room["private"] and room["current_game_id"]
    assert room["created_by"] == waiting[1480]["account"]["id"]  # the one who waited
    # the waiting player learns of it by polling; the other two stay (200 apart: > ±150)
    told = await state(http, waiting[1480])
    assert told["status"] == "paired" and told["room"]["id"] == room["id"]
    for rating in (1400, 1600):
        assert (await state(http, waiting[rating]))["status"] == "waiting"


async def test_window_widens_with_waiting_time(http: httpx.AsyncClient, db: Database) -> None:
    low, high = await player(http, db, rating=1500), await player(http, db, rating=1800)
    assert (await enter(http, low))["status"] == "waiting"
    answer = await enter(http, high)
    assert answer["status"] == "waiting" and answer["window"] == 150  # 300 apart
    await set_since(db, low, utcnow() - timedelta(seconds=25))  # ±250: not yet
    assert (await state(http, low))["status"] == "waiting"
    assert (await state(http, high))["status"] == "waiting"
    await set_since(db, low, utcnow() - timedelta(seconds=30))  # ±300: now
    answer = await state(http, high)  # the window of the longer-waiting of the two
    assert answer["status"] == "paired"
    assert set(seated(answer["room"])) == {low["account"]["id"], high["account"]["id"]}


async def test_eight_players_at_once_make_four_rooms(
    servers: list[LiveServer], db: Database
) -> None:
    clients = [httpx.AsyncClient(base_url=s.url, timeout=30) for s in servers]
    try:
        players = [await guest(clients[0]) for _ in range(8)]

        async def go(i: int) -> dict[str, Any]:
            http = clients[i % 2]  # every other player on the other process
            answer = await enter(http, players[i])
            deadline = asyncio.get_running_loop().time() + 30
            while answer["status"] != "paired":
                assert asyncio.get_running_loop().time() < deadline, answer
                await asyncio.sleep(0.05 + secrets.randbelow(50) / 1000)
                answer = await state(http, players[i])
            return answer

        answers = await asyncio.gather(*(go(i) for i in range(8)))
    finally:
        for client in clients:
            await client.aclose()
    rooms = {a["room"]["id"]: a["room"] for a in answers}
    assert len(rooms) == 4
    everyone = Counter(account for room in rooms.values() for account in seated(room))
    assert set(everyone) == {p["account"]["id"] for p in players}
    assert set(everyone.values()) == {1}  # nobody in two rooms, nobody alone
    for room, answer in zip((a["room"] for a in answers), answers, strict=True):
        assert answer["room"]["id"] == room["id"]
        assert sorted(seated(rooms[room["id"]]).values()) == ["away", "home"]
    async with db.session() as s:
        rows = list(await s.scalars(select(PlayQueueEntry)))
    assert len(rows) == 8 and Counter(r.room_id for r in rows) == {r: 2 for r in rooms}


async def test_cancel_and_lapse(http: httpx.AsyncClient, db: Database) -> None:
    a, b, c = await player(http, db), await player(http, db), await player(http, db)
    assert (await state(http, a))["status"] == "none"
    first = await enter(http, a)
    assert first["status"] == "waiting"
    again = await enter(http, a)  # entering again keeps the place, never pairs with oneself
    assert again["status"] == "waiting" and again["since"] == first["since"]
    assert (await http.delete("/api/play-now", headers=auth(a))).status_code == 204
    assert (await http.delete("/api/play-now", headers=auth(a))).status_code == 204
    assert (await state(http, a))["status"] == "none"
    assert (await enter(http, b))["status"] == "waiting"  # not paired with a: a left
    await set_since(db, b, utcnow() - timedelta(seconds=301))  # PLAY_NOW_TIMEOUT_SECONDS 300
    assert (await enter(http, c))["status"] == "waiting"  # not paired with b: b lapsed
    assert (await state(http, b))["status"] == "none"


async def test_a_paired_player_entering_again_starts_afresh(
    http: httpx.AsyncClient, db: Database
) -> None:
    a, b = await player(http, db), await player(http, db)
    await enter(http, a)
    assert (await enter(http, b))["status"] == "paired"
    assert (await enter(http, a))["status"] == "waiting"
    assert (await state(http, b))["status"] == "paired"  # b's pairing stays until it lapses


async def test_options_pools_and_sign_in(http: httpx.AsyncClient, db: Database) -> None:
    a = await player(http, db)
    bad = [
        ({"kind": "chess"}, "unknown_kind"),
        ({"kind": KIND, "options": {"innings": 3}}, "invalid_options"),
        ({"kind": KIND, "options": {"tier": "pro"}}, "invalid_options"),
        ({"kind": KIND, "options": {"tier": "gold"}}, "invalid_request"),
        ({"kind": KIND, "options": {"home_name": "x" * 25}}, "invalid_request"),
        ({"kind": KIND, "side": "home"}, "invalid_request"),
        ({"kind": "bottom-of-the-9th", "options": {"mode": "solo"}}, "invalid_options"),
    ]
    for body, code in bad:
        response = await http.post("/api/play-now", json=body, headers=auth(a))
        assert response.status_code == 422, body
        assert response.json()["error"]["code"] == code, (body, response.text)
    assert (await http.post("/api/play-now", json={"kind": KIND})).status_code == 401
    assert (await http.get("/api/play-now")).status_code == 401
    assert (await http.delete("/api/play-now")).status_code == 401
    # Base on Board is paired by tier: lite and pro players do not meet
    lite, pro = await player(http, db), await player(http, db)
    assert (await enter(http, lite, "base-on-board", tier="lite"))["pool"] == "base-on-board:lite"
    answer = await enter(http, pro, "base-on-board")
    assert answer["status"] == "waiting" and answer["pool"] == "base-on-board:pro"
    other = await player(http, db)
    answer = await enter(http, other, "base-on-board", tier="lite")
    assert answer["status"] == "paired" and answer["room"]["options"]["tier"] == "lite"


async def test_entries_are_rate_limited_per_address(
    queue_url: str, catalog: EngineCatalog, db: Database
) -> None:
    server = LiveServer(queue_url, catalog, run_timers=False,
                        limit_play_now_address="2/minute").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            a = await guest(http)
            for _ in range(2):
                assert (await enter(http, a))["status"] == "waiting"
            refused = await http.post("/api/play-now", json={"kind": KIND}, headers=auth(a))
            assert refused.status_code == 429 and refused.headers["Retry-After"]
            assert refused.json()["error"]["code"] == "rate_limited"
            assert (await state(http, a))["status"] == "waiting"  # polls are not counted
    finally:
        server.stop()


def test_the_protocol_documents_play_now() -> None:
    from pathlib import Path

    text = Path(__file__).parents[2].joinpath("docs", "protocol.md").read_text()
    section = text.split("## Play now — `/api/play-now`", 1)[1].split("\n## ", 1)[0]
    for needle in ("`POST /api/play-now`", "`GET /api/play-now`", "`DELETE /api/play-now`",
                   f"±{service.WINDOW_BASE} display points", f"plus {service.WINDOW_STEP} for",
                   f"full {service.WINDOW_STEP_SECONDS:g} s", "PLAY_NOW_TIMEOUT_SECONDS` (300)",
                   "LIMIT_PLAY_NOW_ADDRESS` (120/hour)", "FOR UPDATE SKIP LOCKED", "every 2 s"):
        assert needle in section, needle
