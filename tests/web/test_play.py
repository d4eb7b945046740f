"""Two players and a spectator in three browsers: full games of both kinds, by clicking."""

from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import (
    COVERED,
    click_next,
    create_room,
    join_from_lobby,
    line_score,
    over,
    play_to_end,
    register,
)


def _finish(home: Any, away: Any, watcher: Any, home_name: str, away_name: str,
            pool: dict[str, str]) -> None:
    watcher.wait_for_selector("[data-testid='game-over']")
    seq = home.get_attribute("body", "data-seq")
    for page in (away, watcher):
        page.wait_for_function("s => document.body.dataset.seq === s", arg=seq)
    scores = [line_score(p) for p in (home, away, watcher)]
    assert scores[0] == scores[1] == scores[2], scores
    assert watcher.locator("#table .hand").count() == 0
    # The record page, both players' pages and the leaderboard know the game.
    home.click("#record-link")
    home.wait_for_selector("[data-testid='record-line-score']")
    assert home.locator("#record-pbp li").count() > 0
    home.click("#verify")
    home.wait_for_selector("#verify-result:has-text('✔')")
    game_id = home.url.rsplit("/", 1)[1]
    expected_pool = pool["game"] + (f":{pool['tier']}" if "tier" in pool else "")
    for name in (home_name, away_name):
        home.goto(f"/players/{name}")
        home.wait_for_selector(f"#recent-games a[href='/games/{game_id}']")
        assert home.locator("svg[data-chart='rating']").count() == 1
        # One point per rated game of the pool, as many as the stored rating counts.
        rated = home.request.get(f"/api/players/{name}").json()["ratings"][expected_pool]
        figure = home.locator(f"#rating-charts figure[data-pool='{expected_pool}']")
        assert figure.get_attribute("data-points") == str(rated["games"])
        assert figure.locator("circle.point").count() == rated["games"]
    # The leaderboard of the game's pool, chosen with the page's selectors: both players are
    # provisional (a "?" on the rating), not ranked, and the game is among the recent games.
    home.goto("/leaderboard")
    home.select_option("#lb-game", pool["game"])
    if "tier" in pool:
        home.select_option("#lb-tier", pool["tier"])
    home.wait_for_selector(f"#lb-body[data-pool='{expected_pool}'][aria-busy='false']")
    for name in (home_name, away_name):
        row = home.locator(f"#lb-provisional tr[data-player='{name}']")
        assert row.locator("td.rating").inner_text().endswith("?")
        assert home.locator(f"#lb-established tr[data-player='{name}']").count() == 0
    game_link = home.locator(f"#lb-recent tr[data-game='{game_id}'] a[href='/games/{game_id}']")
    recent = home.locator(f"#lb-recent tr[data-game='{game_id}']").inner_text()
    assert home_name in recent and away_name in recent
    assert "game=" in home.url  # the pool is in the address
    game_link.focus()
    home.keyboard.press("Enter")
    home.wait_for_selector("[data-testid='record-line-score']")


NINTH_ROWS = {"stares": None, "direction_reads": "direction_read_rate",
              "location_reads": "location_read_rate", "full_reads": "full_read_rate",
              "races": None, "race_wins": "race_win_rate", "max_fatigue": None,
              "recoveries": None, "benched": None}


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.1f}%"


