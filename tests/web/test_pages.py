"""Every page renders in Korean and in English, on a phone and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import register

HEADINGS = {"en-US": ("Lobby", "Leaderboard", "Sign in"), "ko-KR": ("로비", "순위표", "로그인")}


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_pages_render_in_both_languages(open_page: Any, locale: str, phone: bool) -> None:
    page = open_page("visitor", locale=locale, phone=phone)
    lobby, board, signin = HEADINGS[locale]
    page.goto("/")
    assert page.inner_text("h1") == lobby
    # The header is one line at every width, in both languages.
    assert page.evaluate("document.querySelector('.topbar').offsetHeight") <= 56
    page.goto("/leaderboard")
    assert page.inner_text("h1") == board
    page.select_option("#lb-game", "bottom-of-the-9th")
    page.wait_for_selector("#lb-body[data-pool='bottom-of-the-9th'][aria-busy='false']")
    assert page.locator("#lb-tier").is_hidden()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, "the leaderboard scrolls sideways"
    page.goto("/signin")
    assert page.inner_text("h1") == signin
    assert page.locator("#device-limit").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, "the page scrolls sideways"


def test_language_switch_and_player_page(open_page: Any) -> None:
    page = open_page("visitor", locale="en-US", phone=True)
    name = register(page, "gus")
    page.click("#lang")
    page.wait_for_selector("h1:has-text('로비')")
    page.goto(f"/players/{name}")
    page.wait_for_selector("#player-stats")
    assert "플레이어" in page.inner_text("h1")
    page.click("#lang")
    page.wait_for_selector("h1:has-text('Player')")


def test_the_device_limit_is_explained_when_it_applies(open_page: Any) -> None:
    first = open_page("first")
    name = register(first, "hal")
    toasts = []
    for device in range(2, 5):
        page = open_page(f"device{device}", phone=True)
        page.goto("/signin")
        page.fill("#signin-name", name)
        page.fill("#signin-password", "correct-horse-1")
        page.click("#login")
        page.wait_for_selector("#me")
        toasts.append(page.locator("#toast").is_visible() and page.inner_text("#toast"))
    assert toasts[:2] == [False, False]
    assert "ended 1 older session" in toasts[2]
