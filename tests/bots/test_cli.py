"""``bob bots`` plays whole games against a live server and checks what spectators saw."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from tests.conftest import real_engines
from tests.support.live import LiveServer


def test_bob_bots_plays_and_checks(live: LiveServer, capsys: pytest.CaptureFixture[str]) -> None:
    if "base-on-board" not in real_engines():
        pytest.skip("base-on-board engine not importable yet")
    code = main(["bots", "--url", live.url, "--game", "base-on-board", "--games", "2",
                 "--spectators", "2", "--options", '{"innings": 3}', "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0, result["failures"]
    assert result["finished"] == 2 and result["failures"] == []
    assert result["commands"] > 0 and result["latency_ms"]["samples"] > 0
