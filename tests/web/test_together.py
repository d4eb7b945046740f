"""Playing together in the browser: reactions reach the other side and the watchers, a
spectator's chat stays among spectators, resign ends the game as a loss, and a rematch is an
offer the other side accepts, with the sides swapped."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_room, join_from_lobby, register


def test_react_chat_resign_and_rematch_with_sides_swapped(open_page: Any) -> None:
    home, away, watcher = open_page("home"), open_page("away"), open_page("watcher")
    register(home, "eve")
    away_name = register(away, "fay")
    register(watcher, "gil")
    room = create_room(home, "base-on-board", {"#opt-innings": "3", "#opt-fast-play": True})
    watcher.goto(f"/rooms/{room}")
    watcher.wait_for_selector("#role[data-side='spectator']")
    join_from_lobby(away, room, "away")
    for page in (home, away, watcher):
        page.wait_for_selector("[data-testid='line-score']")

    # A player's reaction reaches everyone; a spectator's words reach spectators only.
    away.click("#emotes button[data-emote='clap']")
    for page in (home, away, watcher):
        page.wait_for_selector(f"#chat-lines li.player:has-text('{away_name}')")
    watcher.fill("#chat-input", "what a pitch")
    watcher.press("#chat-input", "Enter")
    watcher.wait_for_selector("#chat-lines li.spectator:has-text('what a pitch')")
    away.fill("#chat-input", "good luck")
    away.press("#chat-input", "Enter")
    home.wait_for_selector("#chat-lines li:has-text('good luck')")
    assert "what a pitch" not in home.inner_text("#chat-lines")
    assert "what a pitch" not in away.inner_text("#chat-lines")
    # Muted, and it stays muted on this device.
    home.click("#chat-mute")
    home.wait_for_selector("#chat .hint")

    # Resign: confirmed, the game is over for everyone, a loss for the side that resigned.
    away.once("dialog", lambda dialog: dialog.accept())
    away.click("#resign")
    for page in (home, away, watcher):
        page.wait_for_selector("[data-testid='game-over']")
    assert "resigned" in away.inner_text("#pbp")

    # Rematch: away offers, home sees the offer and accepts; the sides swap.
    away.click("#rematch")
    away.wait_for_selector("#rematch[disabled]")
    home.wait_for_selector("[data-testid='rematch-offer']")
    home.click("#rematch")
    home.wait_for_selector("#role[data-side='away']")
    away.wait_for_selector("#role[data-side='home']")
    watcher.wait_for_selector("#role[data-side='spectator']")
    for page in (home, away):
        page.wait_for_function("() => !document.querySelector(\"[data-testid='game-over']\")")
