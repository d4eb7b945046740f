"""A bot table: two seated bots and K spectators play one game over REST and WebSocket.

Everything goes through the documented protocol, exactly as a browser would, so the same code
serves the end-to-end tests, ``bob bots`` and the benchmark. A bot paces itself by the rate
limit the server announces in ``welcome``, picks uniformly among its legal actions, and tags
each command with the sequence number it acted on.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from app.realtime.ratelimit import TokenBucket

IGNORABLE = {"stale_seq", "not_your_turn", "conflict", "game_over", "roll_rate"}
"""Errors a bot may meet by racing a timer or the other side; a newer state follows."""


@dataclass
class TableReport:
    game_id: str = ""
    room_id: str = ""
    commands: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    spectator_events: list[list[tuple[int, dict[str, Any]]]] = field(default_factory=list)
    player_messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    spectator_messages: list[list[dict[str, Any]]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    """Per command: its send to the last spectator's receipt of its first event."""
    result: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)


def ws_url(base_url: str, room_id: str) -> str:
    return base_url.replace("http", "ws", 1).rstrip("/") + f"/ws/rooms/{room_id}"


async def guest(http: httpx.AsyncClient) -> dict[str, Any]:
    response = await http.post("/api/auth/guest", json={})
    response.raise_for_status()
    session: dict[str, Any] = response.json()
    return session


async def open_socket(
    base_url: str, room_id: str, token: str | None = None, last_seq: int | None = None
) -> tuple[ClientConnection, dict[str, Any]]:
    """Connects and says hello; returns the socket and the server's ``welcome`` (by then the
    socket is subscribed, so nothing published afterwards can be missed)."""
    ws = await connect(
        ws_url(base_url, room_id), max_size=None, open_timeout=10, max_queue=None, close_timeout=2
    )
    hello: dict[str, Any] = {"type": "hello"}
    if token is not None:
        hello["token"] = token
    if last_seq is not None:
        hello["last_seq"] = last_seq
    await ws.send(json.dumps(hello))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
    if welcome.get("type") != "welcome":
        await ws.close()
        raise RuntimeError(f"expected welcome, got {welcome}")
    return ws, welcome


class SeatBot:
    """Plays one side until the game is over."""

    def __init__(self, ws: ClientConnection, welcome: dict[str, Any], side: str,
                 rng: random.Random, report: TableReport, sent_at: dict[int, float]) -> None:
        self.ws, self.side, self.rng, self.report = ws, side, rng, report
        self.sent_at = sent_at
        self.messages: list[dict[str, Any]] = [welcome]
        report.player_messages[side] = self.messages
        self.latest: dict[str, Any] | None = None
        limits = welcome["limits"]
        self.bucket = TokenBucket(limits["rate_per_second"] * 0.8, max(1, limits["burst"] // 2))

    async def run(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            self.messages.append(message)
            kind = message["type"]
            if kind == "error" and message["code"] not in IGNORABLE:
                self.report.errors.append(message)
            elif kind == "error" and message["code"] == "roll_rate" and self.latest:
                # The race roll came too fast: try again from the newest state, a little later.
                await asyncio.sleep(0.3)
                legal = self.latest["legal_actions"]
                if legal:
                    await self._act(self.latest["seq"], self.rng.choice(legal))
            elif kind in ("state", "snapshot"):
                self.latest = message
                if message["game"]["status"] != "live":
                    return
                legal = message["legal_actions"]
                if legal:
                    await self._act(message["seq"], self.rng.choice(legal))

    async def _act(self, seq: int, action: dict[str, Any]) -> None:
        while not self.bucket.take():
            await asyncio.sleep(0.01)
        self.report.commands += 1
        self.sent_at.setdefault(seq + 1, time.perf_counter())
        await self.ws.send(json.dumps(
            {"type": "action", "id": uuid.uuid4().hex, "seq": seq, "action": action}
        ))


async def watch(ws: ClientConnection, received_at: dict[int, float],
                log: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """A spectator: records every event until the game is over; returns (seq, event) pairs.

    ``received_at`` keeps, per sequence number, the latest receipt among all spectators."""
    events: list[tuple[int, dict[str, Any]]] = []
    async for raw in ws:
        message = json.loads(raw)
        log.append(message)
        if message["type"] == "event":
            events.append((message["seq"], message["event"]))
            received_at[message["seq"]] = time.perf_counter()
        elif message["type"] in ("state", "snapshot") and message["game"]["status"] != "live":
            break
    return events


async def play_table(
    base_url: str, kind: str, options: dict[str, Any] | None = None, spectators: int = 1,
    seed: int = 1, timers: dict[str, float] | None = None, timeout: float = 120.0,
) -> TableReport:
    """Creates a room, seats two guest bots, plays one game with ``spectators`` watching, and
    checks what the spectators saw against the public log."""
    report = TableReport()
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        home, away = await guest(http), await guest(http)
        body: dict[str, Any] = {"kind": kind, "options": options or {}, "side": "home"}
        if timers:
            body["timers"] = timers
        created = await http.post(
            "/api/rooms", json=body, headers={"Authorization": f"Bearer {home['token']}"}
        )
        created.raise_for_status()
        room_id = created.json()["id"]
        report.room_id = room_id
        # last_seq=0: "I hold nothing, send me the whole log", even if the game starts while
        # the server is still greeting this socket.
        watchers = [
            (await open_socket(base_url, room_id, last_seq=0))[0] for _ in range(spectators)
        ]
        home_ws, home_welcome = await open_socket(base_url, room_id, home["token"])
        away_ws, away_welcome = await open_socket(base_url, room_id, away["token"])
        sent_at: dict[int, float] = {}
        received_at: dict[int, float] = {}
        logs: list[list[dict[str, Any]]] = [[] for _ in watchers]
        report.spectator_messages = logs
        tasks = [
            asyncio.create_task(
                SeatBot(home_ws, home_welcome, "home", rng, report, sent_at).run()
            ),
            asyncio.create_task(
                SeatBot(away_ws, away_welcome, "away", rng, report, sent_at).run()
            ),
        ]
        watch_tasks = [
            asyncio.create_task(watch(w, received_at, log))
            for w, log in zip(watchers, logs, strict=True)
        ]
        joined = await http.post(
            f"/api/rooms/{room_id}/join", json={"side": "away"},
            headers={"Authorization": f"Bearer {away['token']}"},
        )
        joined.raise_for_status()
        report.game_id = joined.json()["current_game_id"]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout)
            report.spectator_events = list(
                await asyncio.wait_for(asyncio.gather(*watch_tasks), timeout)
            )
        finally:
            for task in (*tasks, *watch_tasks):
                task.cancel()
            for ws in (home_ws, away_ws, *watchers):
                await ws.close()
        report.latencies_ms = [
            (received_at[seq] - start) * 1000
            for seq, start in sent_at.items() if seq in received_at and spectators
        ]
        summary = (await http.get(f"/api/games/{report.game_id}")).json()
        report.result = summary["result"]
        public = (await http.get(f"/api/games/{report.game_id}/events",
                                 params={"limit": 5000})).json()
        expected = [(e["seq"], e["event"]) for e in public["events"]]
        for index, seen in enumerate(report.spectator_events):
            if seen != expected:
                at = next((i for i, (a, b) in enumerate(zip(seen, expected, strict=False))
                           if a != b), min(len(seen), len(expected)))
                report.problems.append(
                    f"spectator {index} saw a different log than the public one: "
                    f"{len(seen)} events against {len(expected)}, first difference at {at}: "
                    f"{seen[at:at + 1]} against {expected[at:at + 1]}"
                )
    return report
