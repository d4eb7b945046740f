"""The heartbeat reaches every socket, in slices spread over the period rather than one burst
(a burst of thousands of frames held every command behind it), and sends a frame only when it
tells the client something new, or every third beat anyway."""

from __future__ import annotations

import contextlib
import time
from types import SimpleNamespace
from typing import Any

from app.db import Database
from app.games.ownership import LocalOwnership
from app.metrics import Metrics
from app.realtime.connection import RoomConnection
from app.realtime.watch import TELL_ANYWAY_EVERY, RoomWatch
from app.settings import Settings
from tests.support.live import LiveServer
from tests.support.table import open_table


class _Socket:
    viewer = "spectator"

    def __init__(self) -> None:
        self.beats: list[tuple[float, str, int]] = []
        self.told: list[bool] = []

    def heartbeat(self, game_id: str, seq: int, room: dict[str, Any],
                  tell_anyway: bool = True) -> None:
        self.beats.append((time.monotonic(), game_id, seq))
        self.told.append(tell_anyway)


async def test_every_socket_gets_its_beat_in_spread_slices(database_url: str) -> None:
    database = Database(database_url)
    try:
        rooms = RoomWatch(database, LocalOwnership(), Metrics(), heartbeat_seconds=1.2)
        sockets = []
        for r in range(60):  # 300 sockets: three slices of 100
            for _ in range(5):
                socket = _Socket()
                sockets.append(socket)
                await rooms.add(f"room{r}", socket)
            rooms.saw(f"room{r}", f"game{r}", r + 1)  # no such room in the database: as seen
        started = time.monotonic()
        await rooms.beat()
        took = time.monotonic() - started
        assert all(len(s.beats) == 1 for s in sockets)
        assert sockets[7].beats[0][1:] == ("game1", 2)
        times = sorted(s.beats[0][0] for s in sockets)
        # Three slices 0.2 s apart (half the period over three): not one burst, not the period.
        assert times[-1] - times[0] >= 0.3
        assert took < 1.2
    finally:
        await database.dispose()


async def test_a_few_sockets_get_theirs_at_once(database_url: str) -> None:
    database = Database(database_url)
    try:
        rooms = RoomWatch(database, LocalOwnership(), Metrics(), heartbeat_seconds=5.0)
        sockets = [_Socket() for _ in range(40)]
        for i, socket in enumerate(sockets):
            await rooms.add(f"room{i % 8}", socket)
            rooms.saw(f"room{i % 8}", "g", 1)
        started = time.monotonic()
        await rooms.beat()
        assert time.monotonic() - started < 1.0
        assert all(len(s.beats) == 1 for s in sockets)
    finally:
        await database.dispose()


async def test_every_third_beat_tells_every_socket_anyway(database_url: str) -> None:
    database = Database(database_url)
    try:
        rooms = RoomWatch(database, LocalOwnership(), Metrics(), heartbeat_seconds=5.0)
        socket = _Socket()
        await rooms.add("room", socket)
        rooms.saw("room", "g", 1)
        for _ in range(2 * TELL_ANYWAY_EVERY):
            await rooms.beat()
        assert TELL_ANYWAY_EVERY == 3
        assert socket.told == [True, False, False, True, False, False]
    finally:
        await database.dispose()


def _connection() -> RoomConnection:
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"))
    connection = RoomConnection(ctx, None, "room")  # type: ignore[arg-type]
    connection.game_id, connection.seq = "g", 7
    return connection


def test_a_beat_with_nothing_new_queues_nothing_unless_told_to() -> None:
    connection = _connection()
    room = {"spectators": 2, "seats": [{"name": "a", "side": "home", "connected": True}]}
    connection.heartbeat("g", 7, room, tell_anyway=False)
    assert connection._queue.qsize() == 1  # the room was never told to this client
    connection._queue = type(connection._queue)()
    connection._room_told = dict(room)  # as the writer leaves it once sent
    connection.heartbeat("g", 7, dict(room), tell_anyway=False)
    connection.heartbeat("g", 6, dict(room), tell_anyway=False)
    assert connection._queue.qsize() == 0  # nothing it does not know, no wake-up
    connection.heartbeat("g", 8, dict(room), tell_anyway=False)  # its stream is behind
    connection.heartbeat("h", 1, dict(room), tell_anyway=False)  # a new game
    connection.heartbeat("g", 7, {**room, "spectators": 3}, tell_anyway=False)
    connection.heartbeat("g", 7, dict(room), tell_anyway=True)
    assert connection._queue.qsize() == 4


async def test_a_quiet_socket_hears_a_third_of_the_beats_and_every_change(
        live: LiveServer) -> None:
    server = LiveServer(live.database_url, live.catalog, ws_heartbeat_seconds=0.25).start()
    table = await open_table(server.url, spectators=2)
    try:
        home = table.client("home")
        await home.next(lambda m: m["type"] == "heartbeat")
        started = time.monotonic()
        beats = 0
        with contextlib.suppress(TimeoutError):
            while True:
                left = 3.0 - (time.monotonic() - started)
                await home.next(lambda m: m["type"] == "heartbeat", timeout=max(0.01, left))
                beats += 1
        # 12 beats in 3 s; every third is sent when nothing changed.
        assert 2 <= beats <= 6
        await table.spectators.pop().close()
        beat = await home.next(lambda m: m["type"] == "heartbeat" and m["spectators"] == 1,
                               timeout=5)
        assert beat["seq"] == table.seq
    finally:
        await table.close()
        server.stop()
