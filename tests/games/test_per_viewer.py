"""What a commit sends each viewer: its view as the engine gives it, and what it may send now
(while a pass is held, the hold's word, not the engine's; nothing once the game is over)."""

from __future__ import annotations

from typing import Any

from app.engines.dice import HmacDice
from app.engines.interface import SIDES
from app.engines.registry import make_engine
from app.games.service import per_viewer
from tests.support.random_play import states


def engines_word(engine: Any, state: Any) -> dict[str, Any]:
    return {
        "home": {"view": engine.view(state, "home"),
                 "legal_actions": engine.legal_actions(state, "home")},
        "away": {"view": engine.view(state, "away"),
                 "legal_actions": engine.legal_actions(state, "away")},
        "spectator": {"view": engine.view(state, None), "legal_actions": []},
    }


def test_each_viewer_gets_the_engines_view_and_legal_actions() -> None:
    engine = make_engine("base-on-board", HmacDice(b"per-viewer", "unused"))
    for state in states("base-on-board", {"innings": 3}, 5)[:60]:
        legal = {side: engine.legal_actions(state, side) for side in SIDES}
        assert per_viewer(engine, state, finished=False) == engines_word(engine, state)
        assert per_viewer(engine, state, finished=False, legal_now=legal) == engines_word(
            engine, state)


def test_while_a_pass_is_held_the_views_are_the_engines_and_the_actions_the_holds() -> None:
    engine = make_engine("base-on-board", HmacDice(b"per-viewer", "unused"))
    state = next(s for s in states("base-on-board", {"innings": 3}, 6)
                 if len(engine.legal_actions(s, "home")) + len(engine.legal_actions(s, "away"))
                 > 1)
    allowed = {"home": [{"side": "home", "type": "pass"}], "away": []}
    sent = per_viewer(engine, state, finished=False, allowed=allowed)
    expected = engines_word(engine, state)
    for viewer in ("home", "away", "spectator"):
        assert sent[viewer]["view"] == expected[viewer]["view"]
    assert sent["home"]["legal_actions"] == allowed["home"]
    assert sent["away"]["legal_actions"] == []
    assert sent["home"]["view"]["legal_actions"] == engine.legal_actions(state, "home")


def test_a_finished_game_offers_nobody_anything() -> None:
    engine = make_engine("base-on-board", HmacDice(b"per-viewer", "unused"))
    state = states("base-on-board", {"innings": 3}, 7)[30]
    sent = per_viewer(engine, state, finished=True)
    assert all(sent[viewer]["legal_actions"] == [] for viewer in ("home", "away", "spectator"))
    assert sent["home"]["view"] == engine.view(state, "home")
