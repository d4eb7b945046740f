"""A real nginx in front of several ``bob serve`` processes on loopback ports, the production
shape (``deploy/nginx.conf.template``: a room's sockets and REST calls hashed by the room id to
one process). Shared by the multi-process tests (``tests/support/cluster.py``) and the server
benchmark (``bench/server.py --processes N``).

nginx runs as a child (``daemon off``, its own prefix directory for its pid, logs and temp
files), is ready once its port accepts a connection, and is stopped on the way out.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
TEMPLATE_WORKER_CONNECTIONS = 8192
"""What the template's ``events`` block allows; a benchmark with more sockets asks for more."""


def render_config(template: str, directory: Path, upstream_ports: Sequence[int],
                  listen_port: int, worker_connections: int | None = None,
                  rlimit_nofile: int | None = None) -> str:
    """The template filled in: its files under ``directory``, one upstream line per port (a
    process that fails once is left out for 3 s, as in production), listening on
    127.0.0.1:``listen_port``. ``worker_connections`` replaces the template's (each proxied
    socket takes two: the client's and the upstream's); ``rlimit_nofile`` adds
    ``worker_rlimit_nofile`` so the worker may open that many descriptors."""
    if not upstream_ports:
        raise ValueError("nginx needs at least one upstream")
    upstreams = "\n".join(
        f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=3s;" for port in upstream_ports
    )
    config = (template.replace("@DIR@", str(directory))
              .replace("@UPSTREAMS@", upstreams)
              .replace("@LISTEN@", f"127.0.0.1:{listen_port}"))
    if worker_connections is not None:
        config, count = re.subn(r"worker_connections\s+\d+;",
                                f"worker_connections {worker_connections};", config)
        if count != 1:
            raise ValueError("the template has no single worker_connections to replace")
    if rlimit_nofile is not None:
        config, count = re.subn(r"^(worker_processes[^;]*;)$",
                                rf"\1\nworker_rlimit_nofile {rlimit_nofile};", config,
                                flags=re.MULTILINE)
        if count != 1:
            raise ValueError("the template has no single worker_processes line")
    return config


def connections_for(sockets: int, hard_nofile: int) -> tuple[int, int]:
    """(worker_connections, worker_rlimit_nofile) for about ``sockets`` client connections at
    once: two connections each (client and upstream) plus headroom, never below the
    template's, and the descriptors within ``hard_nofile`` (what an unprivileged nginx may
    raise its limit to)."""
    wanted = max(TEMPLATE_WORKER_CONNECTIONS, 2 * sockets + 1024)
    nofile = min(hard_nofile, wanted + 256)
    return min(wanted, nofile - 256), nofile


class Nginx:
    """nginx on 127.0.0.1:``port`` in front of ``upstream_ports``, files in ``directory``."""

    def __init__(self, directory: Path, upstream_ports: Sequence[int], port: int,
                 worker_connections: int | None = None, rlimit_nofile: int | None = None
                 ) -> None:
        self.directory, self.port = directory, port
        self.url = f"http://127.0.0.1:{port}"
        self.config = render_config(TEMPLATE.read_text(), directory, upstream_ports, port,
                                    worker_connections, rlimit_nofile)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10) -> Nginx:
        path = self.directory / "nginx.conf"
        path.write_text(self.config)
        with open(self.directory / "nginx.out", "wb") as out:
            self.process = subprocess.Popen(
                [NGINX, "-c", str(path), "-p", str(self.directory), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=out,
            )
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return self
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("nginx did not start: "
                                       + (self.directory / "nginx.out").read_text()) from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def __enter__(self) -> Nginx:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
