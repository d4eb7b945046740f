"""Operations: the migrations match the models on both databases; /healthz tells a dead
database from a live one."""

from __future__ import annotations

import threading

import httpx
from alembic import command

from app.engine_catalog import EngineCatalog
from app.migrate import alembic_config
from tests.support.live import LiveServer


def test_migrations_match_the_models(database_url: str) -> None:
    """Autogenerate finds nothing to add: the migration creates exactly the models' schema."""
    errors: list[BaseException] = []

    def check() -> None:
        try:
            command.check(alembic_config(database_url))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=check)
    thread.start()
    thread.join()
    assert errors == []


async def test_healthz_reports_a_dead_database(catalog: EngineCatalog) -> None:
    server = LiveServer("sqlite+aiosqlite:////nonexistent-dir/nope/bob.sqlite3", catalog,
                        run_timers=False).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            response = await http.get("/healthz")
        assert response.status_code == 503
        assert response.json()["status"] == "unavailable"
    finally:
        server.stop()
