"""Dice fairness, run expectancy, win probability and card value on tiny hand-built fixtures."""

from __future__ import annotations

import math

import pytest

from app.stats.analysis import (
    RunExpectancy,
    card_value,
    chi2_sf,
    dice_fairness,
    fairness_of,
    run_expectancy,
    win_probability,
)
from tests.stats.build import card, pitch


def _rolls(die: str, counts: dict[str, int]) -> list[dict[str, object]]:
    return [pitch(dice=f"{die}:{face}") for face, n in counts.items() for _ in range(n)]


def test_pitch_die_chi_square_by_hand() -> None:
    # 24 rolls of the pitch die (S S SM F B B B B C C C C): expected S 4, SM 2, F 2, B 8, C 8.
    # Observed S 6, SM 2, F 0, B 8, C 8: chi-square = (6-4)²/4 + (0-2)²/2 = 1 + 2 = 3.
    # df = 5 faces - 1 = 4; for even df, P = e^(-x/2) (1 + x/2) = e^-1.5 * 2.5.
    records = _rolls("pitch", {"S": 6, "SM": 2, "F": 0, "B": 8, "C": 8})
    pitch_die = dice_fairness(records)["pitch"]
    assert pitch_die.rolls == 24
    assert {f.face: (f.observed, f.expected) for f in pitch_die.faces} == {
        "S": (6, 4.0), "SM": (2, 2.0), "F": (0, 2.0), "B": (8, 8.0), "C": (8, 8.0)}
    assert pitch_die.chi_square == pytest.approx(3.0)
    assert pitch_die.df == 4
    assert pitch_die.p_value == pytest.approx(2.5 * math.exp(-1.5))
    assert pitch_die.small_sample  # SM and F expect fewer than 5
    assert pitch_die.to_json()["p_value"] == 0.557825


def test_hit_die_multiplicities() -> None:
    # 12 hit-die rolls: L2 and C2 are on two faces each, so each expects 2 of 12.
    fair = fairness_of("hit", ("iH", "L1", "L2", "L2", "C1", "C2", "C2", "R1", "R2", "D2",
                               "D3", "T3"), {"L2": 12})
    assert {f.face: f.expected for f in fair.faces}["L2"] == 2.0
    # (12-2)²/2 + 1·(0-2)²/2 (C2) + 8·(0-1)²/1 = 50 + 2 + 8 = 60, df 9.
    assert fair.chi_square == pytest.approx(60.0)
    assert fair.df == 9
    assert fair.p_value < 1e-8


def test_unknown_faces_and_empty_dice() -> None:
    result = dice_fairness([pitch(dice="pitch:Q bat:GF")])
    assert result["pitch"].unknown == 1 and result["pitch"].rolls == 0
    assert result["pitch"].p_value == 1.0
    assert result["bat"].rolls == 1
    assert result["hit"].rolls == 0


