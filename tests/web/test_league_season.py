"""A club league's season in browsers, the issue's "done when": two clubs of two people each
play their scheduled league game, any member acting for the club, and the standings, the
leaders and both club pages update from that game.

A1 founds club A and invites A2, B1 founds club B and invites B2 (each accepts on /clubs); A1
creates a club league of Base on Board (3 innings, fast play, single round robin) on
/leagues, A1 and B1 enter their clubs with the league page's select of the clubs they own, A1
starts the season, and all four follow their "play" link to the one scheduled room.

Seating follows docs/protocol.md (*Seats*, *Clubs*): the game starts as soon as both sides hold
a member; from then on a newcomer needs the side's invitation, except a member of the side's
club. So A1 and A2 sit first, then B1 (the game starts), and B2 sits down after the start from
the room page, with no invitation.
"""

from __future__ import annotations

import secrets
from typing import Any

from tests.web.helpers import line_score, play_to_end, register
from tests.web.test_clubs import found_club


def invite_and_accept(owner: Any, mate: Any, mate_name: str, code: str) -> None:
    owner.fill("#club-invite-name", mate_name)
    owner.click("#club-invite-submit")
    owner.wait_for_selector(f"#club-pending li[data-pending='{mate_name}']")
    mate.goto("/clubs")
    mate.click(f"#my-invitations button[data-accept='{code}']")
    mate.goto(f"/clubs/{code}")
    mate.wait_for_selector(f"#club-roster li[data-member='{mate_name}'][data-role='member']")


def enter_club(owner: Any, league_url: str, label: str, entrants: int) -> None:
    owner.goto(league_url)
    owner.wait_for_selector("#lg-enter-club select#lg-club")
    assert owner.locator("#lg-club option").all_inner_texts() == [label]  # only its own club
    owner.select_option("#lg-club", label=label)
    owner.click("#lg-enter-club-submit")
    owner.wait_for_function(
        f"document.querySelectorAll('#lg-standings tr[data-entrant]').length == {entrants}")


def follow_play_link(page: Any, league_url: str) -> str:
    page.goto(league_url)
    page.wait_for_selector("#lg-schedule a.play")
    assert page.locator("#lg-schedule a.play").count() == 1  # one game: A against B
    page.click("#lg-schedule a.play")
    page.wait_for_url("**/rooms/*")
    return str(page.url.rsplit("/", 1)[1])


def sit(page: Any, side: str) -> None:
    page.click(f"#join-{side}")
    page.wait_for_selector(f"#role[data-side='{side}']")


