"""The league pages in a browser: create a league from /leagues, two players enter it (one in
Korean on a 360 px phone), the creator starts the season, the schedule shows each player a
"play" link to its game's room, and the Korean page has no English outside names."""

from __future__ import annotations

import secrets
from typing import Any

from tests.web.helpers import register
from tests.web.korean import english_in_korean

ONE_LINE_HEADER = 56


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_league_from_creation_to_its_first_game(open_page: Any) -> None:
    creator = open_page("creator")
    register(creator, "lgc")
    creator.goto("/leagues")
    creator.click("nav >> text=Leagues")
    creator.wait_for_selector("#lg-create")
    name = f"Spring {secrets.token_hex(3)}"
    creator.fill("#lg-name", name)
    creator.select_option("#lg-type", "player")
    creator.select_option("#lg-rounds", "2")
    creator.click("#lg-create-submit")
    creator.wait_for_url("**/leagues/*")
    creator.wait_for_selector("#lg-enter")
    assert creator.text_content("h1") == name
    creator.click("#lg-enter")
    creator.wait_for_selector("#lg-standings tr[data-entrant]")
    league_url = creator.url

    phone = open_page("phone", locale="ko-KR", phone=True)
    register(phone, "lgk")
    phone.goto(league_url)
    phone.wait_for_selector("#lg-enter")
    assert phone.text_content("#lg-enter") == "이 리그에 참가"
    phone.click("#lg-enter")
    phone.wait_for_function(
        "document.querySelectorAll('#lg-standings tr[data-entrant]').length == 2")
    # Until the start an entry can be taken back, and made again.
    assert phone.text_content("#lg-withdraw") == "리그 참가 취소"
    phone.click("#lg-withdraw")
    phone.wait_for_selector("#lg-enter")
    assert phone.locator("#lg-standings tr[data-entrant]").count() == 1
    phone.click("#lg-enter")
    phone.wait_for_function(
        "document.querySelectorAll('#lg-standings tr[data-entrant]').length == 2")
    assert phone.locator("#lg-start").count() == 0  # only the creator starts the season

    creator.reload()
    creator.click("#lg-start")
    creator.wait_for_selector("#lg-schedule tr[data-game]")
    assert creator.locator("#lg-schedule tr[data-game]").count() == 2  # double round robin
    assert creator.locator("#lg-schedule a.play").count() == 2
    assert "Season on" in creator.text_content("#lg-meta")

    phone.reload()
    phone.wait_for_selector("#lg-schedule a.play")
    assert phone.locator("#lg-schedule a.play").count() == 2
    assert "정규 시즌 중" in phone.text_content("#lg-meta")
    assert english_in_korean(phone) == []
    assert fits_the_phone(phone)
    height = phone.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
    assert height <= ONE_LINE_HEADER
    phone.click("#lg-schedule a.play >> nth=0")
    phone.wait_for_url("**/rooms/*")

    creator.goto("/leagues")
    creator.wait_for_selector(f"#lg-table tr >> text={name}")
    english_phone = open_page("english-phone", phone=True)  # the nav link keeps one line
    english_phone.goto("/leagues")
    english_phone.wait_for_selector("#lg-table")
    assert english_phone.evaluate(
        "document.querySelector('.topbar').getBoundingClientRect().height") <= ONE_LINE_HEADER
    assert fits_the_phone(english_phone)
