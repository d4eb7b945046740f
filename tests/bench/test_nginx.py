"""The benchmark's and the cluster tests' nginx configuration (bench/nginx.py), rendered from
the production template, and the sizing bench/server.py gives it and each process's pool; and
the command line of each served process under ``BENCH_PROFILE``."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.nginx import NGINX, TEMPLATE, TEMPLATE_WORKER_CONNECTIONS, connections_for, render_config
from bench.server import latency_goal, pool_size


def test_the_template_filled_in(tmp_path: Path) -> None:
    config = render_config(TEMPLATE.read_text(), tmp_path, [8101, 8102], 8100)
    body = "\n".join(line for line in config.splitlines() if not line.startswith("#"))
    assert not re.search(r"@[A-Z]+@", body)  # no placeholder left
    assert f"pid {tmp_path}/nginx.pid;" in config
    assert "listen 127.0.0.1:8100;" in config
    assert config.count("max_fails=1 fail_timeout=3s;") == 2
    assert "server 127.0.0.1:8101 " in config and "server 127.0.0.1:8102 " in config
    assert "hash $room_key consistent;" in config  # a room's requests go to one process
    assert f"worker_connections {TEMPLATE_WORKER_CONNECTIONS};" in config
    assert "worker_rlimit_nofile" not in config


def test_more_connections_and_descriptors(tmp_path: Path) -> None:
    config = render_config(TEMPLATE.read_text(), tmp_path, [8101], 8100,
                           worker_connections=13024, rlimit_nofile=13280)
    assert "worker_connections 13024;" in config and "8192" not in config
    lines = config.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("worker_processes"))
    assert lines[at + 1] == "worker_rlimit_nofile 13280;"  # main context, not in a block


def test_no_upstream_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        render_config(TEMPLATE.read_text(), tmp_path, [], 8100)


def test_connections_sized_to_the_sockets() -> None:
    assert connections_for(100, 20000) == (TEMPLATE_WORKER_CONNECTIONS, 8448)
    # 1,000 games of 2 players, 3 spectators and one HTTP client: two connections each
    assert connections_for(6000, 20000) == (13024, 13280)
    # never more descriptors than the hard limit allows, with room for nginx's own files
    assert connections_for(20000, 20000) == (19744, 20000)


def test_pools_fit_the_database() -> None:
    assert pool_size(1, 100) == 20  # the default, as one process has it
    assert pool_size(2, 100) == 20
    assert pool_size(4, 100) == 10  # 4 × (10 + 10 burst) = 80, 20 left
    assert pool_size(50, 100) == 2


def test_latency_goal() -> None:
    assert latency_goal({"p99": 50.0}) is True
    assert latency_goal({"p99": 50.01}) is False
    assert latency_goal({"p99": None}) is None and latency_goal(None) is None


@pytest.mark.skipif(shutil.which("nginx") is None and not Path(NGINX).exists(),
                    reason="nginx is not installed")
def test_nginx_accepts_the_rendered_config(tmp_path: Path) -> None:
    path = tmp_path / "nginx.conf"
    path.write_text(render_config(TEMPLATE.read_text(), tmp_path, [8101, 8102], 8100,
                                  worker_connections=13024, rlimit_nofile=13280))
    checked = subprocess.run([NGINX, "-t", "-c", str(path), "-p", str(tmp_path)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_each_profiled_process_writes_its_own_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.serving import serve_command

    monkeypatch.delenv("BENCH_PROFILE", raising=False)
    assert serve_command(8101)[1:] == ["-m", "app.cli", "serve", "--port", "8101"]
    monkeypatch.setenv("BENCH_PROFILE", "/tmp/cmd.prof")
    first, second = serve_command(8101, ".0"), serve_command(8102, ".1")
    assert first[1].endswith("bench/profiled.py") and first[2] == "/tmp/cmd.prof.0"
    assert second[2] == "/tmp/cmd.prof.1" and second[-1] == "8102"
    assert serve_command(8101)[2] == "/tmp/cmd.prof"  # one process: the path as given
