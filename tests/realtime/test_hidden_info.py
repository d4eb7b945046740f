"""Nothing hidden reaches a socket that may not see it: not the other side's secret, not the
defense's pick before its reveal, not the seed before the end."""

from __future__ import annotations

import json

from app.bots.client import play_table
from tests.support.live import LiveServer


async def test_no_hidden_card_or_choice_reaches_the_other_side_or_spectators(
    live: LiveServer,
) -> None:
    report = await play_table(live.url, "dice-duel", {"innings": 3}, spectators=2, seed=11)
    assert report.problems == [] and report.errors == []
    home = json.dumps(report.player_messages["home"])
    away = json.dumps(report.player_messages["away"])
    assert "SECRET-home-" in home and "SECRET-away-" in away  # the check can fail
    assert "SECRET-away-" not in home and "SECRET-home-" not in away
    for log in report.spectator_messages:
        assert "SECRET-" not in json.dumps(log)

    # A pick is private to the defense: the side picking sees its choice, the others never.
    for side, messages in report.player_messages.items():
        for message in messages:
            if message["type"] == "event" and message["event"]["type"] == "picked":
                assert ("choice" in message["event"]) == (message["event"]["side"] == side)
            if message["type"] in ("state", "snapshot"):
                view = message["view"]
                if view["picked"] and message["game"]["status"] == "live":
                    # only the defense's view may carry the pick
                    assert ("pick" in view) == (side != ("away" if view["half"] == "top"
                                                          else "home"))
    for log in report.spectator_messages:
        picked = [m for m in log if m["type"] == "event" and m["event"]["type"] == "picked"]
        assert picked and all("choice" not in m["event"] for m in picked)
        for message in log:
            if message["type"] in ("state", "snapshot"):
                assert "pick" not in message["view"] and "secret" not in message["view"]
                assert message["legal_actions"] == []
            if message["type"] == "event" and message["event"]["type"] != "seed_reveal":
                assert "seed" not in message["event"]
