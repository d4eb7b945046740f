"""A bot table: two seated bots and K spectators play one game over REST and WebSocket.

Everything goes through the documented protocol, exactly as a browser would, so the same code
serves the end-to-end tests, ``bob bots`` and the benchmark. A bot paces itself by the rate
limit the server announces in ``welcome``, picks uniformly among its legal actions, and tags
each command with the sequence number it acted on.

With a think time (``think=(low, high)`` seconds, drawn uniformly from the table's random
generator) a bot that receives a state with legal actions schedules one pending action: it
waits the think time, still reading its socket, then acts on the newest state it holds if that
state is live, still offers it something to do, and has not been acted on already. Without a
think time (the default) it acts the moment a state arrives, as fast as the server answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from app.throttle import TokenBucket

IGNORABLE = {"stale_seq", "not_your_turn", "conflict", "game_over", "roll_rate"}
"""Errors a bot may meet by racing a timer or the other side; a newer state follows."""


@dataclass
class TableReport:
    game_id: str = ""
    room_id: str = ""
    commands: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    spectator_events: list[list[tuple[int, str]]] = field(default_factory=list)
    """Per spectator, (seq, event) in order, each event as :func:`canonical` text: strings are
    not tracked by the cyclic collector, so a benchmark's hundreds of tables cost its pauses
    nothing."""
    player_messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    spectator_messages: list[list[dict[str, Any]]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    """Per command: its send to the last spectator's receipt of its first event."""
    latency_sent_at: list[float] = field(default_factory=list)
    """Wall-clock time (``time.time()``) of each latency sample's send, in the same order."""
    command_times: list[float] = field(default_factory=list)
    """Wall-clock time of every command sent (retries and refused ones included)."""
    result: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    stopped: bool = False
    """Stopped before the end (``play_table``'s ``stop``): its samples so far, no result and no
    check of the spectators' logs."""


def expand(message: dict[str, Any]) -> list[dict[str, Any]]:
    """An ``update`` (one commit's events and the state they lead to, in one frame) as the
    ``event`` messages and the ``state`` message it stands for, then the ``ack`` it carries
    when it is the commit of this socket's own command; any other message as it is."""
    if message.get("type") != "update":
        return [message]
    game_id = message["game_id"]
    out: list[dict[str, Any]] = [
        {"type": "event", "game_id": game_id, "seq": e["seq"], "event": e["event"]}
        for e in message["events"]
    ]
    state = {k: v for k, v in message.items() if k not in ("events", "game_id", "ack")}
    state["type"] = "state"
    out.append(state)
    if "ack" in message:
        out.append({"type": "ack", **message["ack"]})
    return out


