"""All-time SQL card usage, challenge success and SB / CS (``pitch_play``) against the pure
functions, over real Base on Board games played through the server by two accounts that swap
sides; and the game summary's line score when the home side bats first."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import httpx
import pytest

from app.db import Database
from app.sim.base_on_board import eager_choice
from app.stats.players import PlayerGame, player_stats
from tests.conftest import real_engines
from tests.stats.build import pitch
from tests.stats.test_store import T0, account, finished_game
from tests.support.live import LiveServer
from tests.support.table import Table

pytestmark = pytest.mark.skipif("base-on-board" not in real_engines(),
                                reason="base-on-board engine not importable")


async def registered(http: httpx.AsyncClient, prefix: str) -> dict[str, Any]:
    body = {"name": f"{prefix}{secrets.token_hex(4)}", "password": "correct horse"}
    response = await http.post("/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def play_game(url: str, home: dict[str, Any], away: dict[str, Any],
                    options: dict[str, Any], seed: int, kind: str = "base-on-board") -> str:
    """A game between two registered accounts, each side playing a card, challenge or
    declaration when it has one (the simulator's eager policy), else its last action (Bottom
    of the 9th: a random legal action)."""
    http = httpx.AsyncClient(base_url=url, timeout=30)
    table = Table(url, http, home, away)
    rng = random.Random(seed)
    try:
        created = await http.post("/api/rooms", json={
            "kind": kind, "options": options, "side": "home"},
            headers=table.auth("home"))
        assert created.status_code == 201, created.text
        table.room_id = created.json()["id"]
        table.home = await table.connect("home")
        table.away = await table.connect("away")
        joined = await http.post(f"/api/rooms/{table.room_id}/join", json={"side": "away"},
                                 headers=table.auth("away"))
        assert joined.status_code == 200, joined.text
        table.game_id = joined.json()["current_game_id"]
        for _ in range(5000):
            states = await table.latest_states()
            if any(s["game"]["status"] != "live" for s in states.values()):
                return table.game_id
            movers = [(side, s) for side, s in states.items() if s["legal_actions"]]
            if not movers:  # the server acts next (a timer, an automatic pass): wait for it
                newest = max(s["seq"] for s in states.values())
                state = await table.client("home").next(
                    lambda m, n=newest: m["type"] in ("state", "snapshot") and m["seq"] > n)
                table.seq = max(table.seq, state["seq"])
                continue
            side, state = movers[0]
            actions = state["legal_actions"]
            if kind != "base-on-board":
                action = rng.choice(actions)
            else:
                action = eager_choice(rng, actions) if rng.random() < 0.7 else actions[-1]
            reply = await table.act(side, action)
            while reply.get("code") == "roll_rate":  # rolls are capped per second
                await asyncio.sleep(0.3)
                reply = await table.act(side, action)
            assert reply["type"] == "ack", reply
        raise AssertionError("game did not end")
    finally:
        await table.close()


async def test_sql_card_stats_equal_the_pure_functions_over_real_games(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        a, b = await registered(http, "ca"), await registered(http, "cb")
        games = []  # (game id, a's side)
        for i in range(3):
            a_home = i % 2 == 0
            home, away = (a, b) if a_home else (b, a)
            game_id = await play_game(live.url, home, away,
                                      {"innings": 3, "tier": "pro", "fast_play": True}, 50 + i)
            games.append((game_id, "home" if a_home else "away"))
        records, winners = {}, {}
        for game_id, _ in games:
            summary = (await http.get(f"/api/games/{game_id}")).json()
            assert summary["status"] == "finished"
            winners[game_id] = summary["result"]["winner"]
            records[game_id] = (await http.get(f"/api/games/{game_id}/pitches")).json()
        for session, mine in ((a, True), (b, False)):
            name = session["account"]["name"]
            page = (await http.get(f"/api/players/{name}")).json()
            stats = page["stats"]["base-on-board:pro"]
            pure = player_stats(
                PlayerGame(records[g], side if mine else ("away" if side == "home" else "home"),
                           "finished", winners[g])
                for g, side in games
            ).to_json()
            assert stats["games"] == 3
            assert stats["batting"] == pure["batting"]  # with SB / CS
            assert stats["pitching"] == pure["pitching"]
            assert stats["cards"] == pure["cards"]
            for key in ("challenges", "challenges_won", "challenge_success_rate"):
                assert stats[key] == pure[key], key
            assert "details" not in stats
        # The games did exercise cards and challenges (both players together).
        both = player_stats(PlayerGame(records[g], s, "finished", winners[g])
                            for g, _ in games for s in ("home", "away")).to_json()
        assert sum(c["played"] for c in both["cards"].values()) > 10
        assert both["challenges"] > 0


async def test_line_score_follows_the_offense_when_home_bats_first(live: LiveServer) -> None:
    # A real game with bats_first="home": the home row holds the home side's runs.
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        home, away = await registered(http, "lh"), await registered(http, "la")
        game_id = await play_game(live.url, home, away, {
            "innings": 3, "tier": "lite", "fast_play": True, "bats_first": "home"}, 7)
        summary = (await http.get(f"/api/games/{game_id}")).json()
        records = (await http.get(f"/api/games/{game_id}/pitches")).json()
        assert {r["offense"] for r in records if r["half"] == "top"} == {"home"}
        for line in summary["line_score"]:
            for side in ("home", "away"):
                mine = [r for r in records if r["inning"] == line["inning"]
                        and r["offense"] == side]
                assert line[side] == (sum(r["runs"] for r in mine) if mine else None)
        assert summary["runs"] == summary["result"]["score"]

    # A hand-built one with known numbers: home bats first, scores 2 in the top of the 1st.
    top, bottom = "home", "away"
    records = [
        {**pitch(1, "top", 1, "pitch:C bat:HR", pa="HR", runs=1, rbi=1), "offense": top,
         "defense": bottom},
        {**pitch(1, "top", 2, "pitch:C bat:HR", pa="HR", runs=1, rbi=1), "offense": top,
         "defense": bottom},
        {**pitch(1, "top", 3, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
         "offense": top, "defense": bottom},
        {**pitch(1, "bottom", 1, "pitch:C bat:HT hit:L1", pa="1B", after=(0, 0, 0, "100")),
         "offense": bottom, "defense": top},
    ]
    database = Database(live.database_url)
    try:
        async with database.session() as db:
            h, w = await account(db, f"lsh{game_id[:6]}"), await account(db, f"lsa{game_id[:6]}")
            hand = await finished_game(
                db, {"home": [h], "away": [w]}, records,
                {"winner": "home", "score": {"home": 2, "away": 0}}, T0,
                options={"tier": "pro", "bats_first": "home", "innings": 1}, rate=False)
    finally:
        await database.dispose()
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        summary = (await http.get(f"/api/games/{hand}")).json()
    assert summary["line_score"] == [{"inning": 1, "away": 0, "home": 2}]
    assert summary["runs"] == {"home": 2, "away": 0}
