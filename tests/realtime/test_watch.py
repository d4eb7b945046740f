"""The heartbeat reaches every socket, in slices spread over the period rather than one burst
(a burst of thousands of frames held every command behind it)."""

from __future__ import annotations

import time
from typing import Any

from app.db import Database
from app.games.ownership import LocalOwnership
from app.metrics import Metrics
from app.realtime.watch import RoomWatch


class _Socket:
    viewer = "spectator"

    def __init__(self) -> None:
        self.beats: list[tuple[float, str, int]] = []

    def heartbeat(self, game_id: str, seq: int, room: dict[str, Any]) -> None:
        self.beats.append((time.monotonic(), game_id, seq))


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
