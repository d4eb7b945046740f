"""Server-side rules around the engines: race-roll rate caps and rules windows' deadlines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.errors import ApiError
from app.games.commands import CommandPath, _Submission
from app.games.models import Game
from app.games.service import compute_deadlines
from app.settings import Settings


def test_race_rolls_are_capped_per_side() -> None:
    path = CommandPath(settings=Settings(), db=None, catalog=None, broadcaster=None,  # type: ignore[arg-type]
                       metrics=None)
    game = Game(id="g1", options={"race_max_rolls_per_sec": 2})
    roll = {"side": "home", "type": "race_roll"}
    first = _Submission()
    path._check_roll_rate(game, "home", roll, first)  # type: ignore[arg-type]
    path._check_roll_rate(game, "home", roll, first)  # type: ignore[arg-type]  # its own retry
    with pytest.raises(ApiError) as refused:
        path._check_roll_rate(game, "home", roll, _Submission())  # type: ignore[arg-type]
    assert refused.value.code == "roll_rate"
    path._check_roll_rate(game, "away", {**roll, "side": "away"}, _Submission())  # type: ignore[arg-type]
    path._check_roll_rate(  # not capped
        game, "home", {"side": "home", "type": "swing_roll"}, _Submission()  # type: ignore[arg-type]
    )


class _Scripted:
    """Just enough of an engine for deadlines: who must act, and what a timeout does."""

    def __init__(self, actions: dict[str, dict[str, Any]]) -> None:
        self.actions = actions

    def legal_actions(self, state: Any, side: str) -> list[dict[str, Any]]:
        return [self.actions[side]] if side in self.actions else []

    def timeout_action(
        self, state: Any, side: str, legal: list[dict[str, Any]] | None = None
    ) -> dict[str, Any] | None:
        return self.actions.get(side)


def test_deadlines_pick_the_timer_by_action() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    timers = {"response_seconds": 20, "roll_seconds": 15}
    engine = _Scripted({"home": {"type": "close_race"}, "away": {"type": "race_roll"}})
    deadlines = compute_deadlines(engine, None, timers, now, {"race_window_ms": 400})  # type: ignore[arg-type]
    assert deadlines["home"] == {"at": (now + timedelta(seconds=0.4)).isoformat(),
                                 "timer": "window"}
    assert deadlines["away"]["timer"] == "roll"
    assert deadlines["away"]["at"] == (now + timedelta(seconds=15)).isoformat()
    engine = _Scripted({"home": {"type": "pass"}})
    deadlines = compute_deadlines(engine, None, timers, now)  # type: ignore[arg-type]
    assert deadlines == {"home": {"at": (now + timedelta(seconds=20)).isoformat(),
                                  "timer": "response"}}
