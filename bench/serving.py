"""What the server benchmarks share: the admin PostgreSQL connection, a server process on a free
loopback port, load-client processes, the readings from ``/proc`` and the merge of samples.

The server runs as its own process on a free loopback port, so the benchmark's clients do not
share its event loop; it is ready once ``/healthz`` answers and is stopped on the way out.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

import asyncpg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots.run import percentile  # noqa: E402

ADMIN = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
LOAD_LIMITS = {
    f"LIMIT_{rule}": "1000000/minute"
    for rule in ("LOGIN_ADDRESS", "LOGIN_ACCOUNT", "REGISTER_ADDRESS", "GUEST_ADDRESS",
                 "ROOMS_ADDRESS")
}
"""Every benchmark client is 127.0.0.1: the per-address throttles would stop the load."""
NO_ANALYSIS = {"ANALYSIS_REFRESH_SECONDS": "0"}
"""A server started on a fresh database runs ``bob analysis refresh`` at once, as a child
process, and there it has every simulated baseline to compute: about 24 s of a core, during
the load's arrival (``app/stats/refresher.py``). A server of a real site has them already and
recomputes only what finished games changed. Off unless the caller's environment sets it, so
that a run can measure it (``ANALYSIS_REFRESH_SECONDS=900``)."""


def server_environment(database_url: str, **environment: str) -> dict[str, str]:
    """The environment of a ``bob serve`` under load on ``database_url``."""
    return {**NO_ANALYSIS, **os.environ, **LOAD_LIMITS, "DATABASE_URL": database_url,
            **environment}


TICK = os.sysconf("SC_CLK_TCK")


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
def server_process(
    command: list[str], port: int, log: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Runs ``command`` (a server listening on 127.0.0.1:``port``); yields its base URL and its
    process once it answers ``/healthz``, and stops it on the way out. Its output goes to
    ``log`` when given, otherwise nowhere."""
    out = open(log, "wb") if log is not None else None  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        command, cwd=ROOT, env=env,
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
                    raise RuntimeError(f"{command} did not come up") from None
                time.sleep(0.1)
        yield base, server
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # still closing thousands of sockets: enough
            server.kill()
            server.wait(10)
        if out is not None:
            out.close()


def serve_command(port: int, profile_suffix: str = "") -> list[str]:
    """The command line of one ``bob serve`` on ``port``: under ``bench/profiled.py``, writing
    to ``BENCH_PROFILE`` + ``profile_suffix``, when ``BENCH_PROFILE`` is set, or under
    ``bench/stalls.py``, writing to ``BENCH_STALLS`` + ``profile_suffix``, when that is, or
    under ``bench/cpu_sampled.py``, writing to ``BENCH_SAMPLES`` + ``profile_suffix``, when that
    is, or under ``bench/task_cpu.py``, writing to ``BENCH_TASKS`` + ``profile_suffix``."""
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    for variable, wrapper in (("BENCH_PROFILE", "profiled.py"), ("BENCH_STALLS", "stalls.py"),
                              ("BENCH_SAMPLES", "cpu_sampled.py"), ("BENCH_TASKS", "task_cpu.py")):
        if os.environ.get(variable):
            out = os.environ[variable] + profile_suffix
            command[1:1] = [str(ROOT / "bench" / wrapper), out]
            break
    return command


