"""When a socket's frames arrive: what a watcher at the table can time (design note 1)."""

from __future__ import annotations

import asyncio
import json
import time

from app.bots.client import expand
from tests.support.table import Client

Arrival = tuple[int, str, float]
"""``(seq, "state" or the event's type, perf_counter at arrival)``."""


async def watch(client: Client, arrivals: list[Arrival], stop: asyncio.Event) -> None:
    """Reads ``client``'s socket until the game ends (or ``stop``), noting each arrival."""
    while not stop.is_set():
        raw = await asyncio.wait_for(client.ws.recv(), 60)
        now = time.perf_counter()
        for message in expand(json.loads(raw)):
            if message["type"] == "state":
                arrivals.append((message["seq"], "state", now))
                if message["game"]["status"] != "live":
                    return
            elif message["type"] == "event":
                arrivals.append((message["seq"], message["event"]["type"], now))


def pass_pauses(arrivals: list[Arrival], hand: set[int]) -> tuple[list[float], list[float]]:
    """Per pass event: seconds since the state that opened its window arrived, split by who
    passed (``hand``: the seqs of the states a player passed on by hand)."""
    opened: dict[int, float] = {}
    by_hand, by_server = [], []
    for seq, kind, at in arrivals:
        if kind == "state":
            opened[seq] = at
        elif kind == "pass" and seq - 1 in opened:
            (by_hand if seq - 1 in hand else by_server).append(at - opened[seq - 1])
    return by_hand, by_server
