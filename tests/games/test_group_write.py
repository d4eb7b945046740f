"""Commands of several games that wait for the database go out as one statement, and each
still gets its own answer: moved, refused by its version or seat check, or failed by a
repeated command id, exactly as it would alone."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import asyncpg
import orjson
import pytest
from sqlalchemy.exc import IntegrityError

from app.engine_catalog import EngineCatalog
from app.games.group_write import GroupWriter
from app.raw_pool import RawPool, dsn
from tests.support.databases import postgres_database
from tests.support.live import LiveServer
from tests.support.table import open_table

Row = dict[str, Any]


async def _games(url: str) -> list[Row]:
    connection = await asyncpg.connect(dsn(url))
    try:
        rows = await connection.fetch(
            "SELECT id, room_id, version, seq, deadlines, next_deadline_at, draw_count, state,"
            " hold FROM games ORDER BY id")
        return [dict(row) for row in rows]
    finally:
        await connection.close()


async def _fetch(url: str, sql: str, *args: Any) -> list[Row]:
    connection = await asyncpg.connect(dsn(url))
    try:
        return [dict(row) for row in await connection.fetch(sql, *args)]
    finally:
        await connection.close()


def _write(game: Row, command_id: str, *, version: int | None = None,
           seat: dict[str, str] | None = None) -> tuple[Any, ...]:
    """A write that moves ``game`` on by one version and records one command."""
    values = {
        "version": game["version"] + 1, "seq": game["seq"],
        "deadlines": orjson.loads(game["deadlines"]), "next_deadline_at": datetime.now(UTC),
        "draw_count": game["draw_count"], "state": orjson.loads(game["state"]), "hold": None,
    }
    command = {"game_id": game["id"], "actor": "server", "command_id": command_id,
               "side": "home", "action": {"type": "test"}, "created_at": datetime.now(UTC),
               "response": {"result": "applied"}}
    rows: list[list[Row]] = [[], [], [], [], [command]]
    return (game["id"], game["version"] if version is None else version, values, seat, rows)


@pytest.fixture
def six_games(database_url: str, catalog: EngineCatalog) -> Any:
    if not database_url.startswith("postgresql"):
        pytest.skip("the group write is PostgreSQL's")
    with postgres_database() as url:  # its own: these writes are not games the rules made
        server = LiveServer(url, catalog, run_timers=False).start()
        try:
            async def make() -> None:
                for _ in range(6):
                    table = await open_table(server.url, spectators=0)
                    await table.close()

            asyncio.run(make())
        finally:
            server.stop()
        yield url


def test_waiting_writes_go_together_and_each_gets_its_answer(six_games: str) -> None:
    url = six_games

    async def run() -> None:
        sizes: list[float] = []
        pool = RawPool(url, 4)
        writer = GroupWriter(pool, sizes.append, in_flight=1)
        try:
            games = await _games(url)
            assert len(games) == 6
            moved = await asyncio.gather(*(writer.write(*_write(g, "a")) for g in games))
            assert moved == [True] * 6
            assert sizes == [1, 5]  # the first alone at once; the five that waited together

            games = await _games(url)
            seat = (await _fetch(url, "SELECT account_id, side FROM seats"
                                      " WHERE room_id = $1 AND left_at IS NULL",
                                 games[2]["room_id"]))[0]
            session = (await _fetch(url, "SELECT id FROM device_sessions LIMIT 1"))[0]["id"]
            forged = {"w_room": games[3]["room_id"], "w_actor": "nobody", "w_side": "home",
                      "w_session": session}
            seated = {"w_room": games[2]["room_id"], "w_actor": seat["account_id"],
                      "w_side": seat["side"], "w_session": session}
            sizes.clear()
            answers = await asyncio.gather(
                writer.write(*_write(games[0], "b")),
                writer.write(*_write(games[1], "b", version=games[1]["version"] - 1)),
                writer.write(*_write(games[2], "b", seat=seated)),
                writer.write(*_write(games[3], "b", seat=forged)),
                writer.write(*_write(games[4], "b")),
                return_exceptions=True,
            )
            assert answers == [True, False, True, False, True]
            assert sizes == [1, 4]
            after = {g["id"]: g["version"] for g in await _games(url)}
            assert [after[g["id"]] - g["version"] for g in games] == [1, 0, 1, 0, 1, 0]
            recorded = await _fetch(url, "SELECT game_id FROM command WHERE command_id = 'b'")
            assert sorted(r["game_id"] for r in recorded) == sorted(
                games[i]["id"] for i in (0, 2, 4))

            games = await _games(url)
            sizes.clear()
            answers = await asyncio.gather(
                writer.write(*_write(games[0], "c")),
                writer.write(*_write(games[1], "c")),
                writer.write(*_write(games[2], "a")),  # this command id was used before
                writer.write(*_write(games[5], "c")),
                return_exceptions=True,
            )
            assert answers[0] is True and answers[1] is True and answers[3] is True
            assert isinstance(answers[2], IntegrityError)
            assert sizes == [1, 3]
            after = {g["id"]: g["version"] for g in await _games(url)}
            assert [after[g["id"]] - g["version"] for g in games] == [1, 1, 0, 0, 0, 1]
        finally:
            await pool.close()

    asyncio.run(run())


def test_a_quiet_server_writes_every_command_alone(
    database_url: str, catalog: EngineCatalog
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the group write is PostgreSQL's")
    server = LiveServer(database_url, catalog, run_timers=False).start()
    try:
        assert server._server is not None
        metrics = server._server.config.app.state.ctx.metrics

        async def play() -> int:
            table = await open_table(server.url, spectators=0)
            try:
                applied = 0
                for _ in range(6):
                    reply = await table.step()
                    assert reply is not None
                    applied += reply["result"] == "applied"
                return applied
            finally:
                await table.close()

        assert asyncio.run(play()) == 6
        batches = {s.labels.get("le"): s.value for s in
                   next(iter(metrics.write_batch_games.collect())).samples
                   if s.name.endswith("_bucket")}
        assert batches["1.0"] >= 6
        assert batches["1.0"] == batches["+Inf"]  # every write alone
    finally:
        server.stop()
