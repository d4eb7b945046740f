"""Base on Board against the computer in the browser: chosen in the lobby with its level, played
to the end by one person, the computer's moves arriving through the same table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import create_room, play_to_end, register


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_whole_game_against_each_level(open_page: Any, level: str) -> None:
    page = open_page("solo", phone=True)
    register(page, "sol")
    create_room(page, "base-on-board", {
        "#opt-innings": "3", "#opt-tier": "lite", "#opt-fast-play": True,
        "#opt-computer": level,
    })
    page.wait_for_selector("[data-seat='away'] .player")
    assert page.inner_text("[data-seat='away']").strip().endswith(")")
    play_to_end([page], limit_seconds=420, on_screen=True)
    page.wait_for_selector("[data-testid='game-over']")
