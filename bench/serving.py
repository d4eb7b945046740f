"""What the server benchmarks share: the admin PostgreSQL connection and a `bob serve` process.

The server runs as its own process on a free loopback port, so the benchmark's clients do not
share its event loop; it is ready once ``/healthz`` answers and is stopped on the way out.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
ADMIN = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
LOAD_LIMITS = {
    f"LIMIT_{rule}": "1000000/minute"
    for rule in ("LOGIN_ADDRESS", "LOGIN_ACCOUNT", "REGISTER_ADDRESS", "GUEST_ADDRESS",
                 "ROOMS_ADDRESS")
}
"""Every benchmark client is 127.0.0.1: the per-address throttles would stop the load."""


async def admin(sql: str) -> None:
    """Runs one statement on the admin database (CREATE / DROP DATABASE)."""
    connection = await asyncpg.connect(ADMIN)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served_process(
    database_url: str, log: Path | None = None, **environment: str
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``bob serve`` on ``database_url``; yields its base URL and its process once it answers
    ``/healthz`` (the process, to read its CPU time from ``/proc``). Its output goes to ``log``
    when given, otherwise nowhere."""
    port = free_port()
    env = {**os.environ, **LOAD_LIMITS, "DATABASE_URL": database_url, **environment}
    out = open(log, "wb") if log is not None else None  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
        stdout=out or subprocess.DEVNULL, stderr=subprocess.STDOUT if out else subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("bob serve did not come up") from None
                time.sleep(0.1)
        yield base, server
    finally:
        server.terminate()
        server.wait(10)
        if out is not None:
            out.close()


@contextmanager
def served(database_url: str, **environment: str) -> Iterator[str]:
    """``bob serve`` on ``database_url``; yields its base URL once it answers ``/healthz``."""
    with served_process(database_url, None, **environment) as (base, _):
        yield base
