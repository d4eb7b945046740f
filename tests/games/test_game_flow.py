"""A full game by hand: the log, the pitch table, fairness, summaries and the player page agree."""

from __future__ import annotations

import hashlib

import httpx
from sqlalchemy import func, select

from app.db import Database
from app.engines.dice import hmac_below
from app.games.models import GameEvent, Pitch
from tests.support.live import LiveServer
from tests.support.table import open_table


async def test_full_game_log_pitches_fairness_and_summaries(live: LiveServer) -> None:
    table = await open_table(live.url, spectators=1)
    try:
        start = await table.spectators[0].next(lambda m: m["type"] == "event")
        assert start["seq"] == 1 and start["event"]["type"] == "game_start"
        seed_hash = start["event"]["seed_hash"]
        # While the game is on, the seed and the draws stay secret.
        early = (await table.http.get(f"/api/games/{table.game_id}/fairness")).json()
        assert early["seed"] is None and early["draws"] == []
        assert early["seed_hash"] == seed_hash
        await table.play_out()
        spectator = table.spectators[0]
        await spectator.next(lambda m: m["type"] == "state" and m["game"]["status"] != "live")
    finally:
        await table.close()

    async with httpx.AsyncClient(base_url=live.url) as http:
        events = (await http.get(f"/api/games/{table.game_id}/events",
                                    params={"limit": 5000})).json()["events"]
        seqs = [e["seq"] for e in events]
        assert seqs == list(range(1, len(seqs) + 1))
        assert spectator.events() == [(e["seq"], e["event"]) for e in events]
        types = [e["event"]["type"] for e in events]
        assert types[-2:] == ["game_end", "seed_reveal"]

        fair = (await http.get(f"/api/games/{table.game_id}/fairness")).json()
        seed = bytes.fromhex(fair["seed"])
        assert hashlib.sha256(seed).hexdigest() == seed_hash
        assert events[-1]["event"]["seed"] == fair["seed"]
        assert len(fair["draws"]) == fair["draw_count"] > 0
        assert [d["index"] for d in fair["draws"]] == list(range(fair["draw_count"]))
        for draw in fair["draws"]:
            assert hmac_below(seed, table.game_id, draw["index"], draw["n"]) == draw["value"]
        # Every die face in the log is one of the recomputed draws (1 + value of a d6).
        faces = [e["event"]["face"] for e in events if e["event"]["type"] == "roll"]
        assert faces == [d["value"] + 1 for d in fair["draws"] if d["n"] == 6]

        pitches = (await http.get(f"/api/games/{table.game_id}/pitches")).json()
        pitch_events = [e for e in events if e["event"]["type"] == "pitch"]
        assert [p["seq"] for p in pitches] == [e["seq"] for e in pitch_events]
        assert [p["number"] for p in pitches] == list(range(1, len(pitches) + 1))
        for row, event in zip(pitches, pitch_events, strict=True):
            record = event["event"]
            for key in ("inning", "half", "batter", "outs", "outs_after", "result", "runs",
                        "dice", "bases", "pa_result"):
                assert row[key] == record[key], key
            assert row["extras"] == {"guess": record["guess"]}

        summary = (await http.get(f"/api/games/{table.game_id}")).json()
        assert summary["status"] == "finished"
        assert summary["pitches"] == len(pitches)
        assert summary["runs"] == summary["result"]["score"]
        assert [line["inning"] for line in summary["line_score"]] == [1, 2, 3]
        away_runs = sum(line["away"] or 0 for line in summary["line_score"])
        assert away_runs == summary["result"]["score"]["away"]
        home_name = table.home_session["account"]["name"]
        assert summary["players"]["home"] == [home_name]

        page = (await http.get(f"/api/players/{home_name}")).json()
        assert page["games"] == 1 and page["recent"][0]["game_id"] == table.game_id

    database = Database(live.database_url)
    try:
        async with database.session() as db:
            stored = await db.scalar(
                select(func.count()).where(
                    GameEvent.game_id == table.game_id, GameEvent.type == "pitch"
                )
            )
            rows = await db.scalar(select(func.count()).where(Pitch.game_id == table.game_id))
        assert stored == rows == len(pitches)
    finally:
        await database.dispose()
