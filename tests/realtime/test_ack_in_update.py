"""A command's answer rides in its commit's frame to the socket that sent it: one frame, not an
``update`` and then an ``ack``. Only that socket's frame carries it, and when its commit's
frame is not sent at once (the socket's writer is busy) the answer goes on its own, after it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from app.bots.client import expand
from app.games.commands import ACK, CommandRequest
from app.realtime.connection import RoomConnection
from app.settings import Settings
from tests.support.sockets import RecordingSocket, until


class _Room:
    """The command path as the sockets meet it: ``submit`` publishes one commit, naming the
    sender's ``reply_to`` beside its answer (as :class:`app.games.commands.CommandPath`
    does), to every socket of the room, and answers."""

    def __init__(self) -> None:
        self.sockets: list[RoomConnection] = []
        self.seq = 2
        self.named: str | None = None
        """What to name instead of the request's ``reply_to`` (``None``: the request's)."""

    async def submit(self, request: CommandRequest) -> dict[str, Any]:
        self.seq += 1
        answer = {"result": "applied", "first_seq": self.seq, "seq": self.seq,
                  "duplicate": False}
        message = {
            "kind": "game", "game": {"game_id": "g", "seq": self.seq},
            "events": [{"seq": self.seq, "type": "roll", "data": {"n": self.seq},
                        "private": {}}],
            "views": {v: {"view": {"at": self.seq}, "legal_actions": []}
                      for v in ("home", "away", "spectator")},
            ACK: {"to": self.named or request.reply_to, "answer": answer},
        }
        for socket in self.sockets:
            socket.on_room_message(message)
        return answer


def _table() -> tuple[_Room, dict[str, tuple[RoomConnection, RecordingSocket]]]:
    room = _Room()
    metrics = SimpleNamespace(labelled=lambda *_: SimpleNamespace(observe=lambda _s: None),
                              command_seconds=None)
    ctx: Any = SimpleNamespace(settings=Settings(database_url="sqlite://"), commands=room,
                               watch=SimpleNamespace(saw=lambda *_: None), metrics=metrics)
    made = {}
    for name, side in (("me", "home"), ("teammate", "home"), ("watcher", None)):
        socket = RecordingSocket()
        connection = RoomConnection(ctx, socket, "room")  # type: ignore[arg-type]
        connection.game_id, connection.seq, connection.side = "g", 2, side  # type: ignore[assignment]
        connection.account_id = name if side else None
        room.sockets.append(connection)
        made[name] = (connection, socket)
    return room, made



async def _writers(made: dict[str, tuple[RoomConnection, RecordingSocket]]
                   ) -> list[asyncio.Task[None]]:
    writers = [asyncio.get_running_loop().create_task(c._write_loop()) for c, _ in made.values()]
    await until(lambda: all(c._queue.reader_waiting() for c, _ in made.values()))
    return writers


async def test_the_senders_frame_carries_its_answer_and_no_other_frame_does() -> None:
    _room, made = _table()
    writers = await _writers(made)
    me, mine = made["me"]
    try:
        await me._command({"type": "action", "id": "c1", "action": {"type": "roll"}}, "action")
        await asyncio.sleep(0)
        assert me._queue.qsize() == 0 and me._asking is None  # no ack of its own to send
        assert len(mine.sent) == 1
        assert mine.sent[0]["ack"] == {"id": "c1", "game_id": "g", "result": "applied",
                                       "first_seq": 3, "seq": 3, "duplicate": False}
        assert [m["type"] for m in expand(mine.sent[0])] == ["event", "state", "ack"]
        assert "ack" not in expand(mine.sent[0])[1]  # the state is the state alone
        for other in ("teammate", "watcher"):
            sent = made[other][1].sent
            assert len(sent) == 1 and "ack" not in sent[0]
        # the teammate shares the sender's side, and its frame is still the side's own
        assert made["teammate"][1].sent[0] == {k: v for k, v in mine.sent[0].items()
                                               if k != "ack"}
    finally:
        for writer in writers:
            writer.cancel()


async def test_a_commit_naming_another_socket_leaves_the_answer_on_its_own() -> None:
    room, made = _table()
    room.named = "someone-else"
    writers = await _writers(made)
    me, mine = made["me"]
    try:
        await me._command({"type": "action", "id": "c1", "action": {"type": "roll"}}, "action")
        await until(lambda: len(mine.sent) == 2)
        assert "ack" not in mine.sent[0]
        assert mine.sent[1] == {"type": "ack", "id": "c1", "game_id": "g", "result": "applied",
                                "first_seq": 3, "seq": 3, "duplicate": False}
    finally:
        for writer in writers:
            writer.cancel()


async def test_a_busy_writer_sends_the_commit_and_then_the_answer() -> None:
    """The commit's frame is the writer's when it has something queued: the answer then goes
    after it, on its own, as before."""
    _room, made = _table()
    me, mine = made["me"]
    me._put("send", '{"type": "pong"}')  # queued before the writer starts: it is busy
    await me._command({"type": "action", "id": "c1", "action": {"type": "roll"}}, "action")
    assert not mine.sent  # nothing sent at once
    writer = asyncio.get_running_loop().create_task(me._write_loop())
    try:
        await until(lambda: len(mine.sent) == 3)
        assert [m["type"] for m in mine.sent] == ["pong", "update", "ack"]
        assert "ack" not in mine.sent[1] and mine.sent[2]["id"] == "c1"
    finally:
        writer.cancel()
