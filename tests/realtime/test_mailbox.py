"""The socket writer's queue: in order, wakes its one reader, survives a cancelled wait, and
costs a small part of what ``asyncio.Queue`` costs an idle socket."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest

from app.realtime.mailbox import Mailbox


async def test_items_come_out_in_the_order_they_went_in() -> None:
    box: Mailbox[int] = Mailbox()
    for n in range(5):
        box.put_nowait(n)
    assert box.qsize() == 5
    assert [await box.get() for _ in range(5)] == [0, 1, 2, 3, 4]
    assert box.qsize() == 0


async def test_a_waiting_reader_wakes_for_the_next_item() -> None:
    box: Mailbox[str] = Mailbox()
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0.01)
    assert not reader.done()
    box.put_nowait("a")
    box.put_nowait("b")
    assert await asyncio.wait_for(reader, 1) == "a"
    assert await box.get() == "b"


async def test_the_reader_counts_as_waiting_only_while_it_waits_on_nothing_queued() -> None:
    box: Mailbox[str] = Mailbox()
    assert not box.reader_waiting()  # no reader yet
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert box.reader_waiting()
    box.put_nowait("a")
    assert not box.reader_waiting()  # woken, not yet run: the item is its
    assert await reader == "a"
    assert not box.reader_waiting()


async def test_a_cancelled_wait_loses_nothing() -> None:
    box: Mailbox[str] = Mailbox()
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0.01)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    box.put_nowait("kept")
    assert await asyncio.wait_for(box.get(), 1) == "kept"


async def test_a_second_reader_is_refused() -> None:
    box: Mailbox[int] = Mailbox()
    first = asyncio.create_task(box.get())
    await asyncio.sleep(0.01)
    with pytest.raises(RuntimeError):
        await box.get()
    box.put_nowait(1)
    assert await asyncio.wait_for(first, 1) == 1


async def test_an_idle_mailbox_costs_a_fraction_of_an_asyncio_queue() -> None:
    def traced(make: type) -> int:
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            kept = [make() for _ in range(200)]
            size = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert len(kept) == 200
        return size

    queue, box = traced(asyncio.Queue), traced(Mailbox)
    assert box * 5 < queue, (box, queue)
