"""Property-based fuzzing of the socket (hypothesis): any message, valid or not, from a player
or a spectator, gets a typed answer, never closes the socket, and changes the game only when it
is acknowledged as applied."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.bots.client import expand
from tests.support.live import LiveServer
from tests.support.table import Client, open_table

KNOWN_CODES = {
    "bad_json", "bad_message", "unknown_type", "too_large", "spectator", "wrong_side",
    "not_seated", "not_your_turn", "illegal_action", "stale_seq", "roll_rate", "no_game",
    "game_over", "opponent_present", "conflict", "chat_rate", "sign_in_required",
    "computer_side",
}
ANSWERS = {"ack", "pong", "error", "update", "snapshot", "heartbeat", "reaction", "chat"}

texts = st.text(st.characters(codec=None), max_size=80)
"""Any code point, lone surrogates and NUL included."""
numbers = st.one_of(st.integers(), st.floats(allow_nan=False), st.booleans(), st.none())
plain = st.one_of(texts, numbers)
values = st.recursive(plain, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)), max_leaves=12)
actions = st.one_of(
    values,
    st.fixed_dictionaries({"type": st.sampled_from(["roll", "pick", "guess", "pass", "x"]),
                           "side": st.sampled_from(["home", "away", "none"])},
                          optional={"choice": st.sampled_from(["high", "low", "up"]),
                                    "extra": values}),
)
messages = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "claim", "sync", "ping", "hello", "nope", "react",
                                  "chat"])},
        optional={"id": st.one_of(texts, numbers), "seq": numbers, "last_seq": numbers,
                  "game_id": st.one_of(texts, numbers), "action": actions, "token": texts,
                  "emote": st.one_of(st.sampled_from(["clap", "gg"]), texts), "text": plain},
    ),
    values,
)


def _encode(message: Any) -> str:
    """JSON text with lone surrogates kept as escapes (what a hostile client can send)."""
    return json.dumps(message, ensure_ascii=True)


async def _exchange(client: Client, message: Any, number: int) -> list[dict[str, Any]]:
    """Sends one message, then a ping with its own id; returns what came back up to that
    ping's pong (a message is handled before the next one, so its answers come first). The
    id tells the sentinel's pong from one the fuzzed message earned, or did not."""
    sentinel = f"sentinel-{number}"
    await client.ws.send(_encode(message))
    await client.ws.send(json.dumps({"type": "ping", "id": sentinel}))
    replies = []
    async with asyncio.timeout(10):
        while True:
            reply = json.loads(await client.ws.recv())
            replies.append(reply)
            if reply["type"] == "pong" and reply.get("id") == sentinel:
                return replies


async def test_no_message_breaks_the_socket(live: LiveServer) -> None:
    # Long timers: the game moves only by what the fuzzer sends.
    table = await open_table(live.url, spectators=1,
                             timers={"response_seconds": 600, "roll_seconds": 600})
    loop = asyncio.get_running_loop()
    try:
        clients = [table.client("home"), table.client("away"), table.spectators[0]]
        for client in clients:
            await client.state_at(table.seq)

        sent = iter(range(1_000_000))

        def check(message: Any, which: int) -> None:
            client = clients[which]
            text = _encode(message)
            replies = asyncio.run_coroutine_threadsafe(
                _exchange(client, message, next(sent)), loop).result()
            for reply in replies:
                assert reply["type"] in ANSWERS, reply
                if reply["type"] == "error":
                    assert reply["code"] in KNOWN_CODES, (text, reply)
            answers = [m for r in replies for m in expand(r)]  # an ack may ride in an update
            applied = [r for r in answers if r["type"] == "ack" and r["result"] == "applied"]
            summary = asyncio.run_coroutine_threadsafe(
                table.http.get(f"/api/games/{table.game_id}"), loop).result().json()
            if applied:
                table.seq = summary["seq"]
            assert summary["seq"] == table.seq, (text, replies)

        @given(message=messages, which=st.integers(0, 2))
        @settings(max_examples=300, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(message: Any, which: int) -> None:
            check(message, which)

        await asyncio.to_thread(run)
        for client in clients:  # every socket is still open and answering
            await client.send({"type": "ping"})
            await client.next(lambda m: m["type"] == "pong")
    finally:
        await table.close()
