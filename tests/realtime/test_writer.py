"""A socket's writer sends each broadcast and keeps none of it while it waits for the next:
every game's latest broadcast (every viewer's view of its commit) would otherwise stay alive
for the collector to walk, once for each game in the process."""

from __future__ import annotations

import asyncio
import gc
import weakref
from types import SimpleNamespace
from typing import Any

import orjson
from starlette.websockets import WebSocketState

from app.realtime.connection import RoomConnection
from app.settings import Settings


class _Broadcast(dict[str, Any]):
    """A broadcast message as the command path builds one; a subclass only so that a weak
    reference can tell when it is gone."""


class _Socket:
    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(orjson.loads(text))


def _broadcast(seq: int) -> _Broadcast:
    return _Broadcast(
        kind="game", game={"game_id": "g", "seq": seq},
        events=[{"seq": seq, "type": "pitch", "data": {"pitch": seq}, "private": {}}],
        views={"spectator": {"view": {"bases": [seq, None, None]}, "legal": []}})


async def test_the_writer_holds_no_broadcast_while_it_waits() -> None:
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"),
                               watch=SimpleNamespace(saw=lambda *_: None))
    socket = _Socket()
    connection = RoomConnection(ctx, socket, "room")  # type: ignore[arg-type]
    writer = asyncio.get_running_loop().create_task(connection._write_loop())
    gc.disable()  # only reference counting may free it: what a collection would walk
    try:
        first = _broadcast(1)
        gone = weakref.ref(first)
        connection.on_room_message(first)
        del first
        while not socket.sent:
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert socket.sent[0]["seq"] == 1 and socket.sent[0]["view"]["bases"] == [1, None, None]
        assert gone() is None  # the writer waits for the next one holding nothing of this one

        connection.on_room_message(_broadcast(2))
        while len(socket.sent) < 2:
            await asyncio.sleep(0)
        assert socket.sent[1]["seq"] == 2
    finally:
        gc.enable()
        writer.cancel()


def _commit(first: int, last: int) -> dict[str, Any]:
    """A broadcast of the events ``first``..``last`` (one commit's, or a commit and the pass
    folded into it)."""
    return {
        "kind": "game", "game": {"game_id": "g", "seq": last},
        "events": [{"seq": seq, "type": "pitch", "data": {"pitch": seq}, "private": {}}
                   for seq in range(first, last + 1)],
        "views": {"spectator": {"view": {"at": last}, "legal": []}}}


async def test_a_broadcast_sends_what_is_new_and_a_gap_is_read_back() -> None:
    """The usual broadcast goes out whole, as every spectator's shared frame; one that starts
    inside what was sent goes out from the first new event; one that leaves a gap is not sent
    (the writer reads what is missing instead)."""
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"),
                               watch=SimpleNamespace(saw=lambda *_: None))
    socket = _Socket()
    connection = RoomConnection(ctx, socket, "room")  # type: ignore[arg-type]
    caught_up: list[tuple[Any, ...]] = []

    async def catch_up(*asked: Any) -> None:
        caught_up.append(asked)

    connection._catch_up = catch_up  # type: ignore[method-assign]
    connection.game_id, connection.seq = "g", 2
    usual = _commit(3, 4)
    await connection._on_game(usual)
    assert [e["seq"] for e in socket.sent[-1]["events"]] == [3, 4]
    assert "_texts" in usual  # encoded once for its viewer kind, kept for the others
    await connection._on_game(_commit(4, 6))
    assert [e["seq"] for e in socket.sent[-1]["events"]] == [5, 6]
    assert connection.seq == 6 and not caught_up
    await connection._on_game(_commit(8, 9))
    assert caught_up == [(6, "g", "gap")] and len(socket.sent) == 2
