"""Solo play in the browser: one person against the computer, with a manager challenge card."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import create_room, over, play_to_end, register


@pytest.mark.parametrize("side", ["home", "away"])
def test_a_solo_game_against_the_computer_plays_to_the_end(open_page: Any, side: str) -> None:
    page = open_page("solo")
    register(page, "sol")
    options: dict[str, str | bool] = {"#opt-mode": "solo", "#opt-solo-side": side}
    if side == "home":
        options["#opt-challenge"] = "M01"
    create_room(page, "bottom-of-the-9th", options, side=side)
    # The game starts at once: the computer holds the other side.
    page.wait_for_selector("[data-testid='line-score']")
    other = "away" if side == "home" else "home"
    assert page.locator(f"button[data-join='{other}']").count() == 0
    if side == "home":
        page.wait_for_selector("section.challenge-card[data-challenge='M01']")
    play_to_end([page], limit_seconds=240)
    assert over(page)
