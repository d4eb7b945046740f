"""What a person does in the browser, as small steps the tests share."""

from __future__ import annotations

import secrets
import time
from typing import Any

PRIORITY = (
    "#table button.action.big:not([disabled])",
    "#table button.action[data-action='pass']:not([disabled])",
    "#table button.action:not([disabled])",
)

ON_SCREEN = """e => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "not drawn";
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return `outside the window: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}`;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  return top && (top === e || e.contains(top)) ? "" : `covered by ${top?.outerHTML.slice(0, 80)}`;
}"""
"""Why an element cannot be seen and clicked where it is, without scrolling ("" when it can)."""


COVERED = """sel => {
  const note = document.querySelector(sel).getBoundingClientRect();
  return [...document.querySelectorAll("button, a, input, select")].filter((el) => {
    if (!el.checkVisibility() || el.closest(sel)) return false;
    const r = el.getBoundingClientRect();
    return r.width && r.height && r.left < note.right && note.left < r.right
      && r.top < note.bottom && note.top < r.bottom;
  }).map((el) => el.outerHTML.slice(0, 60));
}"""
"""The controls a message shown at ``sel`` lies over (there should be none)."""


def register(page: Any, prefix: str) -> str:
    name = f"{prefix}{secrets.token_hex(3)}"
    page.goto("/signin")
    page.fill("#signin-name", name)
    page.fill("#signin-password", "correct-horse-1")
    page.click("#register")
    page.wait_for_selector("#me")
    assert page.text_content("#me") == name
    return name


def create_room(page: Any, kind: str, options: dict[str, str | bool], side: str = "home") -> str:
    page.goto("/")
    page.select_option("#kind", kind)
    for field, value in options.items():
        if isinstance(value, bool):
            page.set_checked(field, value)
        elif page.eval_on_selector(field, "e => e.tagName") == "SELECT":
            page.select_option(field, value)
        else:
            page.fill(field, value)
    page.select_option("#create-side", side)
    page.click("#create-submit")
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector(f"#role[data-side='{side}']")
    return str(page.url.rsplit("/", 1)[1])


def join_from_lobby(page: Any, room_id: str, side: str) -> None:
    page.goto("/")
    page.click(f"li[data-room='{room_id}'] button[data-join='{side}']")
    page.wait_for_url(f"**/rooms/{room_id}")
    page.wait_for_selector(f"#role[data-side='{side}']")


CARD_PRIORITY = (PRIORITY[0], "#table button.action[data-action='play']:not([disabled])",
                 *PRIORITY[1:])
"""A player who plays a card whenever one is offered (so card stats have something to show)."""


class OffScreen(AssertionError):
    """The move to make was not on the screen without scrolling."""


def click_next(page: Any, cards: bool = False, on_screen: bool = False) -> bool:
    """Clicks what a player would: a roll first, else (``cards``) a card, else pass, else the
    first offered choice. With ``on_screen`` the button must be visible and uncovered where it
    is, without scrolling (as on a phone: the action bar)."""
    for selector in CARD_PRIORITY if cards else PRIORITY:
        button = page.locator(selector)
        if button.count():
            try:
                first = button.first
                if on_screen:
                    why = first.evaluate(ON_SCREEN)
                    if why:
                        # A redraw between looking and measuring is not a failure: look again.
                        page.wait_for_timeout(100)
                        why = first.evaluate(ON_SCREEN) if first.count() else ""
                    if why:
                        raise OffScreen(f"{first.inner_text()!r} at seq "
                                        f"{page.get_attribute('body', 'data-seq')}: {why}")
                first.click(timeout=1500)
                return True
            except OffScreen:
                raise
            except Exception:
                return False
    return False


def over(page: Any) -> bool:
    return bool(page.locator("[data-testid='game-over']").count())


def play_to_end(players: list[Any], limit_seconds: float = 300,
                card_players: tuple[Any, ...] = (), on_screen: bool = False,
                by_page: list[int] | None = None) -> int:
    """Clicks each page's next move in turn until every page shows the game over. With
    ``by_page`` (a list as long as ``players``) each pass starts one page further on, so that
    teammates on the same side take turns being first, and the clicks are counted per page."""
    deadline = time.monotonic() + limit_seconds
    clicks = 0
    passes = 0
    while not all(over(p) for p in players):
        assert time.monotonic() < deadline, f"game did not end after {clicks} clicks"
        acted = False
        start = passes % len(players) if by_page is not None else 0
        passes += 1
        for i in [*range(start, len(players)), *range(start)]:
            page = players[i]
            if not over(page) and click_next(page, cards=page in card_players,
                                             on_screen=on_screen):
                clicks += 1
                acted = True
                if by_page is not None:
                    by_page[i] += 1
        if not acted:
            players[0].wait_for_timeout(50)
    return clicks


def line_score(page: Any) -> list[list[str]]:
    """The numbers of the line score, row by row (team names differ by language)."""
    rows = page.locator("[data-testid='line-score'] tbody tr")
    return [[" ".join(c.split()) for c in rows.nth(i).locator("td").all_inner_texts()]
            for i in range(rows.count())]
