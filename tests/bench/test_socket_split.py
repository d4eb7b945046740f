"""bench/socket_split.py fits each server's steady CPU per command to its sockets a game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.socket_split import fit, main, split


def run(server: str, spectators: int, ms: float) -> dict[str, object]:
    figure = ("steady_server_cpu_ms_per_applied" if server == "ours"
              else "steady_server_cpu_ms_per_command")
    return {"server": server, "spectators_per_game": spectators, figure: ms}


def test_a_line_through_the_points_is_found_exactly() -> None:
    found = fit([(2, 1.0), (5, 1.6), (8, 2.2)])  # 0.6 + 0.2 a socket
    assert found.own == pytest.approx(0.6)
    assert found.per_socket == pytest.approx(0.2)
    assert found.residuals() == pytest.approx([0.0, 0.0, 0.0])


def test_a_point_off_the_line_shows_in_its_residual() -> None:
    found = fit([(2, 1.0), (5, 1.9), (8, 2.2)])
    assert found.residuals()[1] > 0.15
    assert sum(found.residuals()) == pytest.approx(0.0)


def test_one_socket_count_cannot_be_split() -> None:
    with pytest.raises(ValueError, match="two socket counts"):
        fit([(5, 1.6), (5, 1.7)])


def test_each_server_is_fitted_on_its_own_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    failed = {"server": "bare", "spectators_per_game": 0, "steady_server_cpu_ms_per_command": None}
    memory = {"idle_sockets": 1000}  # compare's memory line has no server
    runs = [failed, memory, run("ours", 0, 1.0), run("bare", 0, 0.3), run("ours", 3, 1.6),
            run("bare", 3, 0.45), run("ours", 6, 2.2), run("bare", 6, 0.6)]
    fits = split(runs)
    assert (fits["ours"].own, fits["ours"].per_socket) == pytest.approx((0.6, 0.2))
    assert (fits["bare"].own, fits["bare"].per_socket) == pytest.approx((0.2, 0.05))
    out = tmp_path / "compare.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in runs))
    monkeypatch.setattr("sys.argv", ["socket_split.py", str(out)])
    main()
    assert "ours / bare: own 3.0x, a socket 4.0x" in capsys.readouterr().out
