"""The pool of `bob simulate` chunks sums wins by seat and refuses to mix experiments."""

from __future__ import annotations

from typing import Any

import pytest

from bench.pool_simulations import pool


def chunk(
    seed: int, home: tuple[int, int], away: tuple[int, int], budget: int = 400,
) -> dict[str, Any]:
    return {
        "seed": seed, "tier": "lite", "innings": 3, "budget": budget, "think_ms": None,
        "games": sum(home) + sum(away) + 1, "ties": 1,
        "first": {"policy": "hard", "wins": home[0] + away[0]},
        "second": {"policy": "normal", "wins": home[1] + away[1]},
        "by_seat": {"first_home": {"first_wins": home[0], "second_wins": home[1]},
                    "first_away": {"first_wins": away[0], "second_wins": away[1]}},
        "hard_decisions": {"count": 10, "mean_ms": 50.0 + seed},
    }


def test_pool_sums_the_chunks_and_tests_the_total() -> None:
    pooled = pool([chunk(1, (30, 20), (25, 24)), chunk(2, (28, 22), (20, 30))])
    assert pooled["games"] == 201 and pooled["ties"] == 2
    assert (pooled["first"]["wins"], pooled["first"]["losses"]) == (103, 96)
    assert (pooled["first_home"]["wins"], pooled["first_home"]["losses"]) == (58, 42)
    assert (pooled["first_away"]["wins"], pooled["first_away"]["losses"]) == (45, 54)
    assert pooled["first"]["win_rate"] == round(103 / 199, 4)
    assert 0.5 < pooled["first"]["p_value"] <= 1
    assert pooled["first"]["ci95"][0] < 0.5 < pooled["first"]["ci95"][1]
    assert pooled["hard_ms_per_decision"] == 51.5


def test_pool_refuses_chunks_of_different_budgets_or_a_repeated_seed() -> None:
    with pytest.raises(SystemExit, match="budget"):
        pool([chunk(1, (1, 1), (1, 1)), chunk(2, (1, 1), (1, 1), budget=100)])
    with pytest.raises(SystemExit, match="twice"):
        pool([chunk(1, (1, 1), (1, 1)), chunk(1, (1, 1), (1, 1))])
