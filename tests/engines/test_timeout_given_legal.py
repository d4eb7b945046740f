"""``timeout_action`` given the legal actions the caller already has (a commit's deadlines)
must pick what it picks when it works them out itself, in every state a game passes through."""

from __future__ import annotations

from typing import Any

import pytest

from app.engines.dice import HmacDice
from app.engines.interface import SIDES
from app.engines.registry import make_engine
from tests.support.random_play import GAMES, states


@pytest.mark.parametrize(("kind", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_timeout_action_given_legal_is_timeout_action(
    kind: str, options: dict[str, Any], seed: int
) -> None:
    engine = make_engine(kind, HmacDice(b"timeouts", "unused"))
    chosen = 0
    for state in states(kind, options, seed):
        for side in SIDES:
            legal = engine.legal_actions(state, side)
            alone = engine.timeout_action(state, side)
            assert engine.timeout_action(state, side, legal) == alone
            chosen += alone is not None
    assert chosen > 3


def test_timeout_action_takes_the_legal_actions_it_is_given() -> None:
    """It picks from the list it is given (so a caller's list is used, not worked out again)."""
    engine = make_engine("base-on-board", HmacDice(b"timeouts", "unused"))
    state = states("base-on-board", {"innings": 3}, 1)[0]
    offered = [{"side": "home", "type": "made_up"}]
    assert engine.timeout_action(state, "home", offered) == offered[0]
    assert engine.timeout_action(state, "home", []) is None
