"""app/web.py without a browser: pages, assets, the catalogues, records, charts, presence."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from tests.support.table import open_table
from tests.web.conftest import WebServer


def test_every_page_is_the_shell_and_assets_are_served(web_server: WebServer) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        for path in ("/", "/signin", "/leaderboard", "/rooms/x", "/players/x", "/games/x"):
            page = http.get(path)
            assert page.status_code == 200
            assert '<script type="module" src="/static/js/main.js">' in page.text
        script = http.get("/static/js/main.js")
        assert script.status_code == 200
        assert script.headers["content-type"].startswith("text/javascript")
        assert http.get("/static/css/app.css").headers["content-type"].startswith("text/css")
        for bad in ("/static/../app/settings.py", "/static/%2e%2e/app/settings.py",
                    "/static/js", "/static/nope.js"):
            assert http.get(bad).status_code == 404, bad


def test_catalogues_hold_both_languages(web_server: WebServer) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        bob = http.get("/api/catalogue/base-on-board").json()
        assert bob["dice"]["pitch"]["SM"]["ko"] == "헛스윙"
        assert bob["offense_cards"]["SB2"]["text_en"]
        ninth = http.get("/api/catalogue/bottom-of-the-9th").json()
        assert set(ninth["terms"]["inside"]) == {"en", "ko"}
        assert len(ninth["cards"]) == 20 and len(ninth["challenges"]) == 15
        assert all(set(c["name"]) == {"en", "ko"} for c in ninth["cards"].values())
        missing = http.get("/api/catalogue/chess")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_record_charts_and_presence_after_a_game(web_server: WebServer) -> None:
    async def play() -> dict[str, Any]:
        table = await open_table(web_server.url, "base-on-board", {"innings": 3}, spectators=0)
        try:
            presence = (await table.http.get(f"/api/rooms/{table.room_id}/presence")).json()
            await table.play_out()
            return {"game": table.game_id, "presence": presence,
                    "home": table.home_session["account"]["name"]}
        finally:
            await table.close()

    with ThreadPoolExecutor(1) as pool:  # away from the browser tests' running event loop
        played = pool.submit(asyncio.run, play()).result()
    assert {s["side"] for s in played["presence"]["seats"]} == {"home", "away"}
    assert all(s["connected"] for s in played["presence"]["seats"])
    with httpx.Client(base_url=web_server.url) as http:
        record = http.get(f"/api/games/{played['game']}/record").json()
        assert len(record["states"]) == len(record["seqs"]) + 1
        assert record["play_by_play"]["ko"] and record["play_by_play"]["en"]
        assert record["box_score"]["line_score"]["sides"]
        charts = http.get(f"/api/players/{played['home']}/charts").json()
        assert charts["games"][0]["game_id"] == played["game"]
        assert {d["die"] for d in charts["dice"]["base-on-board"]} == {"pitch", "bat", "hit"}
        assert charts["ratings"] == {}  # guests are not rated
        assert http.get("/api/players/nobody-here/charts").status_code == 404
