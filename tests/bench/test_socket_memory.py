"""bench/socket_memory.py puts each allocation on the innermost line of ours that led to it."""

from __future__ import annotations

import importlib.util
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

from bench.socket_memory import by_our_line, marginal

OURS = '''
KEPT = []


def keep(n):
    KEPT.append(make(n))


def make(n):
    return [bytearray(1000) for _ in range(n)]
'''


def test_growth_goes_to_the_innermost_line_of_ours(tmp_path: Path) -> None:
    package = tmp_path / "ours"
    package.mkdir()
    (package / "held.py").write_text(OURS)
    spec = importlib.util.spec_from_file_location("held_for_test", package / "held.py")
    assert spec is not None and spec.loader is not None
    held: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(held)
    stack_only: list[bytes] = []
    tracemalloc.start(25)
    try:
        before = tracemalloc.take_snapshot()
        held.keep(100)
        stack_only.append(bytes(50_000))  # allocated here, with no frame of ours
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    lines = dict(by_our_line(before, after, str(package), 10))
    # 100 bytearrays of 1,000 bytes made on line 10 of held.py, per each of 10 "sockets"
    assert 10_000 <= lines["ours/held.py:10"] <= 11_500
    assert "ours/held.py:6" not in lines or lines["ours/held.py:6"] < 200
    assert lines["(the stack)"] >= 5_000


def test_the_marginal_unit_leaves_out_what_both_runs_grew_alike() -> None:
    fixed = {"app/db.py:10": 50_000.0}  # a pool warming up, in both runs alike
    small = Counter({**fixed, "app/games/live.py:5": 20 * 3_000.0, "(the stack)": 20 * 100.0})
    large = Counter({**fixed, "app/games/live.py:5": 60 * 3_000.0, "(the stack)": 60 * 100.0,
                     "app/rooms/x.py:1": 800.0})
    lines = marginal(20, small, 60, large)
    assert lines[0] == ("app/games/live.py:5", 3_000.0)
    assert dict(lines) == {"app/games/live.py:5": 3_000.0, "(the stack)": 100.0,
                           "app/rooms/x.py:1": 20.0, "app/db.py:10": 0.0}
