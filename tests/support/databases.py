"""Test databases: a fresh SQLite file, or a fresh PostgreSQL database created and dropped.

``TEST_DATABASE`` chooses: ``sqlite``, ``postgres`` or ``both`` (the default). PostgreSQL is
found at ``TEST_POSTGRES_URL`` (default: the local server, trust auth, user postgres). When it is
unreachable the PostgreSQL tests are skipped, except under ``CI=true`` where that is a failure.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from app.migrate import upgrade_to_head

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"


def backends() -> list[str]:
    chosen = os.environ.get("TEST_DATABASE", "both")
    return ["sqlite", "postgres"] if chosen == "both" else [chosen]


def _in_thread(fn: Callable[[], Any]) -> Any:
    """Runs ``fn`` (which may call ``asyncio.run``) away from any running event loop."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _admin_dsn() -> str:
    url = os.environ.get("TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(_admin_dsn(), timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@contextmanager
def sqlite_database(directory: Path) -> Iterator[str]:
    url = f"sqlite+aiosqlite:///{directory / 'bob.sqlite3'}"
    _in_thread(lambda: upgrade_to_head(url))
    yield url


@contextmanager
def postgres_database() -> Iterator[str]:
    try:
        _in_thread(lambda: asyncio.run(_admin("SELECT 1")))
    except Exception as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL unreachable in CI: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    name = f"bob_test_{secrets.token_hex(6)}"
    _in_thread(lambda: asyncio.run(_admin(f'CREATE DATABASE "{name}"')))
    base = os.environ.get("TEST_POSTGRES_URL", DEFAULT_POSTGRES).rsplit("/", 1)[0]
    url = f"{base}/{name}"
    try:
        _in_thread(lambda: upgrade_to_head(url))
        yield url
    finally:
        _in_thread(lambda: asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
