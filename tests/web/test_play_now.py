"""Play now in the browser: wait (and stop waiting), then two players meet in one room."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import register
from tests.web.korean import english_in_korean

BUTTON = "button[data-play-now='base-on-board:lite-extended']"


def test_two_players_play_now_and_meet_in_one_room(open_page: Any) -> None:
    first, second = open_page("first", locale="ko-KR"), open_page("second")
    register(first, "quick")
    register(second, "quick")
    first.goto("/")
    first.wait_for_selector(BUTTON)
    assert english_in_korean(first) == []
    first.click(BUTTON)
    first.wait_for_selector("#play-now-cancel:visible")
    assert first.locator(BUTTON).is_hidden()
    assert "± 150" in first.text_content("#play-now-status")
    assert english_in_korean(first) == []
    first.click("#play-now-cancel")  # stops looking: the buttons are back
    first.wait_for_selector(f"{BUTTON}:visible")
    assert first.text_content("#play-now-status") == ""
    first.click(BUTTON)
    first.wait_for_selector("#play-now-cancel:visible")
    first.reload()  # coming back to the lobby resumes the wait
    first.wait_for_selector("#play-now-cancel:visible")
    second.goto("/")
    second.click(BUTTON)  # paired at once: the room opens
    second.wait_for_url("**/rooms/*")
    room = second.url.rsplit("/", 1)[1]
    first.wait_for_url(f"**/rooms/{room}", timeout=10_000)  # learnt by its 2 s poll
    second.wait_for_selector("#role[data-side='home'], #role[data-side='away']")
    first.wait_for_selector("#role[data-side='home'], #role[data-side='away']")
    sides = {p.get_attribute("#role", "data-side") for p in (first, second)}
    assert sides == {"home", "away"}
