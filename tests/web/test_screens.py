"""Screens that confused people: the text of table events (a subject on every line, the crush
result, the winner's score first), the rules pages, the lobby, scroll hints and dark mode."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_room, register

EVENT_TEXTS = """async () => {
  const { h } = await import("/static/js/dom.js");
  const { loadCatalogue } = await import("/static/js/catalogue.js");
  const { ninthEventText } = await import("/static/js/tables/ninth.js");
  const { bobEventText } = await import("/static/js/tables/bob.js");
  const { gameOverText } = await import("/static/js/tables/common.js");
  const who = (side) => (side === "home" ? "Tigers" : "Bears");
  const text = (nodes) => h("div", {}, nodes).textContent;
  const ninth = await loadCatalogue("bottom-of-the-9th");
  const bob = await loadCatalogue("base-on-board");
  const b9 = [
    { type: "play_ball", lineup: ["B01", "B03"], starter: "P01" },
    { type: "stare_chosen", side: "away" },
    { type: "pitch_roll", control: 3, pitch: "S" },
    { type: "swing_roll", swing: 4, control: 3, result: "contact" },
    { type: "swing_roll", swing: 6, crush: 4, result: "CR:1B" },
    { type: "swing_roll", swing: 6, crush: 6, result: "CR:HR" },
    { type: "race_start", batter_needs: 5, pitcher_needs: 4 },
    { type: "race_roll", side: "home", face: 5, decisive: true },
    { type: "race_end", winner: "home" },
    { type: "race_closed", winner: "away" },
    { type: "relief", direction: 1, location: 0 },
    { type: "bench", in: "P07" },
    { type: "pick", side: "home", card: "B05", position: "SS" },
    { type: "pick_random", side: "away" },
    { type: "game_over", winner: "home", reason: "walk-off" },
  ].map((e) => text(ninthEventText(e, ninth, who)));
  const bb = [
    { type: "roll", side: "away", die: "bat", face: "GA" },
    { type: "card", side: "home", code: "CS2" },
    { type: "challenge", side: "away", call: "SM", result: "reverse" },
    { type: "draw", side: "home", count: 1 },
    { type: "card_returned", side: "away", code: "RNH" },
    { type: "half_start", inning: 2, half: "top", offense: "away" },
  ].map((e) => text(bobEventText(e, bob, who)));
  return {
    b9, bb,
    homeWins: text(gameOverText(
      { winner: "home", score: { home: 2, away: 1 }, reason: "final" }, who)),
    awayWins: text(gameOverText({ winner: "away", score: { home: 1, away: 3 } }, who)),
    tie: text(gameOverText({ winner: null, score: { home: 4, away: 4 } }, who)),
  };
}"""


def test_every_line_has_a_subject_and_the_winner_leads_the_score(open_page: Any) -> None:
    page = open_page("texts")
    page.goto("/rules")
    got = page.evaluate(EVENT_TEXTS)
    b9, bb = got["b9"], got["bb"]
    for line in b9 + bb:
        assert "Tigers" in line or "Bears" in line, line  # who did it
    crush_single, crush_home_run = b9[4], b9[5]
    assert "crush! bonus die 4" in crush_single and crush_single.endswith("crushed for a single")
    assert crush_home_run.endswith("crushed for a home run")
    assert b9[2].startswith("Bears (pitcher) rolls")
    assert b9[3].startswith("Tigers (batter) swings")
    assert got["homeWins"] == "Tigers wins 2–1 (final)"
    assert got["awayWins"] == "Bears wins 3–1"
    assert got["tie"] == "Tie game 4–4"


def test_rules_pages_on_a_phone(open_page: Any) -> None:
    page = open_page("reader", phone=True)
    page.goto("/rules")
    games = page.locator("#rules-list li")
    assert games.count() == 2
    page.click("#rules-list a[href='/rules/bottom-of-the-9th']")
    page.wait_for_selector("#rules[aria-busy='false'][data-game='bottom-of-the-9th']")
    assert page.inner_text("#rules h1") == "Bottom of the 9th: how to play"
    assert page.evaluate("document.documentElement.scrollWidth") <= 361
    # The card tables are wider than a phone: they scroll in their box and say so.
    box = page.locator(".box:has(table[data-table='pitchers'])")
    box.wait_for()
    page.wait_for_function(
        "() => document.querySelector(\".box:has(table[data-table='pitchers'])\").dataset.overflow")
    hint = box.evaluate("e => getComputedStyle(e, '::before').content")
    assert "swipe" in hint
    page.goto("/rules/base-on-board")
    page.wait_for_selector("#rules[aria-busy='false']")
    for code in ("SB2", "GDP", "IFL", "HT", "D3"):
        assert page.locator(f"#rules code:text-is('{code}')").count() >= 1, code


def test_the_lobby_says_what_each_room_is_and_filters(open_page: Any) -> None:
    host = open_page("host")
    register(host, "lob")
    bob = create_room(host, "base-on-board", {"#opt-innings": "5", "#opt-tier": "lite",
                                             "#opt-response": "25"})
    ninth = create_room(host, "bottom-of-the-9th", {"#opt-race": "turns"}, side="away")
    visitor = open_page("visitor", phone=True)
    visitor.goto("/")
    item = visitor.locator(f"li[data-room='{bob}']")
    item.wait_for()
    facts = item.locator("[data-facts]").inner_text()
    assert "5 innings" in facts and "Lite" in facts and "25 s to answer" in facts
    assert "rated once both sides have a player" in item.inner_text()
    assert "(1500?)" in item.inner_text()  # the host's rating: a newcomer, provisional
    assert "run race in turns" in visitor.locator(f"li[data-room='{ninth}']").inner_text()
    visitor.select_option("#lobby-kind", "bottom-of-the-9th")
    visitor.wait_for_selector(f"li[data-room='{bob}']", state="detached")
    assert visitor.locator(f"li[data-room='{ninth}']").count() == 1
    assert visitor.locator("li.room[data-kind='base-on-board']").count() == 0
    assert visitor.evaluate("document.documentElement.scrollWidth") <= 361


def test_dark_mode_follows_the_system(open_page: Any) -> None:
    page = open_page("night", phone=True)
    page.emulate_media(color_scheme="dark")
    page.goto("/rules/base-on-board")
    page.wait_for_selector("#rules[aria-busy='false']")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    text = page.evaluate("getComputedStyle(document.body).color")
    assert background == "rgb(16, 21, 17)" and text == "rgb(230, 235, 228)"
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(244, 246, 242)"