def canonical(event: dict[str, Any]) -> str:
    """One text per event content, whatever the key order."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def ws_url(base_url: str, room_id: str) -> str:
    return base_url.replace("http", "ws", 1).rstrip("/") + f"/ws/rooms/{room_id}"


KEEPALIVE_EXPIRY_SECONDS = 1.0
"""How long a table's HTTP client reuses an idle connection: less than the server's keep-alive
(uvicorn's ``timeout_keep_alive``, 5 s). With both at 5 s, a request sent on a connection just
as the server closes it fails with a bare ``ReadError`` (a POST is not retried), and under load
a table can take that long to open its five sockets between creating its room and joining it.
Two 1,000-game runs on 2026-12-06 each lost one table to a bare ``ReadError``."""


def table_http(base_url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base_url, timeout=30,
                             limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY_SECONDS))


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


def ready(state: dict[str, Any] | None, acted_on: int | None) -> dict[str, Any] | None:
    """``state`` (a player's newest) if it is live, offers legal actions and was not acted on
    yet (``acted_on``: the ``seq`` of the state the last command was sent for)."""
    if (state is None or state["game"]["status"] != "live" or not state["legal_actions"]
            or state["seq"] == acted_on):
        return None
    return state


class SeatBot:
    """Plays one side until the game is over."""

    def __init__(self, ws: ClientConnection, welcome: dict[str, Any], side: str,
                 rng: random.Random, report: TableReport, sent_at: dict[int, float],
                 think: tuple[float, float] = (0.0, 0.0), keep_messages: bool = True) -> None:
        self.ws, self.side, self.rng, self.report = ws, side, rng, report
        self.keep_messages = keep_messages
        self.sent_at = sent_at
        self.think = think
        self.messages: list[dict[str, Any]] = [welcome]
        report.player_messages[side] = self.messages
        self.latest: dict[str, Any] | None = None
        limits = welcome["limits"]
        self.bucket = TokenBucket(limits["rate_per_second"] * 0.8, max(1, limits["burst"] // 2))
        self.pending: asyncio.Task[None] | None = None
        """With a think time: the one action being thought about, if any."""
        self.acted_on: int | None = None
        """With a think time: the ``seq`` of the state the last command was sent for."""
        self.last_command: str | None = None

    async def run(self) -> None:
        try:
            async for message in self._messages():
                if message["type"] == "error" and message["code"] == "roll_rate":
                    await self._on_roll_rate(message)
                elif message["type"] == "ack" and message.get("result") == "scheduled":
                    # A pass held until the window's automatic-pass time (docs/protocol.md):
                    # its wait is the rules', not the server's, so it is no latency sample.
                    self.sent_at.pop(message["seq"] + 1, None)
                elif message["type"] in ("state", "snapshot"):
                    self.latest = message
                    if message["game"]["status"] != "live":
                        return
                    await self._on_state(message)
        finally:
            if self.pending is not None:
                self.pending.cancel()

    async def _messages(self) -> AsyncIterator[dict[str, Any]]:
        """Every message, parsed and kept (``keep_messages``); unexpected errors are reported
        here and not passed on."""
        async for raw in self.ws:
            for message in expand(json.loads(raw)):
                if self.keep_messages:
                    self.messages.append(message)
                if message["type"] == "error" and message["code"] not in IGNORABLE:
                    self.report.errors.append(message)
                else:
                    yield message

    async def _on_state(self, state: dict[str, Any]) -> None:
        if self.think[1] > 0:  # acting happens in the pending task (see ``_schedule``)
            self._schedule(self.think)
        elif state["legal_actions"]:
            await self._act(state["seq"], self.rng.choice(state["legal_actions"]))

    async def _on_roll_rate(self, error: dict[str, Any]) -> None:
        """The race roll came too fast: try again from the newest state, a little later."""
        if self.think[1] > 0:
            # The state the refused roll was sent on may be acted on again.
            if error.get("id") == self.last_command:
                self.acted_on = None
            self._schedule((0.3, 0.3))
        elif self.latest:
            await asyncio.sleep(0.3)
            legal = self.latest["legal_actions"]
            if legal:
                await self._act(self.latest["seq"], self.rng.choice(legal))

    def _ready(self) -> dict[str, Any] | None:
        return ready(self.latest, self.acted_on)

    def _schedule(self, delay: tuple[float, float]) -> None:
        """Starts the one pending action, unless one is pending or there is nothing to do."""
        if self.pending is None and self._ready() is not None:
            wait = self.rng.uniform(*delay)
            self.pending = asyncio.create_task(self._think_then_act(wait))

    async def _think_then_act(self, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
            state = self._ready()
            if state is not None:
                self.acted_on = state["seq"]
                await self._act(state["seq"], self.rng.choice(state["legal_actions"]))
        except Exception as exc:  # the socket went away: say so, the reader will stop too
            self.report.errors.append(
                {"type": "bot", "code": "send_failed", "message": f"{self.side}: {exc!r}"}
            )
            return
        finally:
            self.pending = None
        # A newer state may have arrived while this one was being sent.
        self._schedule(self.think)

    async def _act(self, seq: int, action: dict[str, Any]) -> None:
        while not self.bucket.take():
            await asyncio.sleep(0.01)
        self.report.commands += 1
        self.report.command_times.append(time.time())
        self.sent_at.setdefault(seq + 1, time.perf_counter())
        self.last_command = uuid.uuid4().hex
        await self.ws.send(json.dumps(
            {"type": "action", "id": self.last_command, "seq": seq, "action": action}
        ))


async def watch(ws: ClientConnection, received_at: dict[int, float],
                log: list[dict[str, Any]] | None) -> list[tuple[int, str]]:
    """A spectator: records every event until the game is over; returns (seq, event) pairs.

    ``received_at`` keeps, per sequence number, the latest receipt among all spectators."""
    events: list[tuple[int, str]] = []
    async for raw in ws:
        arrived = time.perf_counter()
        for message in expand(json.loads(raw)):
            if log is not None:
                log.append(message)
            if message["type"] == "event":
                events.append((message["seq"], canonical(message["event"])))
                received_at[message["seq"]] = arrived
            elif message["type"] in ("state", "snapshot") and message["game"]["status"] != "live":
                return events
    return events


async def _played_unless_stopped(
    report: TableReport, seats: list[asyncio.Task[Any]],
    watchers: list[asyncio.Task[list[tuple[int, str]]]], stop: asyncio.Event, timeout: float,
) -> bool:
    """Waits for the seats, then the spectators, to see the game out (``timeout`` for the
    whole), unless ``stop`` is set first; whether the game was played out."""
    async def whole() -> None:
        await asyncio.gather(*seats)
        report.spectator_events = list(await asyncio.gather(*watchers))

    game = asyncio.ensure_future(asyncio.wait_for(whole(), timeout))
    stopper = asyncio.ensure_future(stop.wait())
    done, _ = await asyncio.wait({game, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if game in done:
        stopper.cancel()
        game.result()  # its exception, if it failed
        return True
    game.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await game
    return False


async def play_table(
    base_url: str, kind: str, options: dict[str, Any] | None = None, spectators: int = 1,
    seed: int = 1, timers: dict[str, float] | None = None, timeout: float = 120.0,
    think: tuple[float, float] = (0.0, 0.0), keep_messages: bool = True,
    stop: asyncio.Event | None = None,
) -> TableReport:
    """Creates a room, seats two guest bots, plays one game with ``spectators`` watching, and
    checks what the spectators saw against the public log.

    ``think``: each bot's think time in seconds (min, max) before it acts on a state.
    ``keep_messages``: keep every message each socket received in the report (tests read them;
    hundreds of tables' worth would hold gigabytes, and the collector's passes over them would
    stall the very clients whose receipt times are measured).
    ``stop``: once set, the table stops where it is (a benchmark of a fixed length); the report
    is ``stopped`` and holds the samples measured until then."""
    report = TableReport()
    rng = random.Random(seed)
    async with table_http(base_url) as http:
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
        if keep_messages:
            report.spectator_messages = logs
        tasks = [
            asyncio.create_task(
                SeatBot(home_ws, home_welcome, "home", rng, report, sent_at, think,
                        keep_messages).run()
            ),
            asyncio.create_task(
                SeatBot(away_ws, away_welcome, "away", rng, report, sent_at, think,
                        keep_messages).run()
            ),
        ]
        watch_tasks = [
            asyncio.create_task(watch(w, received_at, log if keep_messages else None))
            for w, log in zip(watchers, logs, strict=True)
        ]
        joined = await http.post(
            f"/api/rooms/{room_id}/join", json={"side": "away"},
            headers={"Authorization": f"Bearer {away['token']}"},
        )
        joined.raise_for_status()
        report.game_id = joined.json()["current_game_id"]
        try:
            if stop is None:
                await asyncio.wait_for(asyncio.gather(*tasks), timeout)
                report.spectator_events = list(
                    await asyncio.wait_for(asyncio.gather(*watch_tasks), timeout)
                )
            else:
                report.stopped = not await _played_unless_stopped(
                    report, tasks, watch_tasks, stop, timeout)
        finally:
            for task in (*tasks, *watch_tasks):
                task.cancel()
            for ws in (home_ws, away_ws, *watchers):
                await ws.close()
        # perf_counter for the latency itself; time.time() only to place a sample on a clock
        # that other processes share.
        offset = time.time() - time.perf_counter()
        for seq, start in sent_at.items():
            if seq in received_at and spectators:
                report.latencies_ms.append((received_at[seq] - start) * 1000)
                report.latency_sent_at.append(start + offset)
        if report.stopped:
            return report
        summary = (await http.get(f"/api/games/{report.game_id}")).json()
        report.result = summary["result"]
        public = (await http.get(f"/api/games/{report.game_id}/events",
                                 params={"limit": 5000})).json()
        expected = [(e["seq"], canonical(e["event"])) for e in public["events"]]
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
