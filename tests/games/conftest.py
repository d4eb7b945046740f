"""What the Redis-backed tests of this folder share: the server to use, or a skip (a failure in
CI, where Redis must be up)."""

from __future__ import annotations

import os

import pytest
import redis

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_url() -> str:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis unreachable in CI: {exc}")
        pytest.skip(f"Redis unreachable: {exc}")
    return REDIS_URL
