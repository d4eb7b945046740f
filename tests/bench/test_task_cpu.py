"""bench/task_cpu.py counts each task's steps under the kind of coroutine it runs, and changes
nothing of what the tasks do: results, failures, cancellations and the futures they wait on
pass through as they are."""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.task_cpu import Counts, install, report


async def _busy(seconds: float) -> str:
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass
    await asyncio.sleep(0)
    return "done"


async def _fails() -> None:
    await asyncio.sleep(0)
    raise ValueError("as it was")


async def _waits(future: asyncio.Future[int]) -> int:
    return await future + 1


def test_a_tasks_cpu_is_counted_under_its_coroutine_and_nothing_else_changes() -> None:
    counts = Counts()

    async def scene() -> None:
        install(asyncio.get_running_loop(), counts)
        assert await asyncio.create_task(_busy(0.05)) == "done"
        with pytest.raises(ValueError, match="as it was"):
            await asyncio.create_task(_fails())
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        waiting = asyncio.create_task(_waits(future))
        await asyncio.sleep(0)
        future.set_result(41)
        assert await waiting == 42
        stuck = asyncio.create_task(_waits(asyncio.get_running_loop().create_future()))
        await asyncio.sleep(0)
        stuck.cancel()
        with pytest.raises(asyncio.CancelledError):
            await stuck

    before = (*counts.snapshot(), time.process_time())
    asyncio.run(scene())
    after = (*counts.snapshot(), time.process_time())
    found = {kind: (seconds, steps) for kind, seconds, _share, steps
             in report(counts, before, after)["kinds"]}
    assert found["_busy"][0] >= 0.04 and found["_busy"][1] == 2
    assert found["_fails"][1] == 2 and found["_waits"][1] == 4
    assert found["_busy"][0] > found["_waits"][0]
