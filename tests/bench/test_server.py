"""The bench's CPU per applied command in the steady part: the commands written inside it, by
who sent them, and the CPU of that part divided among them."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from sqlalchemy import insert

from app.db import Database
from app.games.models import Command, Game
from app.models import Account, Room
from bench.server import applied_commands, steady_cpu_per_applied
from tests.support.verify import FIXTURE_RULES

T0 = 1_796_000_000.0
"""A wall-clock time (epoch seconds) the rows are written around."""


async def _write_commands(url: str, rows: list[tuple[str, float]]) -> None:
    """One game and a command row for each (actor, seconds after ``T0``)."""
    database = Database(url)
    try:
        async with database.engine.begin() as conn:
            await conn.execute(insert(Account).values(id="a", name="a", name_key="a"))
            await conn.execute(insert(Room).values(
                id="r", kind="base-on-board", options={}, teams={}, timers={}, invites={},
                created_by="a"))
            await conn.execute(insert(Game).values(
                id="g", room_id="r", kind="base-on-board", options={}, state={}, version=1,
                seed="0" * 64, seed_hash="0" * 64, deadlines={},
                rules_version=FIXTURE_RULES))  # written by hand: the rebuild passes it by
            await conn.execute(insert(Command), [
                {"game_id": "g", "actor": actor, "command_id": f"c{n}", "side": "home",
                 "action": {"type": "pass"}, "response": {"result": "applied"},
                 "created_at": datetime.fromtimestamp(T0 + at, UTC)}
                for n, (actor, at) in enumerate(rows)
            ])
    finally:
        await database.dispose()


def test_applied_commands_are_counted_by_who_sent_them_and_inside_the_window(
        fresh_database_url: str) -> None:
    asyncio.run(_write_commands(fresh_database_url, [
        ("server", 5.0), ("server", 10.0), ("a", 11.0), ("computer", 12.0), ("b", 19.0),
        ("a", 50.0),
    ]))
    assert asyncio.run(applied_commands(fresh_database_url)) == {
        "server": 2, "computer": 1, "players": 3}
    assert asyncio.run(applied_commands(fresh_database_url, (T0 + 9.0, T0 + 20.0))) == {
        "server": 1, "computer": 1, "players": 2}


def test_the_steady_cpu_is_divided_among_the_commands_applied_in_it() -> None:
    # half a core for 10 s is 5 CPU-seconds; 2,500 commands: 2 ms each
    assert steady_cpu_per_applied(0.5, (100.0, 110.0), {"server": 900, "players": 1600}) == 2.0
    assert steady_cpu_per_applied(None, (100.0, 110.0), {"players": 1}) is None
    assert steady_cpu_per_applied(0.5, None, {"players": 1}) is None
    assert steady_cpu_per_applied(0.5, (100.0, 110.0), {}) is None
