"""Several ``bob serve`` processes on one database and one Redis, behind a real nginx: the
production shape on loopback ports (deploy/nginx.conf.template)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from tests.support.process import ROOT, ServerProcess, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"


class Cluster:
    def __init__(self, database_url: str, processes: int = 2, **environment: str) -> None:
        self.prefix = f"bob-test-{uuid.uuid4().hex[:8]}:"
        self.dir = Path(tempfile.mkdtemp(prefix="bob_cluster_"))
        env = {
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "REDIS_CHANNEL_PREFIX": f"{self.prefix}room:",
            "REDIS_NOTICE_CHANNEL": f"{self.prefix}notices",
            "REDIS_LEASE_PREFIX": self.prefix, "ROOM_LEASE_SECONDS": "2",
            "TIMER_TICK_SECONDS": "0.05", "PRESENCE_HEARTBEAT_SECONDS": "0.5",
            "WS_HEARTBEAT_SECONDS": "1", "WS_RATE_PER_SECOND": "500", "WS_RATE_BURST": "500",
            **environment,
        }
        self.servers = [
            ServerProcess(database_url, log=self.dir / f"server{i}.log", **env)
            for i in range(processes)
        ]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._nginx: subprocess.Popen[bytes] | None = None

    def start(self) -> Cluster:
        for server in self.servers:
            server.env["PUBLIC_URL"] = self.url
            server.start()
        upstreams = "\n".join(
            f"        server 127.0.0.1:{s.port} max_fails=1 fail_timeout=3s;"
            for s in self.servers
        )
        config = (TEMPLATE.read_text().replace("@DIR@", str(self.dir))
                  .replace("@UPSTREAMS@", upstreams)
                  .replace("@LISTEN@", f"127.0.0.1:{self.port}"))
        path = self.dir / "nginx.conf"
        path.write_text(config)
        self._nginx = subprocess.Popen(
            [NGINX, "-c", str(path), "-p", str(self.dir), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "nginx.out", "wb"),  # noqa: SIM115
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return self
            except OSError:
                if time.monotonic() > deadline or self._nginx.poll() is not None:
                    self.stop()
                    raise RuntimeError("nginx did not start: "
                                       + (self.dir / "nginx.out").read_text()) from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self._nginx is not None and self._nginx.poll() is None:
            self._nginx.terminate()
            self._nginx.wait(10)
        for server in self.servers:
            server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
