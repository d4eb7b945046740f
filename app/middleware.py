"""ASGI middleware at the edge: addresses whose path or query hold text no handler may see.

Request bodies are checked by :class:`app.validation.ApiModel`; a path or query parameter is a
plain ``str`` by the time a handler sees it, so a NUL there (``%00``) would reach the database
(asyncpg refuses it: a 500). This turns it into a 422 in the JSON error shape, and a WebSocket
handshake with one into a refusal (HTTP 403) before any handler runs.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import orjson

from app.errors import error_body
from app.validation import BadText, check_text

Scope = dict[str, Any]


def _bad_address(scope: Scope) -> str | None:
    try:
        check_text(scope.get("path", ""))
        query = scope.get("query_string", b"").decode("latin-1")
        for key, value in parse_qsl(query, keep_blank_values=True):
            check_text(key)
            check_text(value)
    except BadText as problem:
        return str(problem)
    return None


class RejectBadText:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            problem = _bad_address(scope)
            if problem is not None:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": "bad_text"})
                    return
                body = orjson.dumps(error_body("bad_text", problem))
                await send({"type": "http.response.start", "status": 422, "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
