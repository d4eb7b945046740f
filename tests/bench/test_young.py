"""The owners census names a walked list by what keeps it alive."""

from __future__ import annotations

import asyncio

from bench.young import owners


class Keeper:
    def __init__(self) -> None:
        self.pending: list[int] = []
        self.by_name: dict[str, list[int]] = {"a": [], "b": []}


def test_a_list_is_named_by_its_keeper() -> None:
    keepers = [Keeper() for _ in range(50)]
    walked = [k.pending for k in keepers] + [k.by_name["a"] for k in keepers]
    chains = dict(owners(walked)["list"])
    held_directly = [c for c in chains if c.startswith("list <- ") and c.endswith(".Keeper")
                     and c.count("<-") == 1]
    via_a_dict = [c for c in chains if c.startswith("list <- dict <- ") and c.endswith(".Keeper")]
    assert sum(chains[c] for c in held_directly) == 50  # an instance's attribute
    assert sum(chains[c] for c in via_a_dict) == 50  # a list in a dict the instance holds
    assert sum(chains.values()) == 100


async def test_a_list_held_by_a_suspended_coroutine_names_the_coroutine() -> None:
    release = asyncio.Event()

    async def waiting() -> int:
        mine = [1, 2, 3]
        await release.wait()
        return len(mine)

    task = asyncio.get_running_loop().create_task(waiting())
    await asyncio.sleep(0)
    try:
        frame = task.get_coro().cr_frame
        assert frame is not None
        chains = dict(owners([frame.f_locals["mine"]])["list"])
        assert any("waiting" in chain for chain in chains), chains
    finally:
        release.set()
        await task
