"""How a game feels: sounds (only after a tap, with a remembered mute switch), the tab's title
and icon on your move, the other side's last action highlighted, a notice when the clock ran
out and the server moved, and a run race that takes fast clicks without a word of blame and
never moves its button."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.web.helpers import click_next, create_room, join_from_lobby, over, register

# Test-side only: counts what the page asks of WebAudio (the page itself has no hook).
AUDIO_PROBE = """
window.audioProbe = { contexts: 0, started: 0 };
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  constructor(...args) { super(...args); window.audioProbe.contexts += 1; }
};
const realStart = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.audioProbe.started += 1;
  return realStart.apply(this, args);
};
"""


def probe(page: Any) -> dict[str, int]:
    return dict(page.evaluate("window.audioProbe"))


def my_move(page: Any) -> bool:
    return bool(page.locator("#table button.action:not([disabled])").count())


def test_sounds_title_and_the_other_sides_last_move(open_page: Any) -> None:
    home, away = open_page("home"), open_page("away")
    watcher = open_page("watcher", phone=True)
    for page in (home, away, watcher):
        page.add_init_script(AUDIO_PROBE)
    register(home, "snd")
    register(away, "oth")
    room = create_room(home, "base-on-board", {"#opt-innings": "3", "#opt-fast-play": True})
    watcher.goto(f"/rooms/{room}")
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    watcher.wait_for_selector("[data-testid='line-score']")
    # The tab says whose move it is: title and icon.
    for _ in range(40):
        if my_move(home):
            break
        click_next(away)
        home.wait_for_timeout(100)
    assert my_move(home)
    assert home.title().startswith("● Your move")
    assert home.get_attribute("link[rel='icon']", "href").endswith("favicon-move.svg")
    assert not away.title().startswith("●")
    assert away.get_attribute("link[rel='icon']", "href").endswith("/favicon.svg")
    started = probe(home)["started"]
    for _ in range(30):  # play on: both sides roll dice
        click_next(home)
        click_next(away)
    home.wait_for_timeout(300)
    assert probe(home)["contexts"] == 1 and probe(home)["started"] > started
    # The watcher never tapped the page: no sound may start (browsers forbid it anyway).
    assert probe(watcher) == {"contexts": 0, "started": 0}
    # The other side's last move is highlighted in the action bar and the play-by-play.
    for _ in range(40):
        if home.locator("#table .their-action:not(.empty)").count():
            break
        click_next(away)
        click_next(home)
    last = home.locator("#table .their-action:not(.empty)")
    assert last.count() == 1 and last.inner_text().strip()
    assert home.locator("#pbp li.theirs").count() > 0
    assert away.locator("#pbp li.theirs").count() > 0
    # Mute: no more sounds, and the switch is remembered after a reload.
    home.click("#sound")
    assert home.get_attribute("#sound", "aria-pressed") == "true"
    muted = probe(home)["started"]
    for _ in range(20):
        click_next(home)
        click_next(away)
    home.wait_for_timeout(300)
    assert probe(home)["started"] == muted
    home.reload()
    home.wait_for_selector("[data-testid='line-score']")
    assert home.get_attribute("#sound", "aria-pressed") == "true"
    assert home.get_attribute("#sound", "aria-label").startswith("Sound off")


def test_a_timeout_says_what_the_server_did(open_page: Any) -> None:
    home, away = open_page("home"), open_page("away")
    register(home, "slo")
    register(away, "fst")
    # Away bats first: home pitches, and its roll has a one-second clock.
    create_room(home, "base-on-board", {"#opt-innings": "3", "#opt-roll": "1",
                                        "#opt-response": "1"})
    room = home.url.rsplit("/", 1)[1]
    join_from_lobby(away, room, "away")
    note = home.locator("[data-testid='timeout-note']")
    note.wait_for(timeout=20_000)
    text = note.inner_text()
    assert text.startswith("Time ran out") and "for you" in text, text
    assert "the time to roll" in text or "the time to answer" in text
    # The notice stays until the player moves again.
    home.wait_for_timeout(300)
    assert note.count() == 1


MASH = """async ([times, gap]) => {
  const seen = [];
  let first = null;
  for (let i = 0; i < times; i += 1) {
    const button = document.querySelector("#table button.race:not([disabled])");
    if (!button) break;
    first ??= button;
    const r = button.getBoundingClientRect();
    seen.push({ same: button === first, x: r.x, y: r.y, w: r.width, h: r.height });
    button.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
    button.click();
    await new Promise((done) => setTimeout(done, gap));
  }
  return seen;
}"""


# A race roll of the page's own side in the play-by-play ("Home rolls 5", "Away rolls 2 ✔"),
# not the pitcher's "(pitcher) rolls:". After a rematch the sides swap, so the page named
# "home" may hold either side: `.theirs` marks the other side's lines.
OWN_RACE_ROLL = re.compile(r"^(Home|Away) rolls \d")
LAST_SEQ = "Math.max(0, ...[...document.querySelectorAll('#pbp li')].map((li) => +li.dataset.seq))"
NEWER_THAN = "(lines, seq) => lines.filter((li) => +li.dataset.seq > seq).length"


def test_the_run_race_takes_fast_clicks(open_page: Any) -> None:
    home, away = open_page("home"), open_page("away")
    register(home, "fast")
    register(away, "hand")
    room = create_room(home, "bottom-of-the-9th", {"#opt-setup": "random", "#opt-race":
                                                   "realtime"})
    join_from_lobby(away, room, "away")
    home.wait_for_selector("[data-testid='line-score']")
    own_rolls = home.locator("#pbp li:not(.theirs)", has_text=OWN_RACE_ROLL)
    mashed: list[dict[str, Any]] = []
    deadline = time.monotonic() + 400
    while True:
        assert time.monotonic() < deadline, "no run race came up that took a click"
        if home.locator("#table button.race:not([disabled])").count():
            # The play-by-play keeps the last lines only: compare sequence numbers, not counts.
            seen = home.evaluate(LAST_SEQ)
            # Far above the server's 4 rolls a second.
            mashed = home.evaluate(MASH, [12, 40])
            home.wait_for_timeout(500)
            if mashed and own_rolls.evaluate_all(NEWER_THAN, seen):
                break
            # The race was decided before the first click arrived (the other side's roll, or
            # its clock rolling for it): wait for the next race.
            continue
        if over(home) and over(away):
            # A rematch needs both sides: one offers, the other accepts (sides swap).
            away.click("#rematch")
            home.wait_for_selector("[data-testid='rematch-offer']")
            home.click("#rematch")
            home.wait_for_selector("[data-testid='game-over']", state="detached")
            continue
        for page in (home, away):
            if not over(page) and not page.locator("#table button.race").count():
                click_next(page)
        home.wait_for_timeout(30)
    first = mashed[0]
    for look in mashed:
        assert look["same"], "the race button was drawn anew under the pointer"
        assert (look["x"], look["y"], look["w"], look["h"]) == (
            first["x"], first["y"], first["w"], first["h"]), "the race button moved"
    # The rolls within the cap were played (the loop's exit); the server's cap dropped the
    # extra ones, and the player was not told off for them.
    assert home.locator("#table .note.error").count() == 0
    assert home.locator("#toast").is_hidden()
