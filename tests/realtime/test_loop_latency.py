"""The event loop never waits on a heavy read: a socket's ping is answered within 100 ms while
analysis, chart and record requests are in flight (the server is its own process, so the test's
own work does not count)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import time

import httpx
from websockets.asyncio.client import connect

from app.bots.client import ws_url
from app.stats import baselines
from tests.support.process import ServerProcess
from tests.support.table import open_table

WINDOWS = 3
HEAVY = [
    "/api/analysis/dice", "/api/analysis/run-expectancy?tier=lite",
    "/api/analysis/win-probability?innings=3", "/api/analysis/card-value",
    "/api/analysis/run-expectancy?game=bottom-of-the-9th",
]


async def test_pings_are_answered_while_analysis_runs(fresh_database_url: str) -> None:
    server = ServerProcess(fresh_database_url, WS_RATE_PER_SECOND="500",
                           WS_RATE_BURST="500").start()
    try:
        table = await open_table(server.url, "base-on-board", {"innings": 3, "tier": "lite"},
                                 spectators=0)
        try:
            await table.play_out(4000)
        finally:
            await table.close()
        name = table.home_session["account"]["name"]
        paths = [*HEAVY, f"/api/players/{name}/charts", f"/api/games/{table.game_id}/record",
                 f"/api/players/{name}", f"/api/games/{table.game_id}/export"]
        await asyncio.to_thread(asyncio.run, baselines.refresh(
            fresh_database_url, simulated_games_count=20))
        stop = threading.Event()
        answered = [0]

        def hammer() -> None:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                while not stop.is_set():
                    for path in paths:
                        assert http.get(path).status_code == 200, path
                        answered[0] += 1

        pool = concurrent.futures.ThreadPoolExecutor(6)
        workers = [pool.submit(hammer) for _ in range(6)]
        windows: list[list[float]] = []
        try:
            async with connect(ws_url(server.url, table.room_id)) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                await ws.recv()  # welcome
                for _window in range(WINDOWS):
                    waits: list[float] = []
                    started = time.monotonic()
                    while time.monotonic() - started < 3:
                        sent = time.perf_counter()
                        await ws.send(json.dumps({"type": "ping"}))
                        while json.loads(await ws.recv())["type"] != "pong":
                            pass
                        waits.append(time.perf_counter() - sent)
                        await asyncio.sleep(0.02)
                    windows.append(waits)
                    if max(waits) < 0.1:
                        break
        finally:
            stop.set()
            for worker in workers:
                worker.result(60)
            pool.shutdown()
        assert answered[0] > 50, answered  # the heavy requests really were in flight
        # Every ping of one 3-second window within 100 ms (the machine is shared: another
        # window is allowed when the scheduler, not the server, held one ping up; a server that
        # computes on its loop fails every window).
        assert min(max(w) for w in windows) < 0.1, [sorted(w)[-3:] for w in windows]
    finally:
        server.stop()
