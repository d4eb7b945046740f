"""Who holds what a collection walks: the owners of its lists, dicts and tuples.

A census by type (``bench/stalls.py``, ``STALLS_CENSUS=1``) says a generation-0 walk at 1,000
games is mostly lists and dicts; it cannot say whose. This names each walked list, dict and
tuple by what refers to it, up to three links (``list <- dict <- RoomConnection``), so that a
pause can be traced to the code that keeps those objects alive. It walks the whole tracked heap
once, seconds at that scale: for finding out, never during a run whose latency is read.
"""

from __future__ import annotations

import gc
from collections import Counter
from types import CoroutineType, FrameType, FunctionType
from typing import Any

NAMED = (list, dict, tuple)
LINKS = 3
"""How far up an object's owners are followed: far enough to reach the instance or coroutine
that keeps a ``__dict__``'s list, not so far that every chain ends at the same module."""
TOP = 30


def _name(obj: object) -> str:
    if isinstance(obj, CoroutineType):
        return f"coroutine {obj.cr_code.co_qualname}"
    if isinstance(obj, FrameType):
        return f"frame {obj.f_code.co_qualname}"
    if isinstance(obj, FunctionType):
        return f"function {obj.__qualname__}"
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" \
        else kind.__qualname__


def owners(walked: list[Any]) -> dict[str, list[tuple[str, int]]]:
    """For each of list, dict and tuple, the most common chains of owners of the walked ones.

    An object's owner is the first tracked object found referring to it; a chain stops at an
    object that is not itself a list, dict or tuple (an instance, a coroutine), or at one with
    no tracked owner (held by a frozen start-up object, a C structure or the stack)."""
    owner_of: dict[int, Any] = {}
    for holder in gc.get_objects():
        if holder is walked:
            continue
        for held in gc.get_referents(holder):
            if type(held) in NAMED:
                key = id(held)
                if key not in owner_of and held is not holder:
                    owner_of[key] = holder
    chains: dict[str, Counter[str]] = {kind.__qualname__: Counter() for kind in NAMED}
    for obj in walked:
        if type(obj) not in NAMED:
            continue
        names = [_name(obj)]
        current = obj
        for _ in range(LINKS):
            holder = owner_of.get(id(current))
            if holder is None:
                names.append("(no tracked owner)")
                break
            names.append(_name(holder))
            if type(holder) not in NAMED:
                break
            current = holder
        chains[type(obj).__qualname__][" <- ".join(names)] += 1
    return {kind: counted.most_common(TOP) for kind, counted in chains.items()}
