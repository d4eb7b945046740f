"""Replaying a hand-built game to any pitch, and the JSON export."""

from __future__ import annotations

import json

import pytest

from app.stats.replay import export_game, state_at, state_at_seq, states
from tests.stats.build import one_inning_game


def test_state_at_start_middle_and_end() -> None:
    game = one_inning_game()
    start = state_at(game, 0)
    assert (start["inning"], start["half"], start["outs"], start["bases"]) == (1, "top", 0, "000")
    assert start["score"] == {"away": 0, "home": 0}
    # After the two-run homer (4th record): 2-0, bases empty, the third batter is up.
    after_hr = state_at(game, 4)
    assert after_hr["score"] == {"away": 2, "home": 0}
    assert (after_hr["batter"], after_hr["bases"], after_hr["hits"]["away"]) == (3, "000", 2)
    # After the stolen base: a 0-1 count, runner on second, same batter.
    steal = state_at(game, 9)
    assert (steal["balls"], steal["strikes"], steal["bases"], steal["batter"]) == (0, 1, "010", 4)
    end = state_at(game, len(game))
    assert end["score"] == {"away": 3, "home": 3}
    assert end["line"] == {"away": [3], "home": [3]}
    assert end["outs"] == 3
    with pytest.raises(ValueError):
        state_at(game, len(game) + 1)


def test_state_at_seq() -> None:
    game = [{**record, "seq": 10 * (i + 1)} for i, record in enumerate(one_inning_game())]
    assert state_at_seq(game, 40) == state_at(game, 4)
    assert state_at_seq(game, 45)["pitches"] == 4
    assert state_at_seq(game, 40)["seq"] == 40


def test_export_is_json() -> None:
    body = export_game(one_inning_game(), {"game_id": "g1", "kind": "base-on-board"})
    assert json.loads(json.dumps(body, ensure_ascii=False)) == body
    assert body["game_id"] == "g1"
    assert body["box_score"]["score"] == {"away": 3, "home": 3}
    assert len(body["play_by_play"]["ko"]) == len(body["pitches"]) == 22
    assert len(body["plate_appearances"]["en"]) == 13


def test_states_in_one_pass_equal_each_replay() -> None:
    from tests.stats.sim import games

    built = [one_inning_game(), *(g.records for g in games())]
    for records in built:
        assert states(records) == [state_at(records, n) for n in range(len(records) + 1)]
    assert states([]) == [state_at([], 0)]
