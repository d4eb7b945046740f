"""A table's HTTP client gives up an idle connection before the server would close it."""

from __future__ import annotations

import asyncio

import uvicorn

from app.bots.client import KEEPALIVE_EXPIRY_SECONDS, table_http

RESPONSE = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: text/plain\r\n\r\nok"


async def test_an_idle_connection_is_not_reused_past_its_expiry() -> None:
    assert uvicorn.Config("app.main:app").timeout_keep_alive > KEEPALIVE_EXPIRY_SECONDS
    connections = 0

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        while await reader.readuntil(b"\r\n\r\n"):  # keep-alive: every request on it
            writer.write(RESPONSE)
            await writer.drain()

    async def serve_until_closed(reader: asyncio.StreamReader,
                                 writer: asyncio.StreamWriter) -> None:
        try:
            await answer(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    server = await asyncio.start_server(serve_until_closed, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with table_http(f"http://127.0.0.1:{port}") as http:
            assert (await http.get("/")).text == "ok"
            assert (await http.get("/")).text == "ok"
            assert connections == 1  # reused while fresh
            await asyncio.sleep(KEEPALIVE_EXPIRY_SECONDS + 0.3)
            assert (await http.get("/")).text == "ok"
            assert connections == 2  # idle too long: a new connection, not the old one
    finally:
        server.close()
        await server.wait_closed()
