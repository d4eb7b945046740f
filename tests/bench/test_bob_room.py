"""The room measure: advantages are paired against ``normal``'s own choice, and the summary
turns them into points of a game."""

from __future__ import annotations

from bench.bob_room import run, summarise


def test_every_decision_is_measured_against_normals_choice() -> None:
    records = run("lite", games=1, seed=3, budget=8, rows=6, innings=3)
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


def test_the_summary_scales_the_mean_advantage_to_one_side_of_a_game() -> None:
    def record(game: int, hard: float) -> dict[str, object]:
        return {"seed": 1, "game": game, "tier": "lite", "budget": 100,
                "normal": 0, "chosen": {"hard": 1 if hard else 0, "seer": 0, "oracle": 0},
                "advantage": {"hard": hard, "seer": 0.0, "oracle": 0.0},
                "room": 0.01, "naive_room": 0.02}

    records = [record(0, 0.01), record(0, 0.0), record(1, 0.03), record(1, 0.0)]
    summary = summarise(records)
    assert summary["decisions_per_side_game"] == 1.0  # 4 decisions, 2 games, 2 sides
    assert summary["hard"]["per_decision"] == 0.01
    assert summary["hard"]["per_game"] == 0.01
    assert summary["hard"]["differs_from_normal"] == 0.5
    assert summary["seer"]["per_decision"] == 0.0 and summary["seer"]["se"] == 0.0
    assert summary["room"]["per_game"] == 0.01