def test_chi2_sf_closed_forms() -> None:
    for x in (0.1, 1.0, 3.84, 7.5, 20.0, 60.0):
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
        odd3 = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
        assert chi2_sf(x, 3) == pytest.approx(odd3, rel=1e-9)
    # Even df = 2k: P = e^(-x/2) * sum over i < k of (x/2)^i / i!  (the dice have 2..11 df).
    for df in (4, 6, 8, 10, 12):
        for x in (0.5, 3.0, 9.0, 15.0, 40.0):
            half = x / 2
            closed = math.exp(-half) * sum(half**i / math.factorial(i) for i in range(df // 2))
            assert chi2_sf(x, df) == pytest.approx(closed, rel=1e-9)
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05)
    assert chi2_sf(0.0, 5) == 1.0


def _re_games() -> list[list[dict[str, object]]]:
    a, h = "away", "home"
    half1 = [  # single, two-run homer, out, out, strikeout
        pitch(1, "top", 1, "pitch:C bat:HT hit:L1", pa="1B", after=(0, 0, 0, "100")),
        pitch(1, "top", 2, "pitch:C bat:HR", bases="100", pa="HR", runs=2, rbi=2),
        pitch(1, "top", 3, "pitch:C bat:PO", pa="OUT", after=(0, 0, 1, "000")),
        pitch(1, "top", 4, "pitch:C bat:PO", outs=1, pa="OUT", after=(0, 0, 2, "000")),
        pitch(1, "top", 5, "pitch:SM", outs=2, strikes=2, pa="K", after=(0, 0, 3, "000")),
    ]
    half2 = [  # ball, walk, steal of second on a strike, RBI single, double play, out
        pitch(1, "bottom", 1, "pitch:B", balls=2, after=(3, 0, 0, "000")),
        pitch(1, "bottom", 1, "pitch:B", balls=3, pa="BB", after=(0, 0, 0, "100")),
        pitch(1, "bottom", 2, "pitch:S", bases="100", cards=[card(h, "SB2")],
              after=(0, 1, 0, "010")),
        pitch(1, "bottom", 2, "pitch:C bat:HT hit:C1", strikes=1, bases="010", pa="1B",
              runs=1, rbi=1, after=(0, 0, 0, "100")),
        pitch(1, "bottom", 3, "pitch:C bat:GF", bases="100", cards=[card(a, "GDP")],
              pa="DP", after=(0, 0, 2, "000")),
        pitch(1, "bottom", 4, "pitch:C bat:FO", outs=2, pa="OUT", after=(0, 0, 3, "000")),
    ]
    walk_off = [pitch(2, "bottom", 5, "pitch:C bat:HR", pa="HR", runs=1, rbi=1)]
    return [half1 + half2, walk_off]


def test_run_expectancy_by_hand() -> None:
    # Occurrences (runs to the end of the half):
    #   half 1: 000/0 -> 2 (batter 1), 100/0 -> 2, 000/0 -> 0 (batter 3), 000/1 -> 0, 000/2 -> 0
    #   half 2: 000/0 -> 1 (the ball; the walk is the same batter and state), 100/0 -> 1
    #           (new batter), 010/0 -> 1 (state changed mid plate appearance), 100/0 -> 0,
    #           000/2 -> 0
    #   the walk-off half ended without a third out: left out.
    table = run_expectancy(_re_games())
    assert table.count[("000", 0)] == 3 and table.get("000", 0) == pytest.approx(1.0)
    assert table.count[("100", 0)] == 3 and table.get("100", 0) == pytest.approx(1.0)
    assert table.get("010", 0) == 1.0 and table.count[("010", 0)] == 1
    assert table.get("000", 1) == 0.0
    assert table.get("000", 2) == 0.0 and table.count[("000", 2)] == 2
    assert table.get("111", 2) is None
    rows = table.to_json()
    assert len(rows) == 24
    assert rows[0] == {"bases": "000", "outs": 0, "count": 3, "runs": 1.0}


def test_card_value_by_hand() -> None:
    # SB2 was played at 100/0 and 1 run followed; GDP at 100/0 and 0 runs followed.
    values = card_value(_re_games())
    assert values["SB2"].plays == 1
    assert values["SB2"].runs_after == 1.0
    assert values["SB2"].expected == pytest.approx(1.0)
    assert values["SB2"].value == pytest.approx(0.0)
    assert values["GDP"].value == pytest.approx(-1.0)
    given = RunExpectancy({("100", 0): 1}, {("100", 0): 2})  # a table saying 0.5
    assert card_value(_re_games(), given)["SB2"].value == pytest.approx(0.5)


def _game(top_runs: int, bottom_runs: int) -> list[dict[str, object]]:
    return [
        pitch(1, "top", 1, "pitch:C bat:HR", pa="HR", runs=top_runs),
        pitch(1, "top", 2, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
        pitch(1, "bottom", 1, "pitch:C bat:HR", pa="HR", runs=bottom_runs),
        pitch(1, "bottom", 2, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
    ]


def test_win_probability_by_hand() -> None:
    cells = win_probability([
        (_game(1, 0), "away"),   # bottom 1st starts with home down 1; home loses
        (_game(0, 2), "home"),   # bottom 1st starts tied; home wins
        (_game(0, 0), None),     # tied; a tie counts half
    ])
    table = {(c.inning, c.half, c.lead): (c.games, c.wins, c.ties, c.probability) for c in cells}
    assert table == {
        (1, "top", 0): (3, 1, 1, 0.5),        # away won 1 of 3, tied 1: (1 + 0.5) / 3
        (1, "bottom", -1): (1, 0, 0, 0.0),
        (1, "bottom", 0): (2, 1, 1, 0.75),
    }
    assert cells[0].to_json()["probability"] == 0.5