def test_two_clubs_play_their_league_game_and_everything_counts_it(open_page: Any) -> None:
    a1, a2, b1, b2 = (open_page(n) for n in ("a1", "a2", "b1", "b2"))
    names = {p: register(p, prefix) for p, prefix in
             ((a1, "aone"), (a2, "atwo"), (b1, "bone"), (b2, "btwo"))}
    tag = secrets.token_hex(2).upper()[:3]
    code_a, code_b = f"A{tag}", f"B{tag}"
    club_a, club_b = f"Aces {tag}", f"Bats {tag}"
    found_club(a1, club_a, code_a)
    found_club(b1, club_b, code_b)
    invite_and_accept(a1, a2, names[a2], code_a)
    invite_and_accept(b1, b2, names[b2], code_b)

    # A1 creates the league: clubs, Base on Board, 3 innings, fast play, single round robin.
    a1.goto("/leagues")
    a1.wait_for_selector("#lg-create")
    league_name = f"Derby {tag}"
    a1.fill("#lg-name", league_name)
    a1.select_option("#lg-kind", "base-on-board")
    a1.select_option("#lg-type", "club")
    a1.select_option("#lg-rounds", "1")
    a1.select_option("#lg-innings", "3")
    a1.check("#lg-fast-play")
    a1.click("#lg-create-submit")
    a1.wait_for_url("**/leagues/*")
    a1.wait_for_selector("#lg-enter-club")
    league_url = a1.url
    league_id = league_url.rsplit("/", 1)[1]
    league = a1.request.get(f"/api/leagues/{league_id}").json()
    assert league["options"]["innings"] == 3 and league["options"]["fast_play"] is True

    # A member who owns no club is told so instead of being offered a select.
    a2.goto(league_url)
    a2.wait_for_selector("#lg-no-club")
    assert a2.locator("#lg-club").count() == 0

    enter_club(a1, league_url, f"{club_a} ({code_a})", 1)
    enter_club(b1, league_url, f"{club_b} ({code_b})", 2)
    a1.reload()
    a1.click("#lg-start")
    a1.wait_for_selector("#lg-schedule tr[data-game]")
    assert a1.locator("#lg-schedule tr[data-game]").count() == 1

    # Everyone follows the play link to the same room; each club's side is read from it.
    rooms = {follow_play_link(p, league_url) for p in (a1, a2, b1, b2)}
    assert len(rooms) == 1
    room_id = rooms.pop()
    clubs = a1.request.get(f"/api/rooms/{room_id}").json()["clubs"]
    side_a = next(s for s, c in clubs.items() if c["code"] == code_a)
    side_b = next(s for s, c in clubs.items() if c["code"] == code_b)
    assert {side_a, side_b} == {"home", "away"}
    sit(a1, side_a)
    a2.reload()
    sit(a2, side_a)
    b1.reload()
    sit(b1, side_b)  # both sides hold a member: the game starts
    b1.wait_for_selector("[data-testid='line-score']")
    # B2 comes after the start: a member of the side's club needs no invitation.
    b2.reload()
    b2.wait_for_selector("[data-testid='line-score']")
    sit(b2, side_b)
    a2.wait_for_selector(f"#role[data-side='{side_a}']")

    # All four play: whoever of a side sees a move first makes it.
    by_page = [0, 0, 0, 0]
    play_to_end([a1, a2, b1, b2], limit_seconds=240, by_page=by_page)
    assert all(by_page), f"clicks by a1, a2, b1, b2: {by_page}"  # every member acted
    for page in (a1, a2, b1, b2):
        page.wait_for_selector("[data-testid='game-over']")
    final = line_score(a1)
    assert final == line_score(b2)
    shown = {"away": int(final[0][-1]), "home": int(final[1][-1])}

    # The schedule and the standings count the game with its real runs.
    game = a1.request.get(f"/api/leagues/{league_id}/schedule").json()[0]
    assert game["status"] == "final"
    players = a1.request.get(f"/api/games/{game['game_id']}").json()["players"]
    assert sorted(players[side_a]) == sorted([names[a1], names[a2]])
    assert sorted(players[side_b]) == sorted([names[b1], names[b2]])
    assert (game["away_runs"], game["home_runs"]) == (shown["away"], shown["home"])
    runs = {"A": shown[side_a], "B": shown[side_b]}
    a1.goto(league_url)
    a1.wait_for_selector("#lg-schedule tr[data-status='final']")
    assert a1.locator("#lg-schedule a.play").count() == 0
    rows = {}
    for i in range(a1.locator("#lg-standings tbody tr").count()):
        cells = [c.strip() for c in
                 a1.locator("#lg-standings tbody tr").nth(i).locator("td, th").all_inner_texts()]
        club = "A" if cells[1] == club_a else "B"
        assert cells[1] == (club_a if club == "A" else club_b)
        rows[club] = {"w": int(cells[2]), "l": int(cells[3]), "t": int(cells[4]),
                      "rs": int(cells[7]), "ra": int(cells[8])}
    assert set(rows) == {"A", "B"}
    assert rows["A"]["rs"] == rows["B"]["ra"] == runs["A"]
    assert rows["B"]["rs"] == rows["A"]["ra"] == runs["B"]
    if runs["A"] == runs["B"]:
        assert rows["A"]["t"] == rows["B"]["t"] == 1
    else:
        winner, loser = ("A", "B") if runs["A"] > runs["B"] else ("B", "A")
        assert (rows[winner]["w"], rows[winner]["l"]) == (1, 0)
        assert (rows[loser]["w"], rows[loser]["l"]) == (0, 1)
    assert a1.locator("#lg-schedule tr[data-game] a.box-score").inner_text().replace(
        " ", "") == f"{shown['away']}–{shown['home']}"

    # The leaders are players of this game.
    leaders = set(a1.locator("#lg-leaders-list a[href^='/players/']").all_inner_texts())
    assert leaders, "no leaders after the game"
    assert leaders <= set(names.values()), leaders

    # Both club pages show the game in their record and recent games.
    for page, code, club in ((a2, code_a, "A"), (b2, code_b, "B")):
        page.goto(f"/clubs/{code}")
        page.wait_for_selector(f"#club-recent li[data-game='{game['game_id']}']")
        record = page.locator("#club-record")
        counts = {k: int(record.get_attribute(f"data-{k}") or 0)
                  for k in ("wins", "losses", "ties")}
        other = "B" if club == "A" else "A"
        expected = ({"wins": 0, "losses": 0, "ties": 1} if runs[club] == runs[other] else
                    {"wins": int(runs[club] > runs[other]),
                     "losses": int(runs[club] < runs[other]), "ties": 0})
        assert counts == expected
        recent = page.locator(f"#club-recent li[data-game='{game['game_id']}']").inner_text()
        assert f"{shown['away']}–{shown['home']}" in recent
        assert (club_b if club == "A" else club_a) in recent
