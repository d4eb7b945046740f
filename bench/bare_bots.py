"""Load for the bare server (``bench/bare.py``), in the shape of ``bob bots`` with think time.

Each table is one room with two players and ``--spectators`` spectators, every one its own
socket. The players take turns: the one whose turn it is waits the think time (uniform in
``--think-ms``), sends a command (a small JSON text, about the size of ours), and the next turn
starts once every spectator has it, so a table sends about one command a second. Tables start
spread evenly over ``--ramp`` seconds and play ``--commands`` commands each.

Latency is a command's send to the last spectator's receipt. Prints one JSON line (``finished``,
``commands``, ``frames``: what the sockets received, ``failures``) and writes the raw samples to
``--samples`` in ``bob bots``'s format (``latency_samples_ms``, ``latency_sent_at``,
``command_times``, ``tables``), so ``bench.serving.merge`` reads both.

    .venv/bin/python bench/bare_bots.py --url http://127.0.0.1:8100 --games 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.cli import parse_think_ms  # noqa: E402


def spectator_count(text: str) -> int:
    """``--spectators``: at least one, since a command's latency ends at its last spectator's
    receipt and the next turn waits for it; with none, every table waits until ``--timeout``."""
    count = int(text)
    if count < 1:
        raise argparse.ArgumentTypeError("the bare load needs at least one spectator a table: "
                                         "a command is timed to its spectators' receipt")
    return count


class Table:
    def __init__(self, index: int, seed: int) -> None:
        self.index = index
        self.rng = random.Random(seed + index)
        self.latencies: list[float] = []
        self.sent_at: list[float] = []
        self.command_times: list[float] = []
        self.frames = 0
        self.received: dict[int, int] = {}  # seq -> spectators that have it
        self.last: dict[int, float] = {}  # seq -> latest spectator receipt
        self.everyone: dict[int, asyncio.Event] = {}


async def drain(ws: ClientConnection, table: Table, spectator: bool, spectators: int) -> None:
    """Reads one socket until it closes; a spectator's reads count towards a command's
    delivery."""
    async for raw in ws:
        arrived = time.perf_counter()
        table.frames += 1
        if not spectator:
            continue
        seq = json.loads(raw)["seq"]
        table.received[seq] = table.received.get(seq, 0) + 1
        table.last[seq] = arrived
        if table.received[seq] == spectators and seq in table.everyone:
            table.everyone[seq].set()


async def play(url: str, table: Table, args: argparse.Namespace,
               think: tuple[float, float]) -> tuple[float, float]:
    room = f"{url.replace('http', 'ws', 1).rstrip('/')}/ws/rooms/{args.seed}-{table.index}"
    sockets = [await connect(room, max_size=None, max_queue=None, open_timeout=30)
               for _ in range(2 + args.spectators)]
    players, watchers = sockets[:2], sockets[2:]
    readers = [asyncio.create_task(drain(ws, table, ws in watchers, args.spectators))
               for ws in sockets]
    start = time.time()
    try:
        # seq < 0: a sync, repeated until every spectator is in the room (joins are not
        # acknowledged); not a sample.
        for seq in range(-1, -100, -1):
            table.everyone[seq] = asyncio.Event()
            await players[0].send(json.dumps({"seq": seq, "type": "sync"}))
            try:
                await asyncio.wait_for(table.everyone[seq].wait(), 1.0)
                break
            except TimeoutError:
                continue
        padding = "x" * args.payload
        for seq in range(args.commands):
            await asyncio.sleep(table.rng.uniform(*think))
            table.everyone[seq] = done = asyncio.Event()
            sent = time.perf_counter()
            table.command_times.append(time.time())
            await players[seq % 2].send(json.dumps(
                {"type": "action", "seq": seq, "action": {"kind": "pitch", "pad": padding}}
            ))
            await asyncio.wait_for(done.wait(), args.timeout)
            table.latencies.append((table.last[seq] - sent) * 1000)
            table.sent_at.append(sent - time.perf_counter() + time.time())
            del table.everyone[seq]
    finally:
        for ws in sockets:
            await ws.close()
        for task in readers:
            task.cancel()
    return start, time.time()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    think = parse_think_ms(args.think_ms)
    tables = [Table(i, args.seed) for i in range(args.games)]
    failures: list[str] = []
    spans: list[tuple[float, float]] = []

    async def one(table: Table) -> None:
        await asyncio.sleep(table.index * args.ramp / max(1, args.games))
        try:
            spans.append(await play(args.url, table, args, think))
        except Exception as exc:  # a failed table is reported, the others go on
            failures.append(f"table {table.index}: {type(exc).__name__}: {exc}")

    await asyncio.gather(*(one(t) for t in tables))
    Path(args.samples).write_text(json.dumps({
        "latency_samples_ms": [round(ms, 3) for t in tables for ms in t.latencies],
        "latency_sent_at": [round(s, 4) for t in tables for s in t.sent_at],
        "command_times": sorted(round(s, 4) for t in tables for s in t.command_times),
        "tables": [[round(a, 4), round(b, 4)] for a, b in sorted(spans)],
    }))
    return {"finished": len(spans), "commands": sum(len(t.command_times) for t in tables),
            "frames": sum(t.frames for t in tables), "failures": failures}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8100")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=spectator_count, default=3)
    parser.add_argument("--commands", type=int, default=150, help="commands per table")
    parser.add_argument("--think-ms", default="500:1500", metavar="MIN:MAX")
    parser.add_argument("--ramp", type=float, default=60.0, metavar="SECONDS")
    parser.add_argument("--payload", type=int, default=64, help="padding bytes per command")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds a command may take to reach every spectator")
    parser.add_argument("--samples", required=True, help="where to write the raw samples")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
