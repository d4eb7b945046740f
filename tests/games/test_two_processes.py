"""Two servers on one database (as two processes would be): a move is applied once, ever."""

from __future__ import annotations

import asyncio

from app.bots.client import open_socket
from app.engine_catalog import EngineCatalog
from tests.support.live import LiveServer
from tests.support.table import Client, open_table


async def test_the_same_move_from_two_servers_is_applied_once(
    live: LiveServer, database_url: str, catalog: EngineCatalog
) -> None:
    other = LiveServer(database_url, catalog).start()
    table = await open_table(live.url, spectators=0)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        action = states[mover]["legal_actions"][0]
        mate = await table.join_teammate(mover)
        ws, welcome = await open_socket(other.url, table.room_id, mate["token"])
        remote = Client(ws, welcome)
        await remote.state_at(table.seq)
        for round_ in range(3):
            states = await table.latest_states()
            if not states[mover]["legal_actions"]:
                break
            action = states[mover]["legal_actions"][0]
            ids = (f"local-{round_}", f"remote-{round_}")
            await asyncio.gather(
                table.client(mover).send({"type": "action", "id": ids[0], "action": action}),
                remote.send({"type": "action", "id": ids[1], "action": action}),
            )
            replies = [
                await table.client(mover).next(lambda m, i=ids[0]: m.get("id") == i),
                await remote.next(lambda m, i=ids[1]: m.get("id") == i),
            ]
            kinds = sorted(r["type"] for r in replies)
            assert kinds == ["ack", "error"], replies
            error = next(r for r in replies if r["type"] == "error")
            assert error["code"] in ("not_your_turn", "illegal_action")
            ack = next(r for r in replies if r["type"] == "ack")
            # Without a shared broadcaster (Redis) one server's sockets do not hear of the
            # other's commits; "sync" reads what they missed from the database.
            for client in (table.client("home"), table.client("away"), remote):
                await client.send({"type": "sync", "last_seq": table.seq})
                await client.state_at(ack["seq"])
            table.seq = ack["seq"]
        events = (await table.http.get(f"/api/games/{table.game_id}/events",
                                    params={"limit": 5000})).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        await remote.close()
    finally:
        await table.close()
        other.stop()


async def test_a_server_holding_an_old_state_defers_to_the_database(
    live: LiveServer, database_url: str, catalog: EngineCatalog
) -> None:
    """Server A holds the game after its own move; server B then moves it on. A's next command
    is judged by the database, not by what A held: the move legal now is applied, the move
    that was legal before is refused as stale, and the log has no gap or repeat."""
    other = LiveServer(database_url, catalog, run_timers=False).start()
    table = await open_table(live.url, spectators=0)
    try:
        assert (await table.step()) is not None  # A applies a move and holds the game
        mover = next(s for s, m in (await table.latest_states()).items() if m["legal_actions"])
        ws, welcome = await open_socket(other.url, table.room_id, table.token(mover))
        remote = Client(ws, welcome)
        before = await remote.state_at(table.seq)
        old_action = before["legal_actions"][0]
        await remote.send({"type": "action", "id": "on-b", "seq": table.seq,
                           "action": old_action})
        ack = await remote.next(lambda m: m.get("id") == "on-b")
        assert ack["type"] == "ack", ack
        await remote.state_at(ack["seq"])
        # Whoever must act now does so through A, which still holds the state before B's move.
        for client in (table.client("home"), table.client("away")):
            await client.send({"type": "sync", "last_seq": table.seq})
        old_seq, table.seq = table.seq, ack["seq"]
        states = await table.latest_states()
        side = next(s for s, m in states.items() if m["legal_actions"])
        legal = states[side]["legal_actions"][0]
        applied = await table.act(side, legal, seq=ack["seq"])
        assert applied["type"] == "ack" and applied["first_seq"] == ack["seq"] + 1, applied
        stale = await table.act(mover, old_action, seq=old_seq)
        assert stale["type"] == "error" and stale["code"] == "stale_seq", stale
        events = (await table.http.get(f"/api/games/{table.game_id}/events",
                                       params={"limit": 5000})).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, applied["seq"] + 1))
        await remote.close()
    finally:
        await table.close()
        other.stop()
