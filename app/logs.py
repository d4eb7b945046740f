"""How ``bob serve`` logs: one JSON object a line (``python-json-logger``), or plain text.

Log lines about a room or a game carry ``room_id`` / ``game_id`` as fields (``extra=``), so a
log store can follow one game across processes; every command is one line at debug level
(``LOG_LEVEL=debug``). The same configuration goes to uvicorn, so its access and error lines
are JSON too.
"""

from __future__ import annotations

from typing import Any

JSON_FORMAT = "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"


def config(level: str = "info", as_json: bool = True) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the server and uvicorn."""
    formatter: dict[str, Any] = (
        {"()": "pythonjsonlogger.json.JsonFormatter", "fmt": JSON_FORMAT,
         "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"}}
        if as_json else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "main",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "root": {"handlers": ["main"], "level": level.upper()},
        "loggers": {
            name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
