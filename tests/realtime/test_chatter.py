"""Reactions and chat over real sockets: a fixed set of emotes, a capped line, a rate limit of
its own, and two channels (a spectator's words never reach the players)."""

from __future__ import annotations

from typing import Any

from app.bots.client import guest, open_socket
from tests.support.live import LiveServer
from tests.support.table import Client, open_table


async def _until_pong(client: Client, ping_id: str) -> list[dict[str, Any]]:
    """Everything the socket is sent up to the answer to a ping sent now."""
    await client.send({"type": "ping", "id": ping_id})
    seen = []
    while True:
        message = await client.next()
        if message["type"] == "pong" and message.get("id") == ping_id:
            return seen
        seen.append(message)


async def test_players_and_spectators_talk_in_their_own_channels(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=1)
    try:
        anonymous = table.spectators[0]
        watcher_session = await guest(table.http)  # signed in, seated nowhere: a spectator
        watcher = Client(*await open_socket(live.url, table.room_id, watcher_session["token"], 0))
        home, away = table.client("home"), table.client("away")

        await home.send({"type": "react", "emote": "clap"})
        for client in (home, away, anonymous, watcher):
            heard = await client.next(lambda m: m["type"] == "reaction")
            assert heard == {"type": "reaction", "emote": "clap", "from": {
                "name": table.home_session["account"]["name"], "side": "home"}}

        await away.send({"type": "chat", "text": "  good   game  "})
        for client in (home, away, anonymous, watcher):
            heard = await client.next(lambda m: m["type"] == "chat")
            assert heard["text"] == "good game" and heard["from"]["side"] == "away"

        # A spectator's words reach spectators only.
        await watcher.send({"type": "chat", "text": "walk him"})
        for client in (watcher, anonymous):
            heard = await client.next(lambda m: m["type"] == "chat")
            assert heard["text"] == "walk him" and heard["from"]["side"] is None
        for n, client in enumerate((home, away)):
            assert not [m for m in await _until_pong(client, f"p{n}")
                        if m["type"] in ("chat", "reaction")]

        # Refusals: each typed, none closes the socket.
        await anonymous.send({"type": "chat", "text": "hello"})
        assert (await anonymous.error())["code"] == "sign_in_required"
        for bad in ({"type": "react", "emote": "rude"}, {"type": "chat", "text": "x" * 201},
                    {"type": "chat", "text": "bell\u0007"}, {"type": "chat", "text": "   "},
                    {"type": "chat", "text": 5}):
            await away.send(bad)
            assert (await away.error())["code"] == "bad_message", bad
        # A flood is cut by its own bucket (burst 4 at 0.5/s), and moves still go through.
        for _ in range(6):
            await watcher.send({"type": "react", "emote": "wow"})
        assert (await watcher.error())["code"] == "chat_rate"
        await table.step()
    finally:
        await watcher.close()
        await table.close()
