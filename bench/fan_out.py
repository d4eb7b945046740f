"""A broadcast's fan-out to its room's sockets, in process: queued for each socket's writer, or
sent by the publisher's own call when the writer is idle (issue 12).

A commit's broadcast reaches every socket of its room (:meth:`RoomConnection.on_room_message`).
Queued, each socket's writer task wakes up for it and sends its frame; sent at once
(:meth:`RoomConnection._sent_at_once`), the publisher's call sends the frame itself while the
writer sits idle. This builds ``--rooms`` rooms of five sockets (two players, three
spectators) on real :class:`RoomConnection` objects whose sockets only parse what they are sent
(to check its order), publishes ``--broadcasts`` commits to every room, and times the process
CPU per broadcast, the two ways interleaved ``--rounds`` times. It prints one JSON line a run.

It leaves out what both ways pay alike and the server pays besides: Starlette's, uvicorn's and
websockets' work for each frame, and the system call. So it measures the difference, not a
share of the server's CPU.

    .venv/bin/python bench/fan_out.py --rooms 200 --broadcasts 200 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import uvloop
from starlette.websockets import WebSocketState

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.broadcast import LocalRooms
from app.realtime.connection import RoomConnection
from app.settings import Settings

WAYS = ("queued", "at_once")
SIDES = ("home", "away")


class _CountingSocket:
    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.seqs: list[int] = []

    async def send_text(self, text: str) -> None:
        self.seqs.append(json.loads(text)["seq"])


def _commit(seq: int) -> dict[str, Any]:
    """A one-event commit with a small view for each viewer kind."""
    return {
        "kind": "game", "game": {"game_id": "g", "seq": seq},
        "events": [{"seq": seq, "type": "pitch", "data": {"pitch": seq}, "private": {}}],
        "views": {v: {"view": {"at": seq}, "legal": []} for v in ("spectator", *SIDES)},
    }


async def _run(way: str, rooms: int, broadcasts: int) -> dict[str, Any]:
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"),
                               watch=SimpleNamespace(saw=lambda *_: None))
    local = LocalRooms()
    sockets: list[_CountingSocket] = []
    connections: list[RoomConnection] = []
    for room in range(rooms):
        for seat in range(5):
            socket = _CountingSocket()
            connection = RoomConnection(ctx, socket, f"r{room}")  # type: ignore[arg-type]
            connection.game_id = "g"
            connection.side = SIDES[seat] if seat < len(SIDES) else None  # type: ignore[assignment]
            if way == "queued":
                connection._sent_at_once = lambda _message: False  # type: ignore[method-assign]
            local.add(f"r{room}", connection)
            sockets.append(socket)
            connections.append(connection)
    writers = [asyncio.create_task(c._write_loop()) for c in connections]
    while not all(c._queue.reader_waiting() for c in connections):
        await asyncio.sleep(0)
    started = time.process_time()
    for seq in range(1, broadcasts + 1):
        for room in range(rooms):
            local.deliver(f"r{room}", _commit(seq))
        await asyncio.sleep(0)  # the writers' turn, as between commands
    while any(len(s.seqs) < broadcasts for s in sockets):
        await asyncio.sleep(0)
    cpu = time.process_time() - started
    for writer in writers:
        writer.cancel()
    in_order = all(s.seqs == list(range(1, broadcasts + 1)) for s in sockets)
    return {"way": way, "rooms": rooms, "broadcasts": broadcasts, "in_order": in_order,
            "us_per_broadcast": round(cpu / (rooms * broadcasts) * 1e6, 2)}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--broadcasts", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    runs = []
    for round_number in range(1, args.rounds + 1):
        for way in WAYS:
            run = {"round": round_number,
                   **uvloop.run(_run(way, args.rooms, args.broadcasts))}
            print(json.dumps(run), flush=True)
            runs.append(run)
    return runs


if __name__ == "__main__":
    main()
