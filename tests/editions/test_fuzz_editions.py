"""The editions routes fuzzed from the OpenAPI document as a registered account (the suite's
REST fuzzer signs in as a guest, which every redeem refuses before reading the code)."""

from __future__ import annotations

import asyncio

import httpx
import schemathesis

from tests.editions.test_editions import register
from tests.support.live import LiveServer
from tests.test_fuzz_rest import _fuzz


async def test_no_input_breaks_the_editions_routes(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        token = await register(http)
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    mine = [op for op in operations if op.path.startswith("/api/editions/")]
    assert {(op.method.upper(), op.path) for op in mine} == {
        ("POST", "/api/editions/redeem"), ("GET", "/api/editions/mine")}
    for operation in mine:
        await asyncio.to_thread(_fuzz, operation, live, token, {})
