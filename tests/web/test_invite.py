"""Joining a started game in the browser: only with a member's invitation link."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_room, join_from_lobby, register

CATCH = """() => {
  navigator.clipboard.writeText = (t) => { window.copiedText = t; return Promise.resolve(); };
}"""


def copied(page: Any) -> str:
    """Clicks the invite button and returns what it put on the clipboard (caught in the page:
    several pages share one clipboard)."""
    page.evaluate(CATCH)
    page.click("#invite")
    page.wait_for_function("() => window.copiedText")
    return str(page.evaluate("() => window.copiedText"))


def test_a_teammate_joins_a_live_game_through_the_invite_link(open_page: Any) -> None:
    home, away, mate, stranger = (open_page(n) for n in ("home", "away", "mate", "stranger"))
    register(home, "host")
    register(away, "guest")
    room = create_room(home, "base-on-board", {"#opt-innings": "3"})
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    # Someone with the room's own link only watches: no seat is offered once the game is on.
    register(stranger, "other")
    stranger.goto(f"/rooms/{room}")
    stranger.wait_for_selector("#role[data-side='spectator']")
    assert stranger.locator("#join-home, #join-away").count() == 0
    # A home player copies its side's invitation; the link seats whoever opens it at home.
    link = copied(home)
    assert f"/rooms/{room}?side=home&invite=" in link
    register(mate, "mate")
    mate.goto(link)
    mate.click("#join-home")
    mate.wait_for_selector("#role[data-side='home']")
    assert mate.locator("#table").count() == 1
    # The away player's copy is away's invitation, not home's.
    assert "side=away&invite=" in copied(away)
