"""Several ``bob serve`` processes on one database and one Redis, behind a real nginx: the
production shape on loopback ports (deploy/nginx.conf.template, filled in by bench/nginx.py)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

from bench.nginx import Nginx
from tests.support.process import ServerProcess, free_port


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
        self._nginx: Nginx | None = None

    def start(self) -> Cluster:
        """Every server, then the proxy; on any failure (a server that does not come up, no
        nginx on the machine) whatever did start is stopped, so no server outlives the test."""
        try:
            for server in self.servers:
                server.env["PUBLIC_URL"] = self.url
                server.start()
            self._nginx = Nginx(self.dir, [s.port for s in self.servers], self.port)
            self._nginx.start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self._nginx is not None:
            self._nginx.stop()
        for server in self.servers:
            server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
