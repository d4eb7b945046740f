"""The server's own CPU per applied command, in process, without uvicorn and websockets (issue 12).

``bench/server.py`` measures the whole server: uvicorn's protocol, the websockets library's
framing, the system calls and ours. ``bench/task_cpu.py`` showed that a player's command spends
about 1.06 ms inside its socket's task, but not which part is ours. This runs the real
application (``create_app``, its lifespan, timers and all) on a fresh PostgreSQL database and
calls it as ASGI directly: REST through httpx's ``ASGITransport``, and every socket as a
WebSocket scope whose ``receive`` and ``send`` are in-memory queues. So everything from
Starlette's ``WebSocket`` inward is ours, as served, and nothing of uvicorn's or websockets'
is there.

The load is ``bob bots``'s shape: ``--games`` tables of two players and ``--spectators``
spectators, arriving over ``--ramp`` seconds, each player acting on its latest state after a
think time uniform in ``--think-ms``. The players parse their frames (they must, to act); the
spectators only count theirs. That client work shares the process, so it is timed on its own
and taken out. Steady CPU per applied command: the process CPU inside the window from the
end of the ramp for ``--window`` seconds, less the clients' part, over the commands written in
that window (the bots' and the server's own, as ``bench/server.py`` counts them).

``--tasks`` counts the window's CPU by the kind of asyncio task whose steps spent it
(``bench/task_cpu.py``), as that tool does for the served process; here a socket's task is
``FastAPI.__call__`` (uvicorn's is ``run_asgi``), and the players' parsing runs inside it.

``--profile OUT`` runs the window under cProfile and prints where its time went, by package
(a deterministic profile inflates small functions; read its shares, not its absolute times).

    .venv/bin/python bench/command_path.py --games 200 --think-ms 500:1500 --ramp 60 --window 40
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots.client import expand, ready  # noqa: E402
from bench.server import (  # noqa: E402
    BENCH_RATES,
    applied_commands,
    drop_database,
    fresh_database,
)
from bench.serving import server_environment  # noqa: E402
from bench.task_cpu import Counts, install, report  # noqa: E402


class ClientClock:
    """The CPU the in-process clients spend (parsing, choosing, counting), to take out."""

    def __init__(self) -> None:
        self.seconds = 0.0


class MemorySocket:
    """One WebSocket connection to the application, both ends in memory."""

    def __init__(self, app: Any, room_id: str, hello: dict[str, Any], clock: ClientClock,
                 on_text: Any = None) -> None:
        self.app, self.room_id, self.clock, self.on_text = app, room_id, clock, on_text
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(hello)})
        self.frames = 0
        self.sent_bytes = 0
        self.closed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> MemorySocket:
        path = f"/ws/rooms/{self.room_id}"
        scope = {
            "type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1", "scheme": "ws", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "headers": [(b"host", b"127.0.0.1")],
            "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000),
            "subprotocols": [], "extensions": {},
        }
        self.task = asyncio.create_task(self.app(scope, self.inbox.get, self._send))
        return self

    async def _send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.send":
            self.frames += 1
            self.sent_bytes += len(message["text"])
            if self.on_text is not None:
                self.on_text(message["text"])
        elif kind == "websocket.close":
            self.closed.set()

    def say(self, body: dict[str, Any]) -> None:
        started = time.thread_time()
        text = orjson.dumps(body).decode()
        self.clock.seconds += time.thread_time() - started
        self.inbox.put_nowait({"type": "websocket.receive", "text": text})

    async def close(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 5)
            except Exception:
                self.task.cancel()


class Player:
    """Acts on its latest live state with legal actions, after a think time, as ``SeatBot``."""

    def __init__(self, rng: random.Random, think: tuple[float, float], clock: ClientClock
                 ) -> None:
        self.rng, self.think, self.clock = rng, think, clock
        self.socket: MemorySocket | None = None
        self.latest: dict[str, Any] | None = None
        self.acted_on: int | None = None
        self.pending: asyncio.TimerHandle | None = None
        self.done = asyncio.Event()

    def on_text(self, text: str) -> None:
        started = time.thread_time()
        try:
            for message in expand(orjson.loads(text)):
                if message["type"] in ("state", "snapshot"):
                    self.latest = message
                    if message["game"]["status"] != "live":
                        self.done.set()
                    else:
                        self._schedule()
                elif message["type"] == "error" and message.get("code") == "roll_rate":
                    self.acted_on = None
                    self._schedule()
        finally:
            self.clock.seconds += time.thread_time() - started

    def _ready(self) -> dict[str, Any] | None:
        return ready(self.latest, self.acted_on)

    def _schedule(self) -> None:
        if self.pending is None and self._ready() is not None:
            self.pending = asyncio.get_running_loop().call_later(
                self.rng.uniform(*self.think), self._act)

    def _act(self) -> None:
        self.pending = None
        state = self._ready()
        if state is None or self.socket is None:
            return
        self.acted_on = state["seq"]
        self.socket.say({"type": "action", "id": uuid.uuid4().hex, "seq": state["seq"],
                         "action": self.rng.choice(state["legal_actions"])})


async def _table(app: Any, http: httpx.AsyncClient, index: int, args: argparse.Namespace,
                 clock: ClientClock, sockets: list[MemorySocket]) -> None:
    home = (await http.post("/api/auth/guest", json={})).json()
    away = (await http.post("/api/auth/guest", json={})).json()
    created = await http.post(
        "/api/rooms", json={"kind": args.game, "options": json.loads(args.options),
                            "side": "home"},
        headers={"Authorization": f"Bearer {home['token']}"})
    created.raise_for_status()
    room_id = created.json()["id"]
    for _ in range(args.spectators):
        sockets.append(MemorySocket(app, room_id, {"type": "hello", "last_seq": 0}, clock)
                       .start())
    rng = random.Random(index)
    players = []
    for session in (home, away):
        player = Player(rng, args.think, clock)
        player.socket = MemorySocket(app, room_id, {"type": "hello", "token": session["token"]},
                                     clock, player.on_text).start()
        sockets.append(player.socket)
        players.append(player)
    joined = await http.post(f"/api/rooms/{room_id}/join", json={"side": "away"},
                             headers={"Authorization": f"Bearer {away['token']}"})
    joined.raise_for_status()


def _by_package(profile: cProfile.Profile) -> list[tuple[str, float]]:
    """The profile's own time (``tottime``) summed by package: ``app/<domain>``, or the
    library's top-level name, or ``asyncio``/``builtins``."""
    stats = pstats.Stats(profile)
    totals: dict[str, float] = defaultdict(float)
    for (filename, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
        own = row[2]
        if filename == "~":
            key = "builtins: " + name.split(" of ")[-1].strip("<>'") if " of " in name else \
                "builtins"
        elif f"{os.sep}app{os.sep}" in filename and "site-packages" not in filename:
            parts = filename.split(f"{os.sep}app{os.sep}", 1)[1].split(os.sep)
            key = "app/" + (parts[0] if len(parts) > 1 else parts[0].removesuffix(".py"))
        elif "site-packages" in filename:
            key = filename.split("site-packages" + os.sep, 1)[1].split(os.sep)[0]
        else:
            key = "stdlib/" + Path(filename).parent.name + "/" + Path(filename).stem
        totals[key] += own
    whole = sum(totals.values()) or 1.0
    return [(k, round(v / whole * 100, 1)) for k, v in
            sorted(totals.items(), key=lambda kv: -kv[1])]


async def _run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    os.environ.update(server_environment(url, **BENCH_RATES))
    from app.main import create_app
    from app.settings import Settings

    app = create_app(Settings(), tune_gc=True)
    counts = Counts() if args.tasks else None
    if counts is not None:
        install(asyncio.get_running_loop(), counts)
    clock = ClientClock()
    sockets: list[MemorySocket] = []
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=transport, base_url="http://127.0.0.1") as http:
        started = time.monotonic()
        tables = []
        for index in range(args.games):
            at = started + args.ramp * index / args.games
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            tables.append(asyncio.create_task(_table(app, http, index, args, clock, sockets)))
        await asyncio.gather(*tables)
        await asyncio.sleep(max(0.0, started + args.ramp + args.settle - time.monotonic()))
        profile = cProfile.Profile() if args.profile else None
        wall0, cpu0, client0 = time.time(), time.process_time(), clock.seconds
        tasks0 = (*counts.snapshot(), time.process_time()) if counts is not None else None
        frames0 = sum(s.frames for s in sockets)
        bytes0 = sum(s.sent_bytes for s in sockets)
        if profile is not None:
            profile.enable()
        await asyncio.sleep(args.window)
        if profile is not None:
            profile.disable()
        wall1, cpu1, client1 = time.time(), time.process_time(), clock.seconds
        frames = sum(s.frames for s in sockets) - frames0
        tasks1 = (*counts.snapshot(), time.process_time()) if counts is not None else None
        sent = sum(s.sent_bytes for s in sockets) - bytes0
        applied = await applied_commands(url, (wall0, wall1))
        for socket in sockets:
            await socket.close()
    count = sum(applied.values())
    cpu, client = cpu1 - cpu0, client1 - client0
    run: dict[str, Any] = {
        "games": args.games, "spectators": args.spectators, "think_ms": args.think_ms,
        "window_s": round(wall1 - wall0, 1), "applied": applied,
        "cpu_ms_per_applied": round((cpu - client) / count * 1000, 3) if count else None,
        "client_ms_per_applied": round(client / count * 1000, 3) if count else None,
        "process_cpu_ms_per_applied": round(cpu / count * 1000, 3) if count else None,
        "frames_per_applied": round(frames / count, 2) if count else None,
        "chars_per_frame": round(sent / frames) if frames else None,
        "profiled": profile is not None,
    }
    if counts is not None and tasks0 is not None and tasks1 is not None:
        run["tasks"] = report(counts, tasks0, tasks1)
    if profile is not None:
        profile.dump_stats(args.profile)
        run["by_package"] = _by_package(profile)[:25]
    return run


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=3)
    parser.add_argument("--game", default="base-on-board")
    parser.add_argument("--options", default='{"innings": 3}')
    parser.add_argument("--think-ms", default="500:1500")
    parser.add_argument("--ramp", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds after the ramp before the window opens")
    parser.add_argument("--window", type=float, default=40.0)
    parser.add_argument("--tasks", action="store_true",
                        help="count the window's CPU by kind of task (bench/task_cpu.py)")
    parser.add_argument("--profile", default=None, help="write the window's cProfile here")
    args = parser.parse_args(argv)
    low, high = (float(x) / 1000 for x in args.think_ms.split(":"))
    args.think = (low, high)
    name, url = fresh_database()
    try:
        run = uvloop.run(_run(args, url))
    finally:
        drop_database(name)
    print(json.dumps(run), flush=True)
    return run


if __name__ == "__main__":
    main()
