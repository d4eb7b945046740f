"""The simulator behind ``bob simulate --game bottom-of-the-9th``: its keys, determinism,
balance between random lineups and every card's abilities activating."""

from __future__ import annotations

from typing import Any

import pytest

from app.sim.bottom_of_the_ninth import simulate


@pytest.fixture(scope="module")
def two_thousand() -> dict[str, Any]:
    return simulate(games=2000, seed=1)


def test_output_has_the_issue_keys(two_thousand: dict[str, Any]) -> None:
    assert set(two_thousand) == {
        "games", "pitches", "games_per_sec", "outcomes", "pitch_results", "crush_bonus",
        "races", "abilities", "relief", "bench",
    }  # fmt: skip
    assert set(two_thousand["pitch_results"]) == {
        "ball", "strike", "foul", "contact", "crush", "walk", "strikeout",
    }  # fmt: skip
    assert set(two_thousand["outcomes"]) == {"home", "away"}
    assert set(two_thousand["races"]) == {"batter", "pitcher"}
    assert set(two_thousand["crush_bonus"]) == {"1", "2", "3", "4", "5", "6"}
    assert sum(two_thousand["outcomes"].values()) == 2000


def test_every_card_activates_and_neither_side_passes_sixty_percent(
    two_thousand: dict[str, Any],
) -> None:
    assert len(two_thousand["abilities"]) == 20
    assert min(two_thousand["abilities"].values()) > 0
    for side in ("home", "away"):
        assert two_thousand["outcomes"][side] / 2000 <= 0.60
    assert two_thousand["relief"] > 0 and two_thousand["bench"] > 0
    results = two_thousand["pitch_results"]
    assert (
        results["ball"]
        + results["strike"]
        + results["foul"]
        + results["contact"]
        + results["crush"]
        == two_thousand["pitches"]
    )


def test_same_seed_same_figures() -> None:
    first = simulate(games=60, seed=9)
    second = simulate(games=60, seed=9)
    first.pop("games_per_sec")
    second.pop("games_per_sec")
    assert first == second
    third = simulate(games=60, seed=10)
    third.pop("games_per_sec")
    assert third != first
