"""A thinking bot: one pending action at a time, taken on the newest state it holds.

The socket is a fake fed by the test, so what the bot sends can be checked message by message.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, cast

from websockets.asyncio.client import ClientConnection

from app.bots.client import SeatBot, TableReport

WELCOME = {"type": "welcome", "limits": {"rate_per_second": 100, "burst": 100}}


class FakeSocket:
    """Delivers what the test ``push``es, in order; records what the bot sends."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait(json.dumps(message))

    def __aiter__(self) -> FakeSocket:
        return self

    async def __anext__(self) -> str:
        raw = await self.inbox.get()
        if raw is None:
            raise StopAsyncIteration
        return raw

    async def send(self, raw: str) -> None:
        self.sent.append(json.loads(raw))


def state(seq: int, legal: list[dict[str, Any]], status: str = "live") -> dict[str, Any]:
    return {"type": "state", "seq": seq, "game": {"status": status}, "legal_actions": legal}


def bot(think: tuple[float, float]) -> tuple[SeatBot, FakeSocket, TableReport, dict[int, float]]:
    socket, report, sent_at = FakeSocket(), TableReport(), {}
    seat = SeatBot(cast(ClientConnection, socket), WELCOME, "home", random.Random(1), report,
                   sent_at, think)
    return seat, socket, report, sent_at


async def sends(socket: FakeSocket, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
    async with asyncio.timeout(timeout):
        while len(socket.sent) < count:
            await asyncio.sleep(0.005)
    return socket.sent


async def test_acts_once_on_the_newest_state_after_thinking() -> None:
    seat, socket, report, sent_at = bot((0.15, 0.15))
    running = asyncio.create_task(seat.run())
    # Two states arrive while the bot thinks about the first: it keeps reading and acts once,
    # on the newer one.
    socket.push(state(1, [{"pick": "old"}]))
    socket.push(state(2, [{"pick": "new"}]))
    socket.push(state(2, [{"pick": "new"}]))  # the same state again: no second action
    await asyncio.sleep(0.05)
    assert socket.sent == []  # still thinking, yet everything was read
    assert [m["seq"] for m in seat.messages[1:]] == [1, 2, 2]
    [first] = await sends(socket, 1)
    assert first["seq"] == 2 and first["action"] == {"pick": "new"}
    await asyncio.sleep(0.4)
    assert len(socket.sent) == 1

    # The other side's turn: nothing to do, nothing sent.
    socket.push(state(3, []))
    await asyncio.sleep(0.3)
    assert len(socket.sent) == 1

    # A state that is overtaken by one without legal actions is never acted on.
    socket.push(state(4, [{"pick": "late"}]))
    socket.push(state(5, []))
    await asyncio.sleep(0.3)
    assert len(socket.sent) == 1

    socket.push(state(6, [{"roll": True}]))
    sent = await sends(socket, 2)
    assert sent[1]["seq"] == 6 and sent[1]["action"] == {"roll": True}

    # The game ends during a think: the bot stops and the pending action is dropped.
    socket.push(state(7, [{"pick": "never"}]))
    socket.push(state(8, [], status="finished"))
    await asyncio.wait_for(running, 2)
    await asyncio.sleep(0.3)
    assert [m["seq"] for m in socket.sent] == [2, 6]
    assert report.commands == 2 and len(report.command_times) == 2
    assert set(sent_at) == {3, 7}  # latency is keyed by the seq of the command's first event
    assert report.errors == []


async def test_think_time_is_drawn_between_min_and_max() -> None:
    seat, socket, _, _ = bot((0.1, 0.2))
    running = asyncio.create_task(seat.run())
    loop = asyncio.get_running_loop()
    for seq in range(1, 4):
        before = loop.time()
        socket.push(state(seq, [{"n": seq}]))
        await sends(socket, seq)
        waited = loop.time() - before
        assert 0.1 <= waited < 0.5, waited
    socket.push(state(4, [], status="finished"))
    await asyncio.wait_for(running, 2)


async def test_a_refused_race_roll_is_retried_on_the_same_state() -> None:
    seat, socket, report, _ = bot((0.01, 0.02))
    running = asyncio.create_task(seat.run())
    socket.push(state(1, [{"roll": True}]))
    [first] = await sends(socket, 1)
    socket.push({"type": "error", "code": "roll_rate", "message": "too fast", "id": first["id"]})
    sent = await sends(socket, 2)
    assert sent[1]["seq"] == 1 and sent[1]["id"] != first["id"]
    await asyncio.sleep(0.2)
    assert len(socket.sent) == 2  # one retry per refusal
    socket.push(state(2, [], status="finished"))
    await asyncio.wait_for(running, 2)
    assert report.errors == []  # roll_rate is expected, not a failure


async def test_without_think_time_the_bot_acts_on_every_state_at_once() -> None:
    seat, socket, _, _ = bot((0.0, 0.0))
    running = asyncio.create_task(seat.run())
    socket.push(state(1, [{"pick": "a"}]))
    socket.push(state(2, [{"pick": "b"}]))
    sent = await sends(socket, 2, timeout=0.5)
    assert [(m["seq"], m["action"]) for m in sent] == [(1, {"pick": "a"}), (2, {"pick": "b"})]
    socket.push(state(3, [], status="finished"))
    await asyncio.wait_for(running, 2)
