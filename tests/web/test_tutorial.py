"""The interactive tutorials (/tutorial/<game>): each runs to its end at phone size in English
and in Korean, the move to make always on screen, only that move going on, and no English on
the Korean pages outside codes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import ON_SCREEN
from tests.web.korean import english_in_korean

TUTORIALS = Path(__file__).resolve().parents[2] / "static" / "tutorials"
GAMES = ("base-on-board", "bottom-of-the-9th")


def steps_of(game: str) -> list[dict[str, Any]]:
    return list(json.loads((TUTORIALS / f"{game}.json").read_text("utf-8"))["steps"])


def at_step(page: Any, index: int) -> None:
    page.wait_for_selector(f"#tutorial-say[data-step='{index}']")


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("game", GAMES)
def test_the_tutorial_runs_to_its_end_on_a_phone(open_page: Any, game: str, locale: str) -> None:
    korean = locale.startswith("ko")
    page = open_page("learner", locale=locale, phone=True)
    page.goto(f"/tutorial/{game}")
    steps = steps_of(game)
    tried_wrong = went_back = False
    for index, step in enumerate(steps):
        at_step(page, index)
        assert page.locator("#tutorial-say [data-say]").count() == len(step["say"])
        if korean:
            found = english_in_korean(page)
            assert found == [], (index, found)
            pitched = page.locator("#tutorial-say [data-say='tut.ninth.pitched']")
            if pitched.count():
                # The particle follows the pitch face's words as read ("코너를", "볼을").
                said = pitched.inner_text()
                assert re.search(r"(코너를|볼을|스트라이크를) 던졌습니다", said), said
        if step["expect"] is None:
            break
        button = page.locator("#table button.expected")
        assert button.count() == 1, index
        assert json.loads(button.get_attribute("data-act")) == step["expect"]
        why = button.evaluate(ON_SCREEN)
        assert why == "", (index, why)
        wrong = page.locator("#table button[data-act][aria-disabled='true']")
        if not tried_wrong and wrong.count():
            # Another move only says, gently, which one the lesson waits for.
            wrong.first.click(force=True)  # dimmed (aria-disabled), still pressable
            page.wait_for_selector("#table .bar-note .note")
            assert page.locator("#tutorial-say").get_attribute("data-step") == str(index)
            tried_wrong = True
        if index == 2 and not went_back:
            page.click("#tut-back")
            at_step(page, 1)
            page.click("#tut-next")
            at_step(page, 2)
            assert page.locator("#tut-next").is_disabled()
            went_back = True
        page.locator("#table button.expected").click()
    done = page.locator("[data-testid='tutorial-done']")
    assert done.count() == 1
    assert page.locator("#tut-play").evaluate(ON_SCREEN) == ""
    assert page.get_attribute("#tut-rules", "href") == f"/rules/{game}"
    assert tried_wrong and went_back
    page.click("#tut-restart")
    at_step(page, 0)


def test_the_lobby_and_the_rules_lead_to_the_tutorials(open_page: Any) -> None:
    page = open_page("visitor", locale="ko-KR", phone=True)
    page.goto("/")
    page.wait_for_selector("#learn a[data-tutorial]")
    assert page.locator("#learn a[data-tutorial]").count() == len(GAMES)
    assert english_in_korean(page) == []
    page.goto("/rules")
    page.wait_for_selector("#rules-list a.tut-link")
    assert page.locator("#rules-list a.tut-link").count() == len(GAMES)
    page.goto("/rules/bottom-of-the-9th")
    page.click("#rules-tutorial")
    page.wait_for_url("**/tutorial/bottom-of-the-9th")
    at_step(page, 0)
    page.goto("/tutorial")
    page.wait_for_selector("#tutorial-list a")
    assert english_in_korean(page) == []


def test_the_tutorial_goes_on_from_the_keyboard(open_page: Any) -> None:
    page = open_page("keys")
    page.goto("/tutorial/bottom-of-the-9th")
    at_step(page, 0)
    page.locator("#table button.expected").focus()
    for index in range(1, 4):
        page.keyboard.press("Enter")
        at_step(page, index)
        # Focus lands on the next move to make: Enter, Enter, Enter walks the lesson.
        assert page.evaluate("document.activeElement.classList.contains('expected')"), index
    assert "(the move to make)" in page.inner_text("#table button.expected")
