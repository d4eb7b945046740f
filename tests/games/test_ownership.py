"""Room leases in Redis: renewed together in one round trip, lost when another process holds
them, let go when idle."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from app.games.ownership import RedisOwnership


@pytest.fixture
async def prefix(redis_url: str) -> AsyncIterator[str]:
    prefix = f"bob-test-{secrets.token_hex(4)}:"
    yield prefix
    client = Redis.from_url(redis_url)
    keys = [key async for key in client.scan_iter(match=prefix + "*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


async def test_renewal_keeps_hundreds_of_rooms_and_drops_the_ones_taken(
    redis_url: str, prefix: str
) -> None:
    first = RedisOwnership(redis_url, prefix, lease_seconds=3.0)
    second = RedisOwnership(redis_url, prefix, lease_seconds=3.0)
    raw = Redis.from_url(redis_url)
    try:
        rooms = [f"room{i}" for i in range(300)]
        for room in rooms:
            assert await first.want(room)
        assert not await second.want("room7")  # the first holds it
        await raw.pexpire(f"{prefix}owner:room0", 50)  # about to run out
        await raw.set(f"{prefix}owner:room1", second.process_id)  # taken over meanwhile
        await first.renew()
        assert first.owned() == set(rooms) - {"room1"}
        assert 2_000 < await raw.pttl(f"{prefix}owner:room0") <= 3_000  # renewed
        assert await raw.get(f"{prefix}owner:room1") == second.process_id.encode()
        assert await raw.get(f"{prefix}owner:room299") == first.process_id.encode()
    finally:
        await raw.aclose()
        await first.close()
        await second.close()


async def test_a_room_nobody_watches_is_let_go_and_a_wanted_one_is_asked_for_again(
    redis_url: str, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ownership = RedisOwnership(redis_url, prefix, lease_seconds=3.0)
    raw = Redis.from_url(redis_url)
    try:
        assert await ownership.want("kept")
        assert await ownership.want("idle")
        ownership.unwant("idle")
        monkeypatch.setattr("app.games.ownership.KEEP_AFTER_USE_SECONDS", -1.0)
        await raw.delete(f"{prefix}owner:kept")  # expired: nobody owns it now
        await ownership.renew()
        assert ownership.owned() == {"kept"}  # lost, then taken again: its socket is here
        assert await raw.get(f"{prefix}owner:idle") is None
        assert await raw.get(f"{prefix}owner:kept") == ownership.process_id.encode()
    finally:
        await raw.aclose()
        await ownership.close()
