"""bench/engine_commit.py times the engine's calls of one command, part by part."""

from __future__ import annotations

import pytest

from bench import engine_commit
from bench.engine_commit import PARTS, Laps, play


def test_each_part_is_charged_the_time_since_the_last_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = iter([0.0, 1.0, 3.0, 10.0, 11.5, 12.0])
    monkeypatch.setattr(engine_commit.time, "process_time", lambda: next(readings))
    laps = Laps()  # 0.0
    laps.mark()  # 1.0
    laps.lap("apply")  # 3.0: apply 2.0
    laps.mark()  # 10.0: the gap is nobody's
    laps.lap("views")  # 11.5: views 1.5
    laps.lap("views")  # 12.0: views 2.0
    assert laps.spent == {**dict.fromkeys(PARTS, 0.0), "apply": 2.0, "views": 2.0}


def test_the_same_games_are_played_to_their_end_every_run() -> None:
    commands, spent = play(games=1, innings=3, seed=5)
    again, _ = play(games=1, innings=3, seed=5)
    other, _ = play(games=1, innings=3, seed=6)
    assert commands == again
    assert commands != other  # the seed picks the games
    assert commands > 100  # eighteen outs at least, a few commands an out
    assert set(spent) == set(PARTS)
    assert all(seconds > 0 for seconds in spent.values())
