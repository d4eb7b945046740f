"""The hot write of a command, the ways it has been or could be made, interleaved.

- ``sqlalchemy``: the text statement through SQLAlchemy's ``AsyncConnection.scalar``;
- ``asyncpg``: ``app.games.one_statement.write`` on the asyncpg connection under SQLAlchemy's;
  both on one connection checked out for the whole round;
- ``checkout``: each write checks an autocommit connection out of SQLAlchemy's pool and back
  (what a command did until 2026-12-03);
- ``pool``: each write takes a connection from a plain asyncpg pool
  (``app.raw_pool``) and gives it back.

Creates a fresh PostgreSQL database, one game row, and applies ``--writes`` writes of a typical
command (version bump, state, two events, one dice draw, one command id) each way per round,
alternating the two ways round by round. Prints the process CPU and the wall time per write.

    .venv/bin/python bench/one_statement.py --writes 2000 --rounds 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from app import raw_pool  # noqa: E402
from app.db import Database  # noqa: E402
from app.games import one_statement  # noqa: E402
from app.games.models import Game  # noqa: E402
from app.migrate import upgrade_to_head  # noqa: E402
from app.models import Account, Room  # noqa: E402
from bench.serving import ADMIN, admin  # noqa: E402

STATE = {"inning": 3, "half": "top", "bases": [None, "b3", None], "hands": {
    "home": ["O1", "O2", "O3", "O4"], "away": ["D1", "D2", "D3"]}, "score": {"home": 2, "away": 1},
    "queue": [["home", "pitch"]], "log": list(range(40))}


def _args(game_id: str, version: int) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    now = datetime.now(UTC)
    seq = version * 2
    values = {"version": version + 1, "seq": seq + 2,
              "deadlines": {"home": {"at": now.isoformat()}}, "next_deadline_at": now,
              "draw_count": version + 1, "state": STATE, "hold": None}
    events = [{"game_id": game_id, "seq": seq + i, "type": "roll",
               "data": {"die": "pitch", "face": "strike", "n": i}, "private": {},
               "created_at": now.isoformat()} for i in (1, 2)]
    draws = [{"game_id": game_id, "draw_index": version, "n": 12, "value": version % 12}]
    command = [{"game_id": game_id, "actor": "server", "command_id": f"c{version}",
                "side": "home", "action": {"type": "roll"}, "response": {"result": "applied"},
                "created_at": now.isoformat()}]
    return values, [events, [], [], draws, command]


async def _sqlalchemy_write(conn: Any, game_id: str, version: int, values: dict[str, Any],
                            rows: list[list[dict[str, Any]]]) -> bool:
    """The write as it was before: the text statement through SQLAlchemy."""
    params: dict[str, Any] = {"w_id": game_id, "w_version": version}
    for column in one_statement.UPDATED:
        value = values[column]
        params[column] = value if column in ("version", "seq", "draw_count") else (
            value if isinstance(value, datetime) or value is None else one_statement._json(value))
    for index, table_rows in enumerate(rows):
        if table_rows:
            params[f"rows{index}"] = one_statement._json(table_rows)
    shape = tuple(bool(r) for r in rows)
    return bool(await conn.scalar(one_statement.statement(False, shape), params) == 1)


async def _driver(conn: Any) -> Any:
    """The asyncpg connection under a SQLAlchemy one."""
    return (await conn.get_raw_connection()).driver_connection


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    name = f"bob_bench_{secrets.token_hex(4)}"
    await admin(f'CREATE DATABASE "{name}"')
    url = ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{name}"
    try:
        await asyncio.to_thread(upgrade_to_head, url)
        db = Database(url)
        engine = db.engine.execution_options(isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(insert(Account).values(id="a", name="a", name_key="a"))
            await conn.execute(insert(Room).values(
                id="r", kind="base-on-board", options={}, teams={}, timers={}, invites={},
                created_by="a"))
            await conn.execute(insert(Game).values(
                id="g", room_id="r", kind="base-on-board", options={}, state=STATE, version=1,
                seed="0" * 64, seed_hash="0" * 64, deadlines={}))
        pool = raw_pool.RawPool(url, size=4)
        version = 1
        ways = ("sqlalchemy", "asyncpg", "checkout", "pool")
        results: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
        async with engine.connect() as conn, pool.acquire():  # both pools warm
            pass
        for _round in range(args.rounds):
            for way in ways:
                async with engine.connect() as conn:
                    cpu, wall = time.process_time(), time.perf_counter()
                    for _ in range(args.writes):
                        values, rows = _args("g", version)
                        if way == "sqlalchemy":
                            moved = await _sqlalchemy_write(conn, "g", version, values, rows)
                        elif way == "asyncpg":
                            moved = await one_statement.write(await _driver(conn), "g", version,
                                                              values, None, rows)
                        elif way == "checkout":
                            async with engine.connect() as own:
                                moved = await one_statement.write(await _driver(own), "g",
                                                                  version, values, None, rows)
                        else:
                            async with pool.acquire() as raw:
                                moved = await one_statement.write(raw, "g", version, values,
                                                                  None, rows)
                        assert moved
                        version += 1
                    results[way].append(((time.process_time() - cpu) / args.writes * 1e3,
                                         (time.perf_counter() - wall) / args.writes * 1e3))
        await pool.close()
        await db.dispose()
    finally:
        await admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    out: dict[str, Any] = {"writes_per_round": args.writes, "rounds": args.rounds}
    for way, runs in results.items():
        out[way] = {"cpu_ms_per_write": [round(c, 4) for c, _ in runs],
                    "wall_ms_per_write": [round(w, 4) for _, w in runs],
                    "cpu_ms_median": round(statistics.median(c for c, _ in runs), 4),
                    "wall_ms_median": round(statistics.median(w for _, w in runs), 4)}
    for new, old in (("asyncpg", "sqlalchemy"), ("pool", "checkout")):
        for figure in ("cpu", "wall"):
            out[f"{figure}_ratio_{new}_over_{old}"] = round(
                out[new][f"{figure}_ms_median"] / out[old][f"{figure}_ms_median"], 3)
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
