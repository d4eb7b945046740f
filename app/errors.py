"""One error shape for REST and WebSocket: a stable ``code`` for programs, words for people.

Every REST answer that is not a success has the body ``{"error": {"code", "message"}}``: the
server's own refusals (:class:`ApiError`), requests the schema does not allow (422
``invalid_request``), unknown routes and methods, a database that does not answer (503
``unavailable`` with ``Retry-After``) and bugs (500 ``internal``).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from app.db import UNAVAILABLE_ERRORS, is_unavailable

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5
"""What a 503 tells the client to wait before trying again."""


class ApiError(Exception):
    """Raised by services; REST turns it into ``{"error": {"code", "message"}}`` with ``status``,
    the WebSocket into ``{"type": "error", "code", "message"}`` on that socket only."""

    def __init__(
        self, code: str, message: str, status: int = 400, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.headers = headers


def unavailable() -> ApiError:
    return ApiError(
        "unavailable", "the database is not answering; try again shortly", 503,
        {"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


async def api_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(
        status_code=exc.status, content=error_body(exc.code, exc.message), headers=exc.headers
    )


def _printable(part: Any) -> str | int:
    """A location part safe to encode (a forged key may hold a surrogate)."""
    if isinstance(part, int):
        return part
    return str(part).encode("utf-8", "backslashreplace").decode("utf-8")


async def validation_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    fields = [
        {"loc": [_printable(p) for p in error.get("loc", ())],
         "message": _printable(error.get("msg", "invalid"))}
        for error in exc.errors()[:20]
    ]
    first: dict[str, Any] = fields[0] if fields else {"loc": [], "message": "invalid request"}
    where = ".".join(str(p) for p in first["loc"])
    return JSONResponse(
        status_code=422,
        content=error_body("invalid_request", f"{where}: {first['message']}", fields=fields),
    )


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


async def http_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    return JSONResponse(
        status_code=exc.status_code, content=error_body(code, str(exc.detail)),
        headers=getattr(exc, "headers", None),
    )


async def unexpected_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """A database that does not answer is a 503 the client may retry; anything else is a bug,
    logged, and answered 500 in the same shape.

    Registered for the database's exception classes (handled where they are raised, so the
    connection stays open) and for ``Exception`` as the last resort (Starlette re-raises
    those after answering, and uvicorn then closes the connection)."""
    if is_unavailable(exc):
        log.warning("database unavailable during %s %s: %r", request.method, request.url.path,
                    exc)
        return await api_error_handler(request, unavailable())
    log.error("unhandled error during %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        status_code=500, content=error_body("internal", "the server failed; try again")
    )


DATABASE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError, *UNAVAILABLE_ERRORS)
"""What the database layer raises: answered by :func:`unexpected_error_handler`."""
