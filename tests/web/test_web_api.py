"""app/web.py without a browser: pages, assets, the catalogues, records, charts, presence."""

from __future__ import annotations

import asyncio
import html
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from tests.support.table import open_table
from tests.web.conftest import WebServer


def test_every_page_is_the_shell_and_assets_are_served(web_server: WebServer) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        for path in ("/", "/signin", "/leaderboard", "/rooms/x", "/players/x", "/games/x",
                     "/tutorial", "/tutorial/base-on-board"):
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
        assert ninth["positions"]["SS"] == {"en": "shortstop", "ko": "유격수"}
        assert set(ninth["pitch_faces"]) == {"B", "S", "C"} and set(ninth["usages"]) == {
            "starter", "reliever", "either"}
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
        assert len(record["dice"]) == len(record["seqs"])
        assert any(record["dice"]) and all(
            d["die"] in ("pitch", "bat", "hit") for dice in record["dice"] for d in dice)
        assert http.get("/api/players/nobody-here/charts").status_code == 404


def test_rules_pages_explain_every_code_in_both_languages(web_server: WebServer) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        for path in ("/rules", "/rules/base-on-board", "/rules/bottom-of-the-9th"):
            assert '<script type="module" src="/static/js/main.js">' in http.get(path).text
        bob = http.get("/api/catalogue/base-on-board").json()
        ninth = http.get("/api/catalogue/bottom-of-the-9th").json()
        for lang in ("en", "ko"):
            page = http.get(f"/api/rules/base-on-board?lang={lang}").json()
            assert page["title"] == {"en": "Base on Board: how to play",
                                     "ko": "베이스 온 보드: 게임 방법"}[lang]
            text = page["html"]
            assert "<script" not in text and "{{table" not in text
            for section in ("offense_cards", "defense_cards", "tokens", "results", "terms"):
                for code, entry in bob[section].items():
                    assert f'<code translate="no">{html.escape(code)}</code>' in text, code
                    assert html.escape(entry[lang]).split(" ")[0] in text, (code, lang)
            for die in ("pitch", "bat", "hit"):
                for code in bob["dice"][die]:
                    assert f'<code translate="no">{html.escape(code)}</code>' in text, code
            page = http.get(f"/api/rules/bottom-of-the-9th?lang={lang}").json()
            text = page["html"]
            for section in ("results", "pa", "terms", "positions", "pitch_faces"):
                for code, words in ninth[section].items():
                    assert f'<code translate="no">{html.escape(code)}</code>' in text, code
                    assert html.escape(words[lang]).split(":")[0].split(" ")[0] in text, code
            for card in ninth["cards"].values():
                assert html.escape(card["name"][lang]) in text
            for challenge in ninth["challenges"].values():
                assert html.escape(challenge["name"][lang]) in text
        assert http.get("/api/rules/chess?lang=en").status_code == 404
        assert http.get("/api/rules/base-on-board?lang=fr").status_code == 422


def test_the_app_shell_installs(web_server: WebServer) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        manifest = http.get("/manifest.webmanifest")
        assert manifest.headers["content-type"].startswith("application/manifest+json")
        assert manifest.json()["start_url"] == "/"
        worker = http.get("/sw.js")
        assert worker.headers["content-type"].startswith("text/javascript")
        assert worker.headers["service-worker-allowed"] == "/"
        font = http.get("/static/fonts/noto-sans-kr-regular.woff2")
        assert font.headers["content-type"] == "font/woff2" and font.content[:4] == b"wOF2"
        assert http.get("/static/icons/icon-512.png").content[:4] == b"\x89PNG"


def test_lobby_and_rating_preview_say_what_a_game_is(web_server: WebServer) -> None:
    async def play() -> dict[str, Any]:
        table = await open_table(web_server.url, "base-on-board", {"innings": 3}, spectators=0)
        try:
            lobby = (await table.http.get("/api/lobby?kind=base-on-board")).json()
            other = (await table.http.get("/api/lobby?kind=bottom-of-the-9th")).json()
            rating = (await table.http.get(f"/api/rooms/{table.room_id}/rating")).json()
            return {"room": table.room_id, "lobby": lobby, "other": other, "rating": rating}
        finally:
            await table.close()

    with ThreadPoolExecutor(1) as pool:
        played = pool.submit(asyncio.run, play()).result()
    rooms = {r["id"]: r for r in played["lobby"]["rooms"]}
    room = rooms[played["room"]]
    assert played["room"] not in {r["id"] for r in played["other"]["rooms"]}
    # Two guests: the game is live, not rated (a side with only guests), and stands at the
    # top of the first.
    assert (room["rated"], room["reason"], room["pool"]) == (False, "guest", "base-on-board:pro")
    assert room["live"]["inning"] == 1 and room["live"]["half"] in ("top", "bottom")
    assert {p["side"] for p in room["players"]} == {"home", "away"}
    assert all(p["guest"] and p["rating"] is None for p in room["players"])
    assert room["options"]["innings"] == 3 and room["timers"]["response_seconds"] > 0
    rating = played["rating"]
    assert (rating["rated"], rating["reason"]) == (False, "guest")
    with httpx.Client(base_url=web_server.url) as http:
        assert http.get("/api/rooms/nope/rating").status_code == 404
