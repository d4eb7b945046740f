"""``bob simulate --game base-on-board``: the JSON the issue asks for, deterministic by seed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from app.cli import main
from app.engines.base_on_board.data import ALL_CHALLENGEABLE, DEFENSE_CODES, OFFENSE_CODES
from app.sim.base_on_board import simulate


def test_the_same_seed_prints_the_same_numbers() -> None:
    first = simulate(games=40, seed=7, tier="pro", innings=3)
    second = simulate(games=40, seed=7, tier="pro", innings=3)
    first.pop("games_per_sec")
    second.pop("games_per_sec")
    assert first == second
    third = simulate(games=40, seed=8, tier="pro", innings=3)
    third.pop("games_per_sec")
    assert third != first


def test_the_tallies_agree_with_each_other() -> None:
    result = simulate(games=60, seed=3, tier="pro", innings=9)
    assert set(result) == {
        "games", "pitches", "games_per_sec", "runs_per_game", "outcomes", "dice",
        "cards_played", "challenges",
    }
    assert sum(result["outcomes"].values()) == 60
    dice = result["dice"]
    # Every bat roll follows a C, and every hit roll follows an HT.
    assert sum(dice["bat"].values()) <= dice["pitch"]["C"]
    assert sum(dice["hit"].values()) <= dice["bat"]["HT"]
    assert sum(dice["pitch"].values()) <= result["pitches"]
    assert set(result["cards_played"]) == set(OFFENSE_CODES) | set(DEFENSE_CODES) | {"IFL"}
    assert set(result["challenges"]) == set(ALL_CHALLENGEABLE)
    # The pitch die has S x2, SM, F, B x4, C x4: B and C must far outnumber SM.
    assert dice["pitch"]["B"] > dice["pitch"]["SM"] and dice["pitch"]["C"] > dice["pitch"]["F"]


def test_lite_tier_plays_no_pro_card() -> None:
    result = simulate(games=30, seed=5, tier="lite", innings=3)
    played = Counter({code: n for code, n in result["cards_played"].items() if n})
    assert played, "the eager policy plays cards"
    assert not set(played) & {"HNR", "RNH", "SNO", "CIB", "IOB", "IFD", "GTP", "LDP", "RHB",
                              "CO1", "CO3", "IFL", "SB2", "CS2", "BD"}


def test_the_command_prints_one_json_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--game", "base-on-board", "--games", "5", "--seed", "2",
                 "--tier", "pro", "--innings", "3", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert json.loads(out)["games"] == 5


def test_a_policy_match_reports_win_rates_with_intervals(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--game", "base-on-board", "--home", "normal", "--away", "easy",
                 "--games", "20", "--seed", "3", "--tier", "lite", "--innings", "3",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 20 and result["decisive"] + result["ties"] == 20
    assert result["first"]["policy"] == "normal" and result["second"]["policy"] == "easy"
    assert result["first"]["wins"] + result["second"]["wins"] == result["decisive"]
    low, high = result["first"]["ci95"]
    assert low <= result["first"]["win_rate"] <= high
    # Each policy sits at home in half the games.
    seats = result["by_seat"]
    assert sum(seats["first_home"].values()) == sum(seats["first_away"].values()) == 10
    assert 0 <= result["p_value"] <= 1


def test_wilson_and_the_binomial_test() -> None:
    from app.sim.base_on_board import binomial_p, wilson

    low, high = wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert binomial_p(5, 10) == pytest.approx(1.0)
    assert round(binomial_p(60, 100), 4) == 0.0569  # R's binom.test(60, 100): 0.05689
    assert binomial_p(0, 10) == pytest.approx(2 / 1024)


def test_without_policies_the_output_is_unchanged() -> None:
    result = simulate(games=3, seed=1, tier="pro", innings=3)
    assert "first" not in result and "outcomes" in result


def test_the_yardsticks_play_whole_matches() -> None:
    from app.sim.base_on_board import match

    result = match("eager", "passive", games=12, seed=4, tier="pro", innings=3)
    assert result["first"]["wins"] + result["second"]["wins"] + result["ties"] == 12
    with pytest.raises(ValueError):
        match("grandmaster", "easy", games=1, seed=1)


def test_the_cheating_yardsticks_play_and_report_their_decisions() -> None:
    from app.sim.base_on_board import match

    result = match("oracle", "seer", games=2, seed=5, tier="pro", innings=3, budget=6)
    assert result["first"]["wins"] + result["second"]["wins"] + result["ties"] == 2
    assert result["oracle_decisions"]["count"] > 0 and result["seer_decisions"]["count"] > 0
    assert result["hard_decisions"] == {"count": 0, "mean_ms": None}
