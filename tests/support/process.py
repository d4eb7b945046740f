"""``bob serve`` as a real process on a free loopback port: for tests that need the server out
of the test's own interpreter (timing, several processes, kill -9)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
TEST_LIMITS = {
    f"LIMIT_{rule}": "100000/minute"
    for rule in ("LOGIN_ADDRESS", "LOGIN_ACCOUNT", "REGISTER_ADDRESS", "GUEST_ADDRESS",
                 "ROOMS_ADDRESS")
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    def __init__(self, database_url: str, log: Path | None = None, **environment: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ, **TEST_LIMITS, "DATABASE_URL": database_url,
            "PUBLIC_URL": self.url, "ANALYSIS_REFRESH_SECONDS": "0", **environment,
        }
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self._out: IO[bytes] | None = None

    def start(self, timeout: float = 30) -> ServerProcess:
        self._out = open(self.log, "ab") if self.log else None  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)], cwd=ROOT,
            env=self.env, stdout=self._out or subprocess.DEVNULL,
            stderr=subprocess.STDOUT if self._out else subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1)
                return self
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("bob serve did not come up") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """kill -9: no shutdown, no goodbye to anyone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._out is not None:
            self._out.close()
            self._out = None