@contextmanager
def served_process(
    database_url: str, log: Path | None = None, profile_suffix: str = "", **environment: str
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``bob serve`` on ``database_url``; yields its base URL and its process once it answers
    ``/healthz`` (the process, to read its CPU time from ``/proc``). With ``BENCH_PROFILE``
    set to a path, the server runs under cProfile (``bench/profiled.py``) and writes its
    profile there, plus ``profile_suffix`` (one per process of a run), when it is stopped."""
    port = free_port()
    command = serve_command(port, profile_suffix)
    with server_process(command, port, log, server_environment(database_url, **environment)
                        ) as served:
        yield served


@contextmanager
def served(database_url: str, **environment: str) -> Iterator[str]:
    """``bob serve`` on ``database_url``; yields its base URL once it answers ``/healthz``."""
    with served_process(database_url, None, **environment) as (base, _):
        yield base


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, from ``/proc/<pid>/stat``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state is fields[0]
    return (int(fields[11]) + int(fields[12])) / TICK


def children_of(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (from ``/proc/<pid>/task/*/children``)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with open(task / "children") as children:
                found += [int(child) for child in children.read().split()]
    except OSError:
        pass
    return found


def tree_cpu(pid: int) -> float | None:
    """CPU seconds used so far by a process and its live children (an nginx master and its
    workers); None once the process is gone."""
    own = process_cpu(pid)
    if own is None:
        return None
    return own + sum(process_cpu(child) or 0.0 for child in children_of(pid))


def process_rss_kb(pid: int) -> int | None:
    """A process's resident set size in KiB (``VmRSS`` in ``/proc/<pid>/status``)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


class PeriodicSampler:
    """Calls :meth:`sample` every ``interval`` seconds in a thread, from entering ``with`` to
    leaving it, so that a reading over a run can later be cut to its steady part."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        raise NotImplementedError

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


class RssSampler(PeriodicSampler):
    """Samples a process's RSS every ``interval`` seconds in a thread: (wall-clock time, KiB),
    and its CPU seconds so far (``cpu``: (time, seconds)), so that the steady part's CPU can be
    told from the whole run's, which includes the tables' arrival."""

    def __init__(self, pid: int, interval: float = 0.5) -> None:
        super().__init__(interval)
        self.pid = pid
        self.samples: list[tuple[float, int]] = []
        self.cpu: list[tuple[float, float]] = []

    def sample(self) -> None:
        rss, cpu, now = process_rss_kb(self.pid), process_cpu(self.pid), time.time()
        if rss is not None:
            self.samples.append((now, rss))
        if cpu is not None:
            self.cpu.append((now, cpu))

    def median_between(self, start: float, end: float) -> float | None:
        inside = [kb for t, kb in self.samples if start <= t <= end]
        return statistics.median(inside) if inside else None

    def core_share_between(self, start: float, end: float) -> float | None:
        """CPU seconds a second between the first and last samples inside (start, end)."""
        inside = [(t, cpu) for t, cpu in self.cpu if start <= t <= end]
        if len(inside) < 2 or inside[-1][0] - inside[0][0] < 1.0:
            return None
        return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])


def postgres_cpu() -> float:
    """CPU seconds used so far by every process named ``postgres`` on this machine (backends
    that exit in between are missed; other databases' work on the same server is counted)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
        except OSError:
            continue
        total += process_cpu(int(entry.name)) or 0.0
    return total


def machine_cpu() -> tuple[int, int]:
    """(busy, total) jiffies over all CPUs, from ``/proc/stat``."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def split(games: int, processes: int) -> list[int]:
    """``games`` split as evenly as possible over ``processes`` (none empty)."""
    processes = max(1, min(processes, games))
    return [games // processes + (1 if i < games % processes else 0) for i in range(processes)]


def run_load_processes(commands: list[tuple[list[str], Path]]
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Starts the load clients (each a command that prints one JSON summary line and writes its
    raw samples to its path), waits for them; returns their summaries and samples."""
    running = [(subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE), samples)
               for command, samples in commands]
    summaries, samples_list = [], []
    for process, samples in running:
        out, _ = process.communicate()
        try:
            summaries.append(json.loads(out))
            samples_list.append(json.loads(samples.read_text()))
        except (ValueError, OSError) as exc:
            summaries.append({"failures": [f"load process {process.pid} exited "
                                           f"{process.returncode} without results: {exc}"],
                              "finished": 0, "commands": 0})
    return summaries, samples_list


def per(total: float | None, count: int | float | None, scale: float = 1.0,
        digits: int = 2) -> float | None:
    """``total * scale / count``, rounded, or None when either is missing or zero."""
    return round(total * scale / count, digits) if total is not None and count else None


def latency_summary(values: list[float]) -> dict[str, Any]:
    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 2)

    return {
        "p50": rounded(percentile(values, 0.50)), "p99": rounded(percentile(values, 0.99)),
        "p99.9": rounded(percentile(values, 0.999)), "max": rounded(max(values, default=None)),
        "mean": rounded(statistics.fmean(values)) if values else None, "samples": len(values),
    }


def steady_window(samples: list[dict[str, Any]],
                  settle: float = 0.0) -> tuple[float, float] | None:
    """Wall-clock (start, end) of the steady part: from ``settle`` seconds after the last
    table's start to the first table's end (every table live), if it lasts a second or more.

    ``settle`` leaves out the arrivals' backlog: on a slow machine the last tables' logins,
    rooms and game starts keep the loop behind for some seconds after the last one starts, and
    that is the ramp's cost, not what a process holding every game pays."""
    tables = [span for s in samples for span in s["tables"]]
    if not tables:
        return None
    start, end = max(a for a, _ in tables) + settle, min(b for _, b in tables)
    return (start, end) if end - start >= 1.0 else None


def merge(summaries: list[dict[str, Any]], samples: list[dict[str, Any]],
          settle: float = 0.0) -> dict[str, Any]:
    """One result from every load process: latency over all samples, commands/s over the whole
    run and over the steady part (every table started, none finished yet, from ``settle``
    seconds after the last start)."""
    latencies = [ms for s in samples for ms in s["latency_samples_ms"]]
    sent = [t for s in samples for t in s["latency_sent_at"]]
    times = sorted(t for s in samples for t in s["command_times"])
    commands = sum(s.get("commands", 0) for s in summaries)
    span = times[-1] - times[0] if len(times) > 1 else 0.0
    result: dict[str, Any] = {
        "finished": sum(s.get("finished", 0) for s in summaries),
        "commands": commands,
        "commands_per_second": round(len(times) / span, 1) if span else None,
        "latency_ms": latency_summary(latencies),
        "steady": None,
    }
    window = steady_window(samples, settle)
    if window and times:
        start, end = window
        in_window = sum(1 for t in times if start <= t <= end)
        result["steady"] = {
            # seconds after the first table started
            "from_s": round(start - min(a for s in samples for a, _ in s["tables"]), 2),
            "seconds": round(end - start, 2),
            "commands": in_window,
            "commands_per_second": round(in_window / (end - start), 1),
            "latency_ms": latency_summary(
                [ms for ms, t in zip(latencies, sent, strict=True) if start <= t <= end]
            ),
        }
    return result
