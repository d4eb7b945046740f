"""``views`` builds the three views a commit sends at once; each must be exactly what ``view``
gives for that viewer, or a side would see what it may not (or miss what it may), and no view
may share a top level another view changes."""

from __future__ import annotations

from typing import Any

import pytest

from app.engines.dice import HmacDice
from app.engines.interface import SIDES, views_one_by_one
from app.engines.registry import make_engine
from tests.support.random_play import GAMES, states


@pytest.mark.parametrize(("kind", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_views_together_are_the_views_one_by_one(
    kind: str, options: dict[str, Any], seed: int
) -> None:
    engine = make_engine(kind, HmacDice(b"views", "unused"))
    played = states(kind, options, seed)
    assert len(played) > 3  # a solo challenge can end within its first batters
    for state in played:
        expected = views_one_by_one(engine, state)  # three calls of view
        legal = {side: engine.legal_actions(state, side) for side in SIDES}
        assert engine.views(state) == expected
        assert engine.views(state, legal) == expected


def test_a_sides_own_part_is_in_its_view_alone() -> None:
    """The views share what is nested in the public part, never a top level: a side's hand
    and notes are put on its own copy."""
    engine = make_engine("base-on-board", HmacDice(b"views", "unused"))
    state = states("base-on-board", {"innings": 3}, 4)[10]
    views = engine.views(state)
    spectator, home, away = views[None], views["home"], views["away"]
    assert home is not spectator and away is not spectator and home is not away
    assert "hand" not in spectator and "hand_notes" not in spectator
    assert home["hand"] == list(state.hands["home"]) and away["hand"] == list(state.hands["away"])
    assert home["side"] == "home" and away["side"] == "away"
