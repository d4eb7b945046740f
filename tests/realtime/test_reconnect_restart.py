"""Reconnection with missed events, duplicate command ids, and a server restart mid-game."""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.engine_catalog import EngineCatalog
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_reconnect_gets_exactly_the_missed_events(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=1)
    try:
        for _ in range(4):
            await table.step()
        watcher = table.spectators[0]
        await watcher.state_at(table.seq)
        seen = watcher.events()
        last = seen[-1][0]
        await watcher.close()
        for _ in range(5):
            await table.step()
        back = await table.connect(None, last_seq=last)
        table.spectators = [back]
        state = await back.state_at(table.seq)
        missed = back.events()
        assert [seq for seq, _ in missed] == list(range(last + 1, table.seq + 1))
        assert state["type"] == "state" and state["seq"] == table.seq
        public = (await table.http.get(f"/api/games/{table.game_id}/events",
                                       params={"after": last})).json()["events"]
        assert missed == [(e["seq"], e["event"]) for e in public]

        # A player reconnecting gets its own side's events, private parts included.
        # (it claims to have seen only up to a few events ago).
        await table.client("home").state_at(table.seq)
        home_last = table.client("home").events()[-3][0]
        await table.client("home").close()
        table.home = await table.connect("home", last_seq=home_last)
        await table.home.state_at(table.seq)
        mine = (await table.http.get(f"/api/games/{table.game_id}/events",
                                     params={"after": home_last},
                                     headers=table.auth("home"))).json()
        assert mine["viewer"] == "home"
        assert table.home.events() == [(e["seq"], e["event"]) for e in mine["events"]]
    finally:
        await table.close()


async def test_too_far_behind_gets_a_snapshot(database_url: str, catalog: EngineCatalog) -> None:
    server = LiveServer(database_url, catalog, ws_replay_limit=3).start()
    try:
        table = await open_table(server.url, spectators=0)
        try:
            for _ in range(6):
                await table.step()
            late = await table.connect(None, last_seq=1)
            message = await late.next(lambda m: m["type"] in ("snapshot", "state", "event"))
            assert message["type"] == "snapshot" and message["seq"] == table.seq
            await late.close()
        finally:
            await table.close()
    finally:
        server.stop()


async def test_a_repeated_command_id_gets_the_first_answer(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=0)
    try:
        states = await table.latest_states()
        mover = next(s for s, m in states.items() if m["legal_actions"])
        action = states[mover]["legal_actions"][0]
        command = uuid.uuid4().hex
        first = await table.act(mover, action, command)
        again = await table.act(mover, action, command)
        assert first["type"] == again["type"] == "ack"
        assert again["duplicate"] is True and first["duplicate"] is False
        assert {k: v for k, v in again.items() if k != "duplicate"} == {
            k: v for k, v in first.items() if k != "duplicate"
        }
        summary = (await table.http.get(f"/api/games/{table.game_id}")).json()
        assert summary["seq"] == first["seq"]
    finally:
        await table.close()


def _pass_only(legal: list[dict]) -> bool:
    return [a["type"] for a in legal] == ["pass"]


RESTART_GAMES = [
    ("dice-duel", {"innings": 3}),
    ("base-on-board", {"innings": 3, "tier": "pro"}),
    ("bottom-of-the-9th", {}),
]


@pytest.mark.parametrize(("kind", "options"), RESTART_GAMES)
async def test_restart_mid_game_resumes_exactly(
    fresh_database_url: str, catalog: EngineCatalog, kind: str, options: dict
) -> None:
    if kind not in catalog.kinds:
        pytest.skip(f"{kind} engine not importable yet")
    database_url = fresh_database_url
    first = LiveServer(database_url, catalog).start()
    table = await open_table(first.url, kind, options, spectators=1)
    try:
        for _ in range(12):
            await table.step()
        # Stop where a person must act: a window the server passes by itself would be passed
        # while the server restarts.
        while any(_pass_only(s["legal_actions"]) for s in (await table.latest_states()).values()):
            await table.step()
        before_states = await table.latest_states()
        watcher_last = (await table.spectators[0].state_at(table.seq))["seq"]
        await table.close()
        first.stop()

        second = LiveServer(database_url, catalog).start()
        try:
            table.url = second.url
            table.http = httpx.AsyncClient(base_url=second.url, timeout=30)
            table.home = await table.connect("home", last_seq=table.seq)
            table.away = await table.connect("away", last_seq=table.seq)
            table.spectators = [await table.connect(None, last_seq=watcher_last)]
            after_states = await table.latest_states()
            for side in ("home", "away"):
                assert after_states[side]["view"] == before_states[side]["view"]
                assert after_states[side]["legal_actions"] == before_states[side]["legal_actions"]
            await table.play_out()
            watcher = table.spectators[0]
            await watcher.next(lambda m: m["type"] == "state" and m["game"]["status"] != "live")
            events = (await table.http.get(f"/api/games/{table.game_id}/events",
                                    params={"limit": 5000})).json()
            tail = [(e["seq"], e["event"]) for e in events["events"] if e["seq"] > watcher_last]
            assert watcher.events() == tail
            fair = (await table.http.get(f"/api/games/{table.game_id}/fairness")).json()
            assert [d["index"] for d in fair["draws"]] == list(range(fair["draw_count"]))
        finally:
            await table.close()
            second.stop()
    finally:
        first.stop()
