"""The "zombie" seat: when a side's people are all gone past the grace period, the other side
may let the computer finish the game for them instead of claiming it. The computer then plays
that side through the same command path, the game ends by the rules, and it is recorded as
finished by the computer and rated as abandoned by the side that left."""

from __future__ import annotations

import asyncio

from app.engine_catalog import EngineCatalog
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_the_computer_finishes_for_a_side_that_left(
    database_url: str, catalog: EngineCatalog
) -> None:
    server = LiveServer(database_url, catalog, grace_seconds=0.6).start()
    try:
        table = await open_table(server.url, spectators=1,
                                 timers={"response_seconds": 600, "roll_seconds": 600,
                                         "computer_delay_ms": 20})
        try:
            home = table.client("home")
            await home.send({"type": "stand_in", "id": "too-soon"})
            assert (await home.error())["code"] == "opponent_present"
            await table.client("away").close()
            table.away = None
            await asyncio.sleep(0.9)
            await home.send({"type": "stand_in", "id": "s1"})
            ack = await home.next(lambda m: m.get("id") == "s1")
            assert ack["type"] == "ack" and ack["result"] == "applied", ack
            handed = await home.state_at(ack["seq"])
            assert handed["game"]["computer_side"] == "away"
            assert [e for _, e in home.events()][-1] == {"type": "stand_in", "side": "away"}
            await home.send({"type": "stand_in", "id": "s2"})  # once is enough
            assert (await home.error())["code"] == "opponent_present"
            # Home plays on; the computer answers for away until the game ends.
            watcher = table.spectators[0]
            for _ in range(400):
                state = await home.state_at(table.seq, timeout=20)
                if state["game"]["status"] != "live":
                    break
                if state["legal_actions"]:
                    reply = await table.act("home", state["legal_actions"][0], seq=state["seq"])
                    assert reply["type"] == "ack" or reply["code"] == "stale_seq", reply
                else:
                    table.seq = state["seq"] + 1  # wait for the computer's move
            final = await watcher.next(lambda m: m["type"] == "state"
                                       and m["game"]["status"] == "finished", timeout=30)
            result = final["game"]["result"]
            assert result["stand_in"] == "away" and result["reason"] != "claim"
            summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
            assert summary["result"] == result
        finally:
            await table.close()
    finally:
        server.stop()


def test_a_game_the_computer_finished_is_rated_as_abandoned_by_that_side() -> None:
    from app.stats.store import game_result

    teams = {"home": ["h"], "away": ["a"]}
    for winner in ("home", "away", None):  # whoever won, the side that left loses
        rated = game_result("g", "dice-duel", teams, {
            "winner": winner, "score": {}, "reason": "runs", "stand_in": "away"}, None)
        assert rated.status == "abandoned" and rated.left == "away"
