"""Whole games on phones (360×740): the move to make is on the screen at every turn without
scrolling, every code shown has its words, a greyed card says why, the header is one line,
and a Korean reader sees no English outside codes and names."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.web.helpers import (
    click_next,
    create_room,
    join_from_lobby,
    line_score,
    over,
    register,
)
from tests.web.korean import codes_without_words, english_in_korean

ONE_LINE_HEADER = 56  # px: the header never wraps at 360 px


def header_height(page: Any) -> float:
    return float(page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height"))


def check_table(page: Any, korean: bool, seen: dict[str, int]) -> None:
    """What every look at a player's or a watcher's table must find."""
    for root in ("#table", "#pbp"):
        assert codes_without_words(page, root) == [], f"codes without words in {root}"
    seen["codes"] += page.locator("#table [data-code], #pbp [data-code]").count()
    for card in page.locator("#table .playing-card.dimmed").all():
        why = card.locator(".why").inner_text().strip()
        assert why and card.get_attribute("aria-disabled") == "true", card.inner_html()
        seen["reasons"] += 1
    if korean:
        assert english_in_korean(page) == []


def play_on_phones(players: list[Any], watchers: list[Any], korean: set[Any],
                   limit_seconds: float = 420) -> dict[str, int]:
    """Plays until the game is over, checking before every click that the button is on the
    screen, and every few clicks the tables (tips, reasons, Korean)."""
    seen = {"clicks": 0, "codes": 0, "reasons": 0}
    deadline = time.monotonic() + limit_seconds
    while not all(over(p) for p in players):
        assert time.monotonic() < deadline, f"the game did not end after {seen['clicks']} clicks"
        acted = False
        for page in players:
            if over(page):
                continue
            if click_next(page, cards=page is players[0], on_screen=True):
                seen["clicks"] += 1
                acted = True
                if seen["clicks"] % 25 == 1:
                    for look in (page, *watchers):
                        check_table(look, look in korean, seen)
        if not acted:
            players[0].wait_for_timeout(50)
    return seen


def test_base_on_board_on_phones(open_page: Any) -> None:
    home = open_page("home", locale="ko-KR", phone=True)
    away = open_page("away", phone=True)
    watcher = open_page("watcher", locale="ko-KR", phone=True)
    register(home, "kim")
    register(away, "lee")
    room = create_room(home, "base-on-board", {"#opt-innings": "3"})
    # Before the other side comes: the table waits for an opponent (no "Loading…"), and the
    # seated host is offered no seat on the other side.
    home.wait_for_selector("[data-testid='waiting']:has-text('상대를 기다리는 중')")
    assert home.locator("#join-away, #join-home").count() == 0
    assert home.locator("#rated[data-reason='empty']").count() == 1
    watcher.goto(f"/rooms/{room}")
    join_from_lobby(away, room, "away")
    for page in (home, away, watcher):
        page.wait_for_selector("[data-testid='line-score']")
        assert header_height(page) <= ONE_LINE_HEADER
    assert home.locator("#rated[data-rated='yes']").count() == 1
    # A code's words show on hover (or a tap, which focuses it).
    term = home.locator("#table .meta [data-code='IFL']").first
    term.hover()
    assert term.locator(".tip").is_visible()
    assert "인필드플라이" in term.locator(".tip").inner_text()
    seen = play_on_phones([home, away], [watcher], korean={home, watcher})
    assert seen["clicks"] > 40 and seen["codes"] > 40 and seen["reasons"] > 0, seen
    seq = home.get_attribute("body", "data-seq")
    for page in (away, watcher):
        page.wait_for_function("s => document.body.dataset.seq === s", arg=seq)
    assert line_score(home) == line_score(away) == line_score(watcher)
    # Game over: the winner's score first ("홈 승리 5–3"), and the result box on the screen.
    result = home.locator("[data-testid='game-over'] .result").inner_text()
    found = re.search(r"(\d+)–(\d+)", result)
    assert found and int(found.group(1)) >= int(found.group(2)), result
    assert home.locator("#rematch").evaluate(
        "e => e.getBoundingClientRect().bottom <= innerHeight")
    check_table(watcher, True, seen)
    for page in (home, watcher):
        assert english_in_korean(page) == []


def test_bottom_of_the_ninth_on_phones(open_page: Any) -> None:
    home = open_page("home", phone=True)
    away = open_page("away", locale="ko-KR", phone=True)
    register(home, "park")
    register(away, "choi")
    room = create_room(home, "bottom-of-the-9th", {"#opt-setup": "choose"})
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    # The line-up picker shows every card's position and abilities beside its buttons.
    card = home.locator("#table .pick-card").first
    assert card.locator(".facts [data-code]").count() == 1  # the position, with its words
    assert card.locator(".text").inner_text().strip()
    assert card.locator("button.action").count() >= 1
    pitcher = away.locator("#table .pick-card").first
    assert "선발" in pitcher.locator(".facts").inner_text()
    seen = play_on_phones([home, away], [], korean={away})
    assert seen["clicks"] > 10 and seen["codes"] > 5, seen
    assert english_in_korean(away) == []
