"""Throttling: request rules with the ``limits`` library (moving windows per account and per
address, shared by every process through Redis), and a plain in-memory token bucket for what
one process paces by itself (a socket's messages, a side's race rolls).

Sign-in, registration, new guest accounts, new rooms and redeeming activation codes each have
a rule (``LIMIT_*`` settings, in ``limits``' notation such as ``20/minute``). The counters live
in Redis when ``REDIS_URL`` is set, so every process counts together, and in memory otherwise.
A request over a rule is refused with ``429 rate_limited`` and ``Retry-After`` (seconds until
the window has room), and does nothing.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from app.errors import ApiError

log = logging.getLogger(__name__)


class Throttle:
    def __init__(self, redis_url: str | None = None, prefix: str = "bob-limits") -> None:
        storage: Storage = (
            RedisStorage(_redis_uri(redis_url), implementation="redispy", key_prefix=prefix)
            if redis_url else MemoryStorage()
        )
        self._limiter = MovingWindowRateLimiter(storage)
        self._rules: dict[str, RateLimitItem] = {}

    def _rule(self, rule: str) -> RateLimitItem:
        item = self._rules.get(rule)
        if item is None:
            item = self._rules[rule] = parse(rule)
        return item

    async def hit(self, rule: str, name: str, key: str) -> None:
        """Counts one request against ``rule`` for ``key`` (``name`` says what is counted:
        ``login-address``, ``guest-address``...); raises 429 when the window is full."""
        item = self._rule(rule)
        if not await self._ask(self._limiter.hit, item, name, key):
            raise await self._refusal(item, name, key)

    async def check(self, rule: str, name: str, key: str) -> None:
        """Raises 429 when ``rule`` has no room for ``key``, without counting a request (for
        rules that count only failures: :meth:`hit` them when one happens)."""
        item = self._rule(rule)
        if not await self._ask(self._limiter.test, item, name, key):
            raise await self._refusal(item, name, key)

    async def _ask(self, how: Any, item: RateLimitItem, name: str, key: str) -> bool:
        """The limiter's answer; ``True`` (let it through) when its storage does not answer:
        with Redis away, signing in must not stop too. Logged, so it is seen."""
        try:
            return bool(await how(item, name, key))
        except Exception as exc:
            log.warning("throttle storage unavailable, letting %s through: %r", name, exc)
            return True

    async def _refusal(self, item: RateLimitItem, name: str, key: str) -> ApiError:
        stats = await self._limiter.get_window_stats(item, name, key)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        return ApiError(
            "rate_limited", f"too many requests ({item}); try again in {wait} s", 429,
            {"Retry-After": str(wait)},
        )


def _redis_uri(url: str) -> str:
    """``limits`` names its async Redis storage ``async+redis://``."""
    return url if url.startswith("async+") else f"async+{url}"


class TokenBucket:
    """``rate`` takes a second with bursts up to ``burst``; in memory, for one holder."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