def _ninth_section_matches_api(page: Any, name: str) -> dict[str, Any]:
    """Opens ``name``'s player page and checks its Bottom of the 9th table against
    ``GET /api/players/{name}``: every count and rate as the API has it."""
    api = page.request.get(f"/api/players/{name}").json()
    pool = api["stats"]["bottom-of-the-9th"]
    ninth = pool["bottom_of_the_9th"]
    page.goto(f"/players/{name}")
    section = page.locator("section.ninth-stats[data-pool='bottom-of-the-9th']")
    section.wait_for()
    assert page.locator("section.ninth-stats").count() == 1
    assert section.locator("h2").inner_text() == "Bottom of the 9th"
    assert f"over {pool['games']} finished game" in section.locator("caption").inner_text()
    for key, rate in NINTH_ROWS.items():
        row = section.locator(f"tbody tr[data-stat='{key}']")
        assert row.locator("th[scope='row']").count() == 1
        assert row.locator("td.count").inner_text() == str(ninth[key]), key
        expected = "—" if rate is None else _percent(ninth[rate])
        assert row.locator("td.rate").inner_text() == expected, key
    # Home only bats and away only pitches: the empty line has no table.
    lines = page.locator("section.pool-stats[data-pool='bottom-of-the-9th']")
    counts = {"batting": pool["batting"]["PA"], "pitching": pool["pitching"]["pitches"]}
    for key, count in counts.items():
        assert lines.locator(f"table.{key}-table").count() == (1 if count else 0), key
    if pool["batting"]["PA"]:
        assert lines.locator("td[data-col='PA']").inner_text() == str(pool["batting"]["PA"])
    return ninth


def _lines_match_api(page: Any, name: str, pool: str) -> None:
    """On ``name``'s (open) player page, the pool's batting and pitching tables show the numbers
    of ``GET /api/players/{name}``, and its card table each card's plays and successes (or is
    absent when the side played none), with the challenges line likewise."""
    stats = page.request.get(f"/api/players/{name}").json()["stats"][pool]
    section = page.locator(f"section.pool-stats[data-pool='{pool}']")
    section.wait_for()
    assert page.locator("section.pool-stats").count() == 1
    lines = ("batting, pitching and cards" if stats["cards"] or stats["challenges"]
             else "batting and pitching")
    assert section.locator("h2").inner_text() == f"Base on Board (Pro): {lines}"
    assert f"over {stats['games']} finished game" in section.locator(
        "table.batting-table caption").inner_text()
    batting = section.locator("table.batting-table")
    pitching = section.locator("table.pitching-table")
    assert stats["batting"]["PA"] > 0 and stats["pitching"]["pitches"] > 0
    for col in ("PA", "AB", "H", "BB", "K", "R"):
        assert batting.locator(f"thead th[scope='col'][data-col='{col}']").inner_text() == col
        assert batting.locator(f"tbody td[data-col='{col}']").inner_text() == str(
            stats["batting"][col]), col
    avg = stats["batting"]["AVG"]
    expected_avg = "—" if avg is None else f"{avg:.3f}".removeprefix("0")
    assert batting.locator("tbody td[data-col='AVG']").inner_text() == expected_avg
    for col in ("pitches", "strikes", "BF", "IP", "K", "BB", "R"):
        assert pitching.locator(f"tbody td[data-col='{col}']").inner_text() == str(
            stats["pitching"][col]), col
    assert pitching.locator("tbody td[data-col='strike_pct']").inner_text() == _percent(
        stats["pitching"]["strike_pct"])
    runs = section.locator("p.runs").inner_text()
    assert f"Runs scored {stats['runs_for']}, runs allowed {stats['runs_against']}" in runs
    cards = section.locator("table.card-table")
    if stats["cards"]:
        assert cards.locator("tbody tr").count() == len(stats["cards"])
        for code, usage in stats["cards"].items():
            row = cards.locator(f"tbody tr[data-card='{code}']")
            assert row.locator("th[scope='row']").inner_text().startswith(code)
            assert row.locator("td.played").inner_text() == str(usage["played"]), code
            assert row.locator("td.succeeded").inner_text() == str(usage["succeeded"]), code
    else:
        assert cards.count() == 0
    challenges = section.locator("p.challenges")
    if stats["challenges"]:
        assert (f"{stats['challenges']} made, {stats['challenges_won']} won"
                in challenges.inner_text())
    else:
        assert challenges.count() == 0


