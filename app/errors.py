"""One error shape for REST and WebSocket: a stable ``code`` for programs, words for people."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse


class ApiError(Exception):
    """Raised by services; REST turns it into ``{"error": {"code", "message"}}`` with ``status``,
    the WebSocket into ``{"type": "error", "code", "message"}`` on that socket only."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


async def api_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(
        status_code=exc.status, content={"error": {"code": exc.code, "message": exc.message}}
    )
