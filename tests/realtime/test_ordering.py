"""One writer per socket (design note 7): a socket is never sent an older state after a newer
one, nor an event twice, however often it asks to catch up while commits are in flight."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.bots.client import expand
from tests.support.live import LiveServer
from tests.support.table import Client, open_table


def check_stream(log: list[dict[str, Any]]) -> None:
    """States never go back; each event comes once, in order, without a gap (a snapshot
    replaces what the socket held and restarts the count from its seq)."""
    state_seq = 0
    event_seq: int | None = None
    for message in log:
        kind = message["type"]
        if kind in ("state", "snapshot"):
            assert message["seq"] >= state_seq, f"state {message['seq']} after {state_seq}"
            state_seq = message["seq"]
            if kind == "snapshot":
                event_seq = message["seq"]
        elif kind == "event":
            seq = message["seq"]
            if event_seq is not None:
                assert seq != event_seq and seq <= event_seq + 1, \
                    f"event {seq} after event {event_seq}"
                assert seq == event_seq + 1, f"gap: event {seq} after {event_seq}"
            event_seq = seq


async def _spam_sync(client: Client, every: float, stop: asyncio.Event) -> None:
    """What the browser does on ``stale_seq``/``conflict``: ask again from what it holds."""
    while not stop.is_set():
        held = max((m["seq"] for m in client.log if m["type"] in ("state", "snapshot", "event")),
                   default=None)
        await client.send({"type": "sync", "last_seq": held})
        await asyncio.sleep(every)


async def _read_all(client: Client, stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(client.ws.recv(), 0.5)
        except TimeoutError:
            continue
        client.log.extend(expand(json.loads(raw)))


async def test_sync_during_commits_never_goes_back(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=1,
                             timers={"response_seconds": 600, "roll_seconds": 600})
    spectator = table.spectators[0]
    stop = asyncio.Event()
    reader = asyncio.create_task(_read_all(spectator, stop))
    spammer = asyncio.create_task(_spam_sync(spectator, 0.003, stop))
    try:
        for _ in range(150):
            if await table.step() is None:
                break
        await asyncio.sleep(0.5)
    finally:
        stop.set()
        await asyncio.gather(reader, spammer, return_exceptions=True)
        await table.close()
    states = [m for m in spectator.log if m["type"] in ("state", "snapshot")]
    assert len(states) > 100
    check_stream(spectator.log)
