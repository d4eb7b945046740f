"""Real servers on real sockets: uvicorn on a free 127.0.0.1 port in a background thread.

Each server gets its own settings and engine catalog; stopping one and starting another on the
same database is how the tests restart the server mid-game.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from app.engine_catalog import EngineCatalog
from app.main import create_app
from app.settings import Settings

GENEROUS_LIMITS = {
    f"limit_{rule}": "100000/minute"
    for rule in ("login_address", "login_account", "register_address", "guest_address",
                 "rooms_address", "redeem_address", "redeem_account",
                 "play_now_address")
}
"""Every test client is 127.0.0.1: the shared servers must not throttle the whole suite (the
throttling tests start servers with real limits)."""


class LiveServer:
    def __init__(self, database_url: str, catalog: EngineCatalog, run_timers: bool = True,
                 **overrides: Any) -> None:
        self.database_url = database_url
        self.catalog = catalog
        self.run_timers = run_timers
        self.overrides = overrides
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    def start(self) -> LiveServer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        values: dict[str, Any] = {
            "database_url": self.database_url, "public_url": self.url,
            "ws_rate_per_second": 500.0, "ws_rate_burst": 500,
            "presence_heartbeat_seconds": 0.2, "timer_tick_seconds": 0.05,
            "analysis_refresh_seconds": 0, **GENEROUS_LIMITS,
            **self.overrides,
        }
        settings = Settings(**values)
        app = create_app(settings, self.catalog, run_timers=self.run_timers)
        config = uvicorn.Config(
            app, log_level="warning", ws_max_size=settings.ws_hard_limit_bytes, lifespan="on",
            ws_per_message_deflate=settings.ws_compression,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(20)
            self._server = None
