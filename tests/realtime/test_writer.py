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
import pytest
from starlette.websockets import WebSocketDisconnect

from app.realtime.connection import RoomConnection, _finish
from app.settings import Settings
from tests.support.sockets import RecordingSocket, until


class _Broadcast(dict[str, Any]):
    """A broadcast message as the command path builds one; a subclass only so that a weak
    reference can tell when it is gone."""



def _broadcast(seq: int) -> _Broadcast:
    return _Broadcast(
        kind="game", game={"game_id": "g", "seq": seq},
        events=[{"seq": seq, "type": "pitch", "data": {"pitch": seq}, "private": {}}],
        views={"spectator": {"view": {"bases": [seq, None, None]}, "legal": []}})


async def test_the_writer_holds_no_broadcast_while_it_waits() -> None:
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"),
                               watch=SimpleNamespace(saw=lambda *_: None))
    socket = RecordingSocket()
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
    socket = RecordingSocket()
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



def _connection(socket: Any) -> RoomConnection:
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"),
                               watch=SimpleNamespace(saw=lambda *_: None))
    connection = RoomConnection(ctx, socket, "room")
    connection.game_id, connection.seq = "g", 2
    return connection


async def _idle(connection: RoomConnection) -> asyncio.Task[None]:
    """The connection's writer, started and waiting for its first item."""
    writer = asyncio.get_running_loop().create_task(connection._write_loop())
    await until(connection._queue.reader_waiting)
    return writer


async def test_an_idle_writers_broadcast_is_sent_by_the_publishers_call() -> None:
    """The usual broadcast to an idle writer goes out before the publisher's call returns (no
    wake-up of the writer); one that does not follow on is left to the writer, which reads
    what is missing."""
    socket = RecordingSocket()
    connection = _connection(socket)
    caught_up: list[tuple[Any, ...]] = []

    async def catch_up(*asked: Any) -> None:
        caught_up.append(asked)

    connection._catch_up = catch_up  # type: ignore[method-assign]
    writer = await _idle(connection)
    try:
        connection.on_room_message(_commit(3, 4))
        assert [e["seq"] for e in socket.sent[-1]["events"]] == [3, 4]  # no await between
        assert connection.seq == connection.state_seq == 4
        connection.on_room_message(_commit(6, 7))  # a gap: the writer's
        assert len(socket.sent) == 1 and connection._queue.qsize() == 1
        await until(lambda: not connection._queue.qsize() and bool(caught_up))
        assert caught_up == [(4, "g", "gap")] and len(socket.sent) == 1
    finally:
        writer.cancel()


class _SlowSocket(RecordingSocket):
    """A socket whose buffer can be full: a send waits until it drains, as uvicorn's does."""

    def __init__(self) -> None:
        super().__init__()
        self.writable = asyncio.Event()
        self.writable.set()
        self.gone = False

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        if self.gone:
            raise WebSocketDisconnect(1006)
        self.sent.append(orjson.loads(text))


async def test_a_send_that_must_wait_goes_out_before_anything_queued_after_it() -> None:
    """A broadcast begun for the idle writer whose send must wait (a full buffer) is finished
    by a task; what comes after it (another broadcast, an ack) waits in the queue and goes out
    after it, in order."""
    socket = _SlowSocket()
    connection = _connection(socket)
    writer = await _idle(connection)
    try:
        socket.writable.clear()
        connection.on_room_message(_commit(3, 3))
        assert connection._sending is not None and not socket.sent
        connection.on_room_message(_commit(4, 4))  # not begun while the first waits
        assert connection._queue.qsize() == 1
        connection._put("send", '{"type": "ack"}')
        for _ in range(20):
            await asyncio.sleep(0)
        assert not socket.sent
        socket.writable.set()
        await until(lambda: len(socket.sent) >= 3)
        assert [m.get("seq", m["type"]) for m in socket.sent] == [3, 4, "ack"]
        await until(lambda: connection._sending is None and not connection._queue.qsize())
        connection.on_room_message(_commit(5, 5))  # idle again: sent at once
        assert socket.sent[-1]["seq"] == 5
    finally:
        writer.cancel()


class _GoneSocket(RecordingSocket):
    async def send_text(self, text: str) -> None:
        raise WebSocketDisconnect(1006)


async def test_a_send_that_fails_at_once_ends_the_writer_as_its_own_would() -> None:
    connection = _connection(_GoneSocket())
    writer = await _idle(connection)
    connection.on_room_message(_commit(3, 3))
    with pytest.raises(WebSocketDisconnect):
        await asyncio.wait_for(writer, 5)


async def test_a_send_that_fails_after_waiting_ends_the_writer_too() -> None:
    """The socket goes while a send begun for the idle writer waits: the writer fails with
    the send's error, as it would have had it sent the frame itself."""
    socket = _SlowSocket()
    connection = _connection(socket)
    writer = await _idle(connection)
    socket.writable.clear()
    connection.on_room_message(_commit(3, 3))
    assert connection._sending is not None
    socket.gone = True
    socket.writable.set()  # as uvicorn does when the connection is lost
    with pytest.raises(WebSocketDisconnect):
        await asyncio.wait_for(writer, 5)
    assert not socket.sent


async def test_finish_resumes_a_send_where_it_waited_and_cancels_it_there() -> None:
    """``_finish`` drives a coroutine begun outside a task exactly as a task would: it gets
    the result of what it waited for; cancelled, it is cancelled where it waits (on a future:
    the future is cancelled and the send resumed to raise it; on a bare yield: it is
    closed)."""
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    seen: list[str] = []

    async def send() -> None:
        await asyncio.sleep(0)  # a bare yield first
        seen.append(await ready)

    coro = send()
    task = asyncio.get_running_loop().create_task(_finish(coro, coro.send(None)))
    for _ in range(5):
        await asyncio.sleep(0)
    ready.set_result("drained")
    await task
    assert seen == ["drained"]

    stuck: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    closed: list[bool] = []

    async def waits() -> None:
        try:
            await stuck
        except asyncio.CancelledError:
            closed.append(True)
            raise

    coro = waits()
    task = asyncio.get_running_loop().create_task(_finish(coro, coro.send(None)))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert closed == [True] and stuck.cancelled()

    finished: list[str] = []

    async def yields() -> None:
        try:
            await asyncio.sleep(0)
            await asyncio.sleep(0)
        finally:
            finished.append("closed")

    coro = yields()
    task = asyncio.get_running_loop().create_task(_finish(coro, coro.send(None)))
    await asyncio.sleep(0)  # the task now waits on its own bare yield
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert finished == ["closed"]


async def test_a_broadcast_that_cannot_be_encoded_fails_its_socket_not_the_publisher() -> None:
    """A broadcast missing this viewer's view (a bug) raises nothing into the publisher's call,
    which also delivers to the room's other sockets: the writer meets it and closes this
    socket, as it did before broadcasts were sent at once."""
    socket = RecordingSocket()
    connection = _connection(socket)
    closed: list[BaseException] = []

    async def close_for(exc: BaseException) -> None:
        closed.append(exc)

    connection._close_for = close_for  # type: ignore[method-assign]
    writer = await _idle(connection)
    broken = _commit(3, 3)
    del broken["views"]["spectator"]
    connection.on_room_message(broken)
    await asyncio.wait_for(writer, 5)
    assert [type(e) for e in closed] == [KeyError] and not socket.sent
