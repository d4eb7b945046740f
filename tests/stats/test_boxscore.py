"""Box score of a hand-built game; every expected number is counted by hand from the fixture."""

from __future__ import annotations

import pytest

from app.records.calls import is_strike
from app.records.shape import as_records, normalize
from app.stats.boxscore import BattingLine, box_score, line_score
from tests.stats.build import card, challenge, one_inning_game, pitch


def test_line_score() -> None:
    line = line_score(one_inning_game())
    assert line.innings == 1
    assert line.runs == {"away": [3], "home": [3]}
    assert line.r == {"away": 3, "home": 3}
    assert line.h == {"away": 2, "home": 2}
    # The home batter's reach on error is charged to the away side, which was fielding.
    assert line.e == {"away": 1, "home": 0}
    assert line.to_json() == {
        "innings": [1],
        "sides": [
            {"side": "away", "runs": [3], "R": 3, "H": 2, "E": 1},
            {"side": "home", "runs": [3], "R": 3, "H": 2, "E": 0},
        ],
    }


def test_away_batting_line() -> None:
    # PA: 1B, HR, BB, OUT, SF, K = 6. AB excludes BB and SF: 4. TB = 1 + 4 = 5.
    # OBP = (H 2 + BB 1) / (AB 4 + BB 1 + SF 1) = 3/6; SLG = 5/4.
    line = box_score(one_inning_game()).batting["away"]
    assert (line.pa, line.ab, line.h, line.hr, line.bb, line.k, line.sf) == (6, 4, 2, 1, 1, 1, 1)
    assert (line.r, line.rbi, line.sb, line.cs, line.tb) == (3, 3, 1, 0, 5)
    assert line.avg == 0.5
    assert line.obp == 0.5
    assert line.slg == 1.25
    assert line.ops == 1.75


def test_home_batting_line() -> None:
    # PA: E, HBP, FC, 2B, 3B, SNO, OUT = 7. AB excludes HBP: 6. H = 2, TB = 2 + 3 = 5.
    # SNO is a strikeout and an at bat. OBP = (2 + 0 + 1) / (6 + 0 + 1 + 0) = 3/7.
    line = box_score(one_inning_game()).batting["home"]
    assert (line.pa, line.ab, line.h, line.doubles, line.triples, line.hr) == (7, 6, 2, 1, 1, 0)
    assert (line.bb, line.hbp, line.k, line.roe, line.r, line.rbi) == (0, 1, 1, 1, 3, 3)
    assert (line.sb, line.cs) == (0, 1)
    assert line.avg == pytest.approx(2 / 6)
    assert line.obp == pytest.approx(3 / 7)
    assert line.slg == pytest.approx(5 / 6)
    assert line.to_json()["OPS"] == 1.262  # 0.428571 + 0.833333


def test_pitching_lines() -> None:
    box = box_score(one_inning_game())
    home = box.pitching["home"]  # home fielded in the top half
    # 14 pitches: B S C | C | B B B B | S C | C | SM SM SM -> strikes 2+1+0+2+1+3 = 9.
    assert (home.pitches, home.strikes, home.balls) == (14, 9, 5)
    assert (home.bf, home.outs, home.ip, home.k, home.bb, home.hbp) == (6, 3, "1.0", 1, 1, 0)
    assert (home.h, home.hr, home.r) == (2, 1, 3)
    assert home.to_json()["strike_pct"] == 0.643
    away = box.pitching["away"]
    # 8 pitches: C, B (HBP: a ball), S, C, C, C, SM, C -> 7 strikes.
    assert (away.pitches, away.strikes, away.bf, away.outs) == (8, 7, 7, 3)
    assert (away.k, away.bb, away.hbp, away.h, away.hr, away.r) == (1, 0, 1, 2, 0, 3)


def test_box_score_json_is_plain() -> None:
    import json

    body = box_score(one_inning_game()).to_json()
    assert json.loads(json.dumps(body)) == body
    assert body["score"] == {"away": 3, "home": 3}
    assert list(body["batting"]) == ["away", "home"]


def test_unplayed_bottom_half_is_none() -> None:
    records = [
        pitch(1, "top", 1, "pitch:C bat:HR", pa="HR", runs=1, rbi=1),
        pitch(1, "top", 2, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
        pitch(1, "bottom", 1, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
        pitch(2, "top", 3, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
    ]
    line = line_score(records)
    assert line.runs == {"away": [1, 0], "home": [0, None]}
    assert line.r == {"away": 1, "home": 0}


def test_home_batting_first() -> None:
    records = [
        {**pitch(1, "top", 1, "pitch:C bat:HR", pa="HR", runs=1, rbi=1),
         "offense": "home", "defense": "away"},
    ]
    line = line_score(records)
    assert line.first == "home"
    assert line.order == ("home", "away")
    assert line.runs == {"home": [1], "away": [None]}


def test_strike_calls_follow_challenges() -> None:
    reversed_ball = pitch(dice="pitch:B", challenges=[challenge("home", "B", "reverse")])
    confirmed_ball = pitch(dice="pitch:B", challenges=[challenge("home", "B", "confirm")])
    reversed_sm = pitch(dice="pitch:SM", challenges=[challenge("away", "SM", "reverse")])
    hit_by_pitch = pitch(dice="pitch:S", cards=[card("away", "HBP")], pa="HBP")
    hit_and_run = pitch(dice="bat:GF", pitch_by_card="HNR")
    assert is_strike(normalize(reversed_ball))
    assert not is_strike(normalize(confirmed_ball))
    assert not is_strike(normalize(reversed_sm))
    assert not is_strike(normalize(hit_by_pitch))
    assert is_strike(normalize(hit_and_run))
    # Bottom of the 9th: the result decides.
    assert not is_strike(normalize(pitch(dice="pitch:S", result="B", stare={})))
    assert is_strike(normalize(pitch(dice="pitch:B", result="F", stare={})))


def test_batting_lines_add() -> None:
    line = BattingLine(pa=4, ab=3, h=1, bb=1) + BattingLine(pa=5, ab=5, h=2, hr=1)
    assert (line.pa, line.ab, line.h, line.hr, line.bb) == (9, 8, 3, 1, 1)
    assert line.avg == 3 / 8
    assert BattingLine().avg is None
    assert BattingLine().to_json()["OPS"] is None


def test_records_from_table_rows() -> None:
    """Rows of the pitch table (challenge columns, extras, seq) read like engine records."""
    record = pitch(dice="pitch:B", challenges=[challenge("home", "B", "reverse")])
    row = {k: v for k, v in record.items() if k not in ("challenge", "challenges")}
    row.update(seq=7, challenge_side="home", challenge_call="B", challenge_result="reverse",
               extras={"hit_and_run": False})
    first = {**pitch(dice="pitch:S"), "seq": 3}
    rows = as_records([row, first])
    assert [r["seq"] for r in rows] == [3, 7]
    assert rows[1]["challenges"] == [{"side": "home", "call": "B", "result": "reverse"}]
    assert rows[1]["hit_and_run"] is False
    assert is_strike(rows[1])
