"""The page notices what it missed by itself: frames of a commit that never reach it (dropped
on the way here) are made good by a heartbeat, which carries the room's seq."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.web.helpers import click_next, create_room, join_from_lobby, register


def test_a_page_that_missed_a_commit_catches_up_at_the_heartbeat(open_page: Any) -> None:
    home, away = open_page("home"), open_page("away")
    register(home, "gil")
    register(away, "hal")
    dropping = {"on": False, "dropped": 0}

    def route(page_side: Any) -> None:
        server = page_side.connect_to_server()

        def from_server(message: str | bytes) -> None:
            kind = json.loads(message).get("type") if isinstance(message, str) else None
            if dropping["on"] and kind in ("event", "state", "update"):
                dropping["dropped"] += 1
                return
            page_side.send(message)

        server.on_message(from_server)
        page_side.on_message(lambda message: server.send(message))

    home.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)
    room = create_room(home, "base-on-board", {"#opt-innings": "3", "#opt-fast-play": True})
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    for _ in range(4):
        click_next(home)
        click_next(away)
    mover = None
    for _ in range(100):  # wait until someone has a move to make
        mover = next((p for p in (home, away)
                      if p.locator("#table button.action:not([disabled])").count()), None)
        if mover is not None:
            break
        home.wait_for_timeout(100)
    assert mover is not None
    before = int(home.get_attribute("body", "data-seq") or 0)
    dropping["on"] = True
    # One move: none of its events or state reach the home page.
    assert click_next(mover)
    away.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=before)
    seq = int(away.get_attribute("body", "data-seq") or 0)
    assert seq > before and dropping["dropped"] > 0
    assert int(home.get_attribute("body", "data-seq") or 0) == before
    dropping["on"] = False
    # A heartbeat with nothing new for the server to send waits for every third beat
    # (app.realtime.watch.TELL_ANYWAY_EVERY): three 1 s beats here, and the sync.
    home.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=seq,
                           timeout=10_000)
