"""Shared fixtures: one migrated database and one live server per backend for the session."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator

import pytest
import redis

from app.engine_catalog import EngineCatalog
from app.engines.registry import computer_policies
from tests.support.databases import backends, postgres_database, sqlite_database
from tests.support.dice_duel import KIND, DiceDuel
from tests.support.live import LiveServer
from tests.support.verify import assert_played_games_rebuild


def real_engines() -> dict[str, str]:
    """Real engines that import cleanly right now (they are written alongside the server)."""
    found = {}
    for kind, module in (("base-on-board", "app.engines.base_on_board"),
                         ("bottom-of-the-9th", "app.engines.bottom_of_the_ninth")):
        try:
            importlib.import_module(module).Engine  # noqa: B018
        except Exception:
            continue
        found[kind] = module
    return found


def test_catalog() -> EngineCatalog:
    makers = {KIND: DiceDuel}
    for kind, module in real_engines().items():
        makers[kind] = importlib.import_module(module).Engine
    policies = {kind: computer_policies(kind) for kind in makers}
    return EngineCatalog(makers, policies)  # type: ignore[arg-type]


@pytest.fixture(scope="session", params=backends())
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[str]:
    """The suite's shared database of one backend. Before it is dropped, every game the
    tests played in it is rebuilt from its commands and seed and must match (issue 11)."""
    if request.param == "sqlite":
        with sqlite_database(tmp_path_factory.mktemp("sqlite")) as url:
            yield url
            assert_played_games_rebuild(url, test_catalog())
    else:
        with postgres_database() as url:
            yield url
            assert_played_games_rebuild(url, test_catalog())


@pytest.fixture
def fresh_database_url(database_url: str, tmp_path_factory: pytest.TempPathFactory
                       ) -> Iterator[str]:
    """A database of the same backend as ``database_url`` that only this test's servers use:
    the suite's shared server (``live``) runs timers on the shared one, and a test that
    restarts its own servers must not have them act on its games meanwhile."""
    if database_url.startswith("sqlite"):
        with sqlite_database(tmp_path_factory.mktemp("sqlite")) as url:
            yield url
            assert_played_games_rebuild(url, test_catalog())
    else:
        with postgres_database() as url:
            yield url
            assert_played_games_rebuild(url, test_catalog())


@pytest.fixture(scope="session")
def catalog() -> EngineCatalog:
    return test_catalog()


@pytest.fixture(scope="session")
def live(database_url: str, catalog: EngineCatalog) -> Iterator[LiveServer]:
    server = LiveServer(database_url, catalog).start()
    yield server
    server.stop()


REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_url() -> str:
    """The Redis server the Redis-backed tests use, or a skip (a failure in CI, where Redis
    must be up)."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis unreachable in CI: {exc}")
        pytest.skip(f"Redis unreachable: {exc}")
    return REDIS_URL
