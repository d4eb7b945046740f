"""The room measure: advantages are paired against ``normal``'s own choice, and the summary
turns them into points of a game."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bob_room import rule_choice, run, summarise


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    """One small Lite game, measured once for the tests that read it."""
    return run("lite", games=1, seed=3, budget=8, rows=6, innings=3)


def test_every_decision_is_measured_against_normals_choice(records: list[dict[str, Any]]) -> None:
    assert records, "a Lite game has decisions with a choice"
    for record in records:
        assert record["rows"] == 6
        assert 0 <= record["normal"] < record["actions"]
        assert record["naive_room"] >= 0.0  # normal's own action is in the max, at 0
        for name, index in record["chosen"].items():
            advantage = record["advantage"][name]
            if index == record["normal"]:
                assert advantage == 0.0
            assert advantage <= record["naive_room"] + 1e-12


def test_the_summary_sums_each_game_and_halves_it_for_one_side() -> None:
    def record(game: int, side: str, hard: float) -> dict[str, object]:
        return {"seed": 1, "game": game, "tier": "lite", "budget": 100, "side": side,
                "normal": 0, "chosen": {"hard": 1 if hard else 0, "seer": 0, "oracle": 0},
                "advantage": {"hard": hard, "seer": 0.0, "oracle": 0.0},
                "room": 0.01, "naive_room": 0.02}

    summary = summarise([record(0, "home", 0.01), record(0, "away", 0.0),
                         record(1, "home", 0.03), record(1, "away", 0.01)])
    assert summary["decisions_per_side_game"] == 1.0  # 4 decisions, 2 games, 2 sides
    assert summary["hard"]["per_decision"] == 0.0125
    assert summary["hard"]["per_game"] == 0.0125  # games sum to 0.005 and 0.02 a side
    assert summary["hard"]["se"] == 0.0075
    assert summary["hard"]["differs_from_normal"] == 0.75
    assert summary["seer"]["per_game"] == 0.0 and summary["seer"]["z"] is None
    assert summary["room"]["per_game"] == 0.01
    assert summary["by_side"]["home"]["hard"]["per_game"] == 0.02
    assert summary["by_side"]["away"]["hard"]["per_game"] == 0.005


def test_a_confidence_rule_leaves_normal_only_for_a_clear_enough_gain() -> None:
    estimates = [[0.0, 0.0], [0.010, 0.004], [0.030, 0.020], [0.001, 0.0]]
    assert rule_choice(estimates, 0, None) == 2  # the best estimate, however unsure
    assert rule_choice(estimates, 0, 1.0) == 2  # 0.030 > 1 x 0.020
    assert rule_choice(estimates, 0, 2.0) == 1  # only 0.010 is 2 se clear
    assert rule_choice(estimates, 0, 3.0) == 0  # nothing is: normal's own choice
    assert rule_choice([[0.0, 0.0], [0.001, 0.0]], 0, 0.0) == 0  # under the minimum gain


def test_the_rules_are_valued_by_the_true_gain_of_what_they_choose(
    records: list[dict[str, Any]],
) -> None:
    for record in records:
        assert record["true_gain"][record["normal"]] == 0.0
        for name in record["chosen"]:
            estimates = record["estimates"][name]
            assert len(estimates) == record["actions"]
            assert record["advantage"][name] == record["true_gain"][record["chosen"][name]]
            if 8 // record["actions"] >= 2:  # the search's own rule is the 2 se rule
                assert rule_choice(estimates, record["normal"], 2.0) == record["chosen"][name]
    rules = summarise(records)["rules"]
    assert set(rules) == {"hard", "seer", "oracle"}