def test_base_on_board_three_innings(open_page: Any) -> None:
    home, away, watcher = open_page("home"), open_page("away", phone=True), open_page("watcher")
    home_name, away_name = register(home, "ann"), register(away, "bob")
    room = create_room(home, "base-on-board", {
        "#opt-innings": "3", "#opt-fast-play": True, "#opt-home-name": "Tigers",
    })
    watcher.goto(f"/rooms/{room}")
    watcher.wait_for_selector("#role[data-side='spectator']")
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    watcher.wait_for_selector("[data-testid='line-score']")
    assert "Tigers" in watcher.inner_text("[data-testid='line-score']")
    home.click("#invite")
    # The message takes the action bar's message line: it covers no button.
    note = "#table [data-toast-sink]"
    home.wait_for_selector(f"{note}:has-text('Invite link copied')")
    assert home.evaluate(COVERED, note) == []
    # A seated player's link invites a teammate to its own side of the live game.
    link = home.evaluate("navigator.clipboard.readText()")
    assert f"/rooms/{room}?side=home&invite=" in link and len(link.rsplit("=", 1)[1]) >= 16
    play_to_end([home, away], card_players=(home,))
    _finish(home, away, watcher, home_name, away_name,
            {"game": "base-on-board", "tier": "pro"})
    # A player with Base on Board games only has no Bottom of the 9th section.
    home.goto(f"/players/{home_name}")
    home.wait_for_selector("#recent-games")
    assert home.locator("section.ninth-stats").count() == 0
    assert home.request.get(f"/api/players/{home_name}").json()["stats"].keys() == {
        "base-on-board:pro"}
    # Its batting and pitching lines and cards are the API's numbers; it played every card it
    # was offered, so its card table has rows.
    _lines_match_api(home, home_name, "base-on-board:pro")
    assert home.locator("section.pool-stats table.card-table tbody tr").count() > 0
    # The Korean phone page has the Korean captions and does not scroll sideways.
    korean = open_page("korean", locale="ko-KR", phone=True)
    korean.goto(f"/players/{home_name}")
    section = korean.locator("section.pool-stats[data-pool='base-on-board:pro']")
    section.wait_for()
    n = home.request.get(f"/api/players/{home_name}").json()["stats"]["base-on-board:pro"]["games"]
    # A visitor reads whose side the lines are (the player's own page says "우리 편").
    captions = {"batting": f"끝난 {n}경기의 {home_name} 편 타격 기록",
                "pitching": f"끝난 {n}경기의 {home_name} 편 투구 기록"}
    for key, caption in captions.items():
        assert section.locator(f"table.{key}-table caption").inner_text() == caption
    assert section.locator("table.batting-table th[data-col='PA']").inner_text() == "타석"
    width = korean.evaluate("document.documentElement.scrollWidth")
    assert width <= korean.viewport_size["width"] + 1, "the player page scrolls sideways"


# Every play-by-play line is of the game the page shows: none is numbered past its seq.
PBP_OF_THIS_GAME = """() => [...document.querySelectorAll('#pbp li')]
  .every((li) => Number(li.dataset.seq) <= Number(document.body.dataset.seq))"""


