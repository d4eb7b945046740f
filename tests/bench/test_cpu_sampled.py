"""bench/cpu_sampled.py charges CPU time to the Python stack that spent it."""

from __future__ import annotations

import sys
import time
import types

import pytest

from bench import cpu_sampled
from bench.cpu_sampled import LOOP, Sampler, package, summary, where


def spin(seconds: float) -> int:
    """Pure Python work for ``seconds`` of this process's CPU time."""
    ends, n = time.process_time() + seconds, 0
    while time.process_time() < ends:
        n += sum(range(50))
    return n


def test_the_samples_add_up_to_the_cpu_time_and_land_on_the_busy_function() -> None:
    sampler = Sampler(0.001)
    sampler.start()
    spin(0.3)
    stacks = sampler.stop()
    report = summary(stacks)
    sampled = sum(stacks.values())
    # Weighed by the CPU time since the last sample, so nothing is lost however many signals
    # merged: what was sampled is the CPU time of the window, less the stretch after the last.
    assert 0.25 < sampled <= sampler.cpu_seconds + 1e-6
    busy = {name: share for name, _ms, share in report["total"]}
    assert busy["tests/bench/test_cpu_sampled.py:spin"] > 0.9


def test_each_sample_is_put_on_its_package_and_on_the_innermost_frame_of_ours() -> None:
    command = ("asyncpg/connection.py:fetchval", "app/games/one_statement.py:write",
               "app/games/commands.py:_write", "app/cli.py:_serve", "stdlib/runners.py:run")
    idle_loop = ("stdlib/runners.py:run", "app/cli.py:_serve")
    entry_only = ("uvicorn/main.py:run", "app/cli.py:_serve")
    report = summary({command: 0.006, idle_loop: 0.003, entry_only: 0.001})
    assert report["cpu_ms_sampled"] == 10.0
    assert report["package"][:2] == [["asyncpg", 6.0, 0.6], [LOOP, 3.0, 0.3]]
    ours = {name: ms for name, ms, _share in report["innermost_app"]}
    # The process's entry (app/cli.py) holds every stack; it is not what led to a sample.
    assert ours == {"app/games/one_statement.py:write": 6.0, LOOP: 3.0, "(none of app/)": 1.0}
    total = {name: ms for name, ms, _share in report["total"]}
    assert total["app/games/commands.py:_write"] == 6.0
    assert package("app/engines/base_on_board/engine.py:view") == "app/engines"
    assert package("app/errors.py:ApiError") == "app"


def test_a_run_serves_under_the_sampler_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.serving import serve_command

    for variable in ("BENCH_PROFILE", "BENCH_STALLS"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("BENCH_SAMPLES", "/tmp/samples.json")
    command = serve_command(8101, ".1")
    assert command[1].endswith("bench/cpu_sampled.py") and command[2] == "/tmp/samples.json.1"
    assert command[3:] == ["-m", "app.cli", "serve", "--port", "8101"]


def test_a_frame_of_the_imported_app_is_named_from_its_own_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worktree's bench may serve another tree's ``app`` (the one the virtualenv installs);
    its frames must still read ``app/...``, or the table of our own frames comes out empty."""
    other = types.ModuleType("app")
    other.__file__ = "/elsewhere/tree/app/__init__.py"
    monkeypatch.setitem(sys.modules, "app", other)
    monkeypatch.setattr(cpu_sampled, "_app_root", None)
    namespace: dict[str, object] = {}
    exec(compile("import sys\ndef here():\n    return sys._getframe()\n",
                 "/elsewhere/tree/app/games/commands.py", "exec"), namespace)
    frame = namespace["here"]()  # type: ignore[operator]
    assert where(frame) == "app/games/commands.py:here"
    assert where(sys._getframe()) == "tests/bench/test_cpu_sampled.py:" + (
        "test_a_frame_of_the_imported_app_is_named_from_its_own_tree")
