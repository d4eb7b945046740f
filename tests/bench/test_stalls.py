"""The stall detector sees a blocked loop, how long it was blocked, and what blocked it."""

from __future__ import annotations

import asyncio
import gc
import threading
import time

from bench.stalls import Detector


def _hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # a blocking call on the loop: what the detector is for


async def test_a_blocked_loop_is_one_stall_with_its_stack() -> None:
    detector = Detector()
    ticking = asyncio.get_running_loop().create_task(detector.tick())
    threading.Thread(target=detector.watch, daemon=True).start()
    try:
        await asyncio.sleep(0.1)
        _hold_the_loop(0.15)
        await asyncio.sleep(0.1)  # the tick comes back: the stall is closed
    finally:
        ticking.cancel()
    report = detector.report()
    assert report["stalls"] == 1
    stall = report["each"][0]
    assert 120 <= stall["ms"] <= 400
    assert any("_hold_the_loop" in frame for stack in stall["stacks"] for frame in stack)
    assert any(row["frame"].endswith(":_hold_the_loop") for row in report["by_innermost_frame"])


def test_collections_are_timed() -> None:
    detector = Detector()
    gc.callbacks.append(detector.on_gc)
    try:
        garbage = []
        for _ in range(200_000):
            cycle: list[object] = []
            cycle.append(cycle)
            garbage.append(cycle)
        del garbage, cycle
        gc.collect()
    finally:
        gc.callbacks.remove(detector.on_gc)
    assert detector.collections  # a full collection of 200,000 cycles takes over 5 ms
    assert detector.collections[-1]["generation"] == 2
    assert detector.collections[-1]["collected"] >= 200_000
