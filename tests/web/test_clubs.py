"""The club pages in the browser: found a club, invite a member by name, the invitee accepts,
two clubs play a game from the lobby's club select (the lobby's row then shows both clubs), and
the club page then shows the roster, the record, the rating and the game; on a phone (360 px)
and in Korean too."""

from __future__ import annotations

import secrets
from typing import Any

from tests.web.helpers import play_to_end, register

ONE_LINE_HEADER = 56
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > 360.5)
  .slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className}`)"""


def found_club(page: Any, name: str, code: str) -> None:
    page.goto("/clubs")
    page.fill("#club-name", name)
    page.fill("#club-code", code)
    page.click("#create-club-submit")
    page.wait_for_url(f"**/clubs/{code}")
    page.wait_for_selector("#club-roster li[data-role='owner']")


def fits_the_screen(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(WIDE)
    assert width <= 360, f"the page is {width}px wide: {wide}"
    height = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
    assert height <= ONE_LINE_HEADER


def test_found_invite_accept_play_and_read_the_club_page(open_page: Any) -> None:
    owner = open_page("owner", phone=True)
    mate = open_page("mate", locale="ko-KR")
    rival = open_page("rival")
    owner_name = register(owner, "own")
    mate_name = register(mate, "mate")
    register(rival, "riv")
    tag = secrets.token_hex(2).upper()
    code, rival_code = f"T{tag[:3]}", f"R{tag[:3]}"

    found_club(owner, f"Tigers {tag}", code)
    assert owner.locator("#club-title").inner_text().startswith(f"Tigers {tag}")
    fits_the_screen(owner)
    found_club(rival, f"Bears {tag}", rival_code)

    # The owner invites by name; the invitee sees it on /clubs (in Korean) and accepts.
    owner.fill("#club-invite-name", mate_name)
    owner.click("#club-invite-submit")
    owner.wait_for_selector(f"#club-pending li[data-pending='{mate_name}']")
    mate.goto("/clubs")
    mate.wait_for_selector(f"#my-invitations li[data-invite='{code}']")
    assert "받은 초대" in mate.locator("#my-invitations h2").inner_text()
    mate.click(f"button[data-accept='{code}']")
    mate.wait_for_selector("#my-invitations >> text=받은 초대가 없습니다")
    mate.goto(f"/clubs/{code}")
    mate.wait_for_selector(f"#club-roster li[data-member='{mate_name}'][data-role='member']")
    assert mate.locator("#club-leave").count() == 1
    assert mate.locator("#club-invite").count() == 0  # members do not invite
    assert mate.locator("button[data-remove]").count() == 0
    owner.reload()
    owner.wait_for_selector(f"#club-roster li[data-member='{mate_name}']")
    assert owner.locator(f"button[data-remove='{mate_name}']").count() == 1
    assert owner.locator(f"button[data-remove='{owner_name}']").count() == 0
    fits_the_screen(owner)

    # Club against club from the lobby: my club at home, the rival's code for away.
    owner.goto("/")
    owner.select_option("#kind", "base-on-board")
    owner.select_option("#opt-innings", "3")
    owner.select_option("#opt-club-mine", label=f"Tigers {tag} ({code})")
    owner.fill("#opt-club-other", rival_code)
    owner.select_option("#create-side", "home")
    owner.click("#create-submit")
    owner.wait_for_url("**/rooms/*")
    owner.wait_for_selector("#role[data-side='home']")
    room = owner.url.rsplit("/", 1)[1]
    # The lobby shows the clubs a club game's sides play for, each a link to its page.
    owner.goto("/")
    home_club = owner.locator(f"li[data-room='{room}'] [data-side='home'] a.club-link")
    home_club.wait_for()
    assert home_club.inner_text() == f"Tigers {tag} ({code})"
    assert home_club.get_attribute("href") == f"/clubs/{code}"
    away_club = owner.locator(f"li[data-room='{room}'] [data-side='away'] a.club-link")
    assert away_club.inner_text() == f"Bears {tag} ({rival_code})"
    fits_the_screen(owner)
    owner.goto(f"/rooms/{room}")
    owner.wait_for_selector("#role[data-side='home']")
    rival.goto(f"/rooms/{room}")
    rival.click("#join-away")
    rival.wait_for_selector("#role[data-side='away']")
    play_to_end([owner, rival])

    for page in (owner, rival):
        page.goto(f"/clubs/{code if page is owner else rival_code}")
        page.wait_for_selector("#club-recent li[data-game]")
        record = page.locator("#club-record")
        total = sum(int(record.get_attribute(k) or 0)
                    for k in ("data-wins", "data-losses", "data-ties"))
        assert total == 1
        assert page.locator(".club-rating[data-rating]").get_attribute("data-rating")
        assert page.locator("[data-pool='base-on-board:pro'] [data-stat='PA']").inner_text() != "0"
    fits_the_screen(owner)
    owner.click("#club-recent li[data-game] a")
    owner.wait_for_url("**/games/*")