def test_bottom_of_the_ninth(open_page: Any) -> None:
    home, away = open_page("home"), open_page("away")
    watcher = open_page("watcher", locale="ko-KR", phone=True)
    home_name, away_name = register(home, "cat"), register(away, "dan")
    room = create_room(home, "bottom-of-the-9th", {"#opt-setup": "choose"})
    watcher.goto(f"/rooms/{room}")
    join_from_lobby(away, room, "away")
    watcher.wait_for_selector("[data-testid='line-score']")
    assert watcher.inner_text("#room-title").startswith("9회말")
    # The role, and once a heartbeat has counted them, how many watch (" · 1명 관전 중").
    assert re.fullmatch(r"관전 중( · \d+명 관전 중)?", watcher.inner_text("#role"))
    # From the keyboard: tab to the first choice offered and press Enter.
    seq = home.get_attribute("body", "data-seq")
    home.focus("#table button.action:not([disabled])")
    home.keyboard.press("Enter")
    home.wait_for_function("s => Number(document.body.dataset.seq) > Number(s)", arg=seq)
    play_to_end([home, away])
    # A rematch is offered by one side and accepted by the other; the next game starts for
    # everyone there, with the sides swapped.
    away.click("#rematch")
    home.wait_for_selector("[data-testid='rematch-offer']")
    home.click("#rematch")
    for page in (away, watcher, home):
        page.wait_for_selector("[data-testid='game-over']", state="detached")
    home.wait_for_selector("#role[data-side='away']")
    away.wait_for_selector("#role[data-side='home']")
    assert watcher.locator("#table .stare-grid").count() == 0
    # The play-by-play is the new game's (its events are numbered from 1 again): no line of
    # the last game stays.
    for page in (away, watcher, home):
        page.wait_for_function(PBP_OF_THIS_GAME)
    play_to_end([home, away])
    _finish(home, away, watcher, home_name, away_name, {"game": "bottom-of-the-9th"})
    # Both players' pages show the Bottom of the 9th stats the API returns (two games, with
    # a stare-down before every pitch), and the Korean phone page has the Korean heading.
    for name in (home_name, away_name):
        ninth = _ninth_section_matches_api(home, name)
        assert ninth["stares"] > 0
    watcher.goto(f"/players/{away_name}")
    section = watcher.locator("section.ninth-stats[data-pool='bottom-of-the-9th']")
    section.wait_for()
    assert section.locator("h2").inner_text() == "9회말"
    assert "응시" in section.locator("caption").inner_text()
    assert section.locator("tr[data-stat='race_wins'] th").inner_text() == "주루 경쟁 승리"
    width = watcher.evaluate("document.documentElement.scrollWidth")
    assert width <= watcher.viewport_size["width"] + 1, "the player page scrolls sideways"


def test_dropped_connection_recovers(open_page: Any) -> None:
    home, away = open_page("home"), open_page("away")
    register(home, "eve")
    register(away, "fay")
    # The link is cut and restored from outside the page: every socket of the home page goes
    # through this route, which reaches the server only while the network is "up" (Chromium's
    # offline emulation does not reliably stop sockets to 127.0.0.1).
    live: list[Any] = []
    down: list[Any] = []
    network = {"up": True}

    def route(socket: Any) -> None:
        if network["up"]:
            socket.connect_to_server()
            live.append(socket)
        else:
            down.append(socket)

    home.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)
    room = create_room(home, "base-on-board", {"#opt-innings": "3", "#opt-fast-play": True})
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    for _ in range(6):
        click_next(home)
        click_next(away)
    # The link goes away: the socket drops, and while the network is down every new socket
    # reaches no server (its hello is never answered), so the client stays reconnecting.
    network["up"] = False
    for socket in live:
        socket.close()
    home.wait_for_selector("#conn[data-status='reconnecting']", state="visible")
    assert "reconnecting" in home.inner_text("#conn")
    for _ in range(6):  # the other side plays on meanwhile (until it waits for this one)
        click_next(away)
    home.wait_for_timeout(1000)
    assert home.is_visible("#conn")
    network["up"] = True
    for socket in down:
        socket.close()
    home.wait_for_selector("#conn[data-status='online']", state="attached", timeout=20_000)
    seq = away.get_attribute("body", "data-seq")
    home.wait_for_function("s => Number(document.body.dataset.seq) >= Number(s)", arg=seq)
    assert home.is_hidden("#conn")
    assert line_score(home) == line_score(away) or over(home)
    # ...and play goes on from the caught-up state.
    for _ in range(4):
        click_next(home)
        click_next(away)
    home.wait_for_function(
        "s => Number(document.body.dataset.seq) > Number(s)", arg=seq)
