"""Korean: particles follow the word before them, no page shows English outside codes and
names, and Korean draws with the site's own font on a machine without any CJK font."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.support.table import open_table
from tests.web.conftest import ARGS, CHROMIUM, PHONE, WebServer
from tests.web.helpers import create_room, register
from tests.web.korean import english_in_korean

PARTICLES = [
    ("베테랑 유성철", "를", "을"), ("속삭임 한지우", "을", "를"), ("홈", "가", "이"),
    ("원정", "가", "이"), ("Tigers", "이", "가"), ("Bob", "가", "이"), ("SB2", "을", "를"),
    ("M01", "를", "을"), ("HR", "를", "을"), ("3", "를", "을"), ("투수", "은", "는"),
    ("감독", "는", "은"), ("서울", "으로", "로"), ("부산", "로", "으로"), ("바다", "으로", "로"),
    ("거포 조석훈", "와", "과"), ("투구 주사위", "을", "를"),
]


def test_particles_follow_the_last_sound(open_page: Any) -> None:
    page = open_page("words", locale="ko-KR")
    page.goto("/rules")
    got = page.evaluate("""async (cases) => {
      const { particle } = await import("/static/js/korean.js");
      const { t } = await import("/static/js/i18n.js");
      return { each: cases.map(([word, asked]) => particle(word, asked)),
               filled: t("pbp.b9.picked", { side: "원정", card: "베테랑 유성철" }) };
    }""", [[w, asked] for w, asked, _ in PARTICLES])
    assert got["each"] == [want for _, _, want in PARTICLES]
    assert got["filled"] == "원정이 베테랑 유성철을 고름"


def finished_game(url: str) -> dict[str, Any]:
    async def play() -> dict[str, Any]:
        table = await open_table(url, "bottom-of-the-9th", {"setup": "random"}, spectators=0)
        try:
            await table.play_out()
            return {"game": table.game_id, "home": table.home_session["account"]["name"]}
        finally:
            await table.close()

    with ThreadPoolExecutor(1) as pool:  # away from the browser tests' running event loop
        return pool.submit(asyncio.run, play()).result()


def test_korean_pages_show_no_english_outside_codes(open_page: Any, web: WebServer) -> None:
    played = finished_game(web.url)
    visitor = open_page("visitor", locale="ko-KR", phone=True)
    page = open_page("player", locale="ko-KR", phone=True)
    name = register(page, "hong")
    create_room(page, "base-on-board", {"#opt-innings": "3", "#opt-fast-play": True})
    looked = []
    for who, path, ready in [
        (page, "/", "#rooms li.room"),
        (page, "/rules", "#rules-list"),
        (page, "/rules/base-on-board", "#rules[aria-busy='false']"),
        (page, "/rules/bottom-of-the-9th", "#rules[aria-busy='false']"),
        (page, "/leaderboard", "#lb-body[aria-busy='false']"),
        (page, "/leaderboard?game=bottom-of-the-9th", "#lb-body[aria-busy='false']"),
        (page, f"/players/{name}", "#player-stats"),
        (page, f"/games/{played['game']}", "#record-pbp li"),
        (visitor, f"/players/{played['home']}", "#recent-games"),
        (visitor, "/signin", "#device-limit"),
    ]:
        who.goto(path)
        who.wait_for_selector(ready)
        found = english_in_korean(who)
        assert found == [], (path, found)
        looked.append(path)
    # The record's replay: step back and forth, the dice of each pitch in Korean.
    page.goto(f"/games/{played['game']}")
    page.wait_for_selector("#replay-view")
    page.click("#replay-first")
    assert page.inner_text("#replay-step") == "경기 시작"
    page.click("#replay-next")
    assert "구 중 1구 후" in page.inner_text("#replay-step")
    assert page.locator("[data-testid='replay-dice'] .replay-die").count() >= 2
    assert english_in_korean(page) == []
    assert len(looked) == 10


def test_korean_draws_with_the_sites_font_without_a_cjk_font(
    browser: Any, web: WebServer, tmp_path: Path
) -> None:
    # fontconfig sees only DejaVu (Latin, Greek, Cyrillic; no Hangul): a machine without
    # any CJK font. Chromium must then draw Korean with the site's Noto Sans KR.
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        "<dir>/usr/share/fonts/truetype/dejavu</dir>"
        f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>", encoding="utf-8")
    bare = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS,
                                       env={"FONTCONFIG_FILE": str(conf), "HOME": str(tmp_path)})
    try:
        page = bare.new_page(base_url=web.url, locale="ko-KR", viewport=PHONE)
        page.goto("/rules/bottom-of-the-9th")
        page.wait_for_selector("#rules[aria-busy='false']")
        page.evaluate("document.fonts.ready")
        cdp = page.context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        heading = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#rules h1"})
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": heading["nodeId"]})["fonts"]
        # "9회말: 게임 방법": its six syllables are drawn with the site's font.
        ours = [f for f in fonts if f["isCustomFont"]]
        assert ours and all(f["familyName"].startswith("Noto Sans") for f in ours), fonts
        assert sum(f["glyphCount"] for f in ours) >= 6, fonts
        assert page.evaluate("document.fonts.check('16px \"Noto Sans KR\"', '가')")
        page.screenshot(path=str(tmp_path / "no-cjk-font.png"))
    finally:
        bare.close()
