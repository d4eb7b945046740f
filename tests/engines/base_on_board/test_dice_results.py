"""Every pitch-die, bat-die and hit-die result from every base state (docs §4.1-4.3, D1-D8).

The expected results are computed here from the document's words, runner by runner, not from
the engine's tables: ``OUT_MOVES`` / ``HIT_MOVES`` give where the runners on first, second and
third and the batter end (4 = scores, 0 = out / not on base).
"""

from __future__ import annotations

import pytest

from app.engines.base_on_board.data import BAT_DIE, HIT_DIE, PITCH_DIE
from tests.engines.base_on_board.helpers import ALL_BASES, bits, situation, text

# §4.2: where each runner (1st, 2nd, 3rd) goes on a batted out; the batter is out.
OUT_MOVES: dict[str, tuple[int, int, int]] = {
    "G3": (1, 2, 4),  # only the runner on 3rd advances and scores
    "GA": (2, 3, 4),  # all runners advance
    "PO": (1, 2, 3),  # no runner advances
    "FO": (1, 2, 3),
    "F2": (1, 3, 4),  # the runner on 2nd advances, a runner on 3rd scores (D7 aside)
    "F3": (1, 2, 4),  # only the runner on 3rd tags up and scores
    "FA": (2, 3, 4),  # all runners advance
}
# §4.3 with D2-D6: runners (1st, 2nd, 3rd) and the batter.
HIT_MOVES: dict[str, tuple[int, int, int, int]] = {
    "iH": (2, 3, 4, 1),
    "L1": (2, 3, 4, 1),
    "C1": (2, 3, 4, 1),
    "R1": (2, 3, 4, 1),
    "L2": (2, 4, 4, 1),  # D4: runner from 1st to 2nd; 2nd and 3rd score
    "C2": (2, 4, 4, 1),
    "R2": (3, 4, 4, 1),  # D3: every runner two bases, batter on 1st
    "D2": (3, 4, 4, 2),  # D5: runner from 1st stops at 3rd, batter on 2nd
    "D3": (4, 4, 4, 2),  # D6: every runner scores, batter on 2nd
    "T3": (4, 4, 4, 3),
}
HIT_PA = {"iH": "1B", "L1": "1B", "L2": "1B", "C1": "1B", "C2": "1B", "R1": "1B", "R2": "1B",
          "D2": "2B", "D3": "2B", "T3": "3B"}


def moved(bases: str, runners: tuple[int, ...], batter: int) -> tuple[str, int]:
    """Applies destinations to the runners on ``bases`` and the batter: (bases, runs)."""
    ends = [runners[i] for i in range(3) if bases[i] == "1"] + [batter]
    after = ["0", "0", "0"]
    runs = 0
    for end in ends:
        if end >= 4:
            runs += 1
        elif end:
            assert after[end - 1] == "0", "two runners on one base"
            after[end - 1] = "1"
    return "".join(after), runs


def ground_force(bases: str) -> tuple[str, bool]:
    """D8 from its words: the lead *forced* runner is out, runners behind him advance one,
    runners not forced hold, the batter is safe at first; first empty: batter out, runners hold.
    Returns (bases after, batter safe)."""
    chain = 0
    while chain < 3 and bases[chain] == "1":
        chain += 1
    if chain == 0:
        return bases, False
    after = list(bases)
    after[chain - 1] = "0"  # the lead forced runner is out
    for base in range(chain - 2, -1, -1):  # runners behind him move up one
        after[base] = "0"
        after[base + 1] = "1"
    after[0] = "1"  # the batter
    return "".join(after), True


def test_die_faces_are_the_documented_ones() -> None:
    # D1, the bat die table (8 outs, HT x3, HR x1) and D2.
    assert sorted(PITCH_DIE) == sorted(["S", "S", "SM", "F", "B", "B", "B", "B", "C", "C", "C",
                                        "C"])
    assert sorted(BAT_DIE) == sorted(["GF", "G3", "GA", "PO", "FO", "F2", "F3", "FA", "HT", "HT",
                                      "HT", "HR"])
    assert sorted(HIT_DIE) == sorted(["iH", "L1", "L2", "L2", "C1", "C2", "C2", "R1", "R2", "D2",
                                      "D3", "T3"])


# ---------------------------------------------------------------------------- bat die


@pytest.mark.parametrize("outs", [0, 1, 2])
@pytest.mark.parametrize("bases", ALL_BASES)
@pytest.mark.parametrize("face", sorted(OUT_MOVES))
def test_batted_out(face: str, bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs, balls=1, strikes=2).run("C", face)
    rec = table.record()
    after, runs = moved(bases, OUT_MOVES[face], 0)
    assert rec["dice"] == [{"die": "pitch", "face": "C"}, {"die": "bat", "face": face}]
    assert rec["result"] == face
    assert (rec["bases"], rec["outs"], rec["balls"], rec["strikes"]) == (bases, outs, 1, 2)
    assert (rec["balls_after"], rec["strikes_after"]) == (0, 0)
    assert rec["outs_after"] == outs + 1
    if outs == 2:
        # D7: no run scores on a play whose batter-out is the third out; the half ends.
        assert rec["runs"] == 0
        assert table.state.score == {"home": 0, "away": 0}
        assert table.state.half == "bottom"
        assert table.state.outs == 0 and table.state.bases == 0
        assert rec["pa_result"] == "OUT"
    else:
        assert rec["runs"] == runs
        assert rec["bases_after"] == after
        assert text(table.state.bases) == after
        assert table.state.outs == outs + 1
        assert table.state.score[table.offense] == runs
        sac = runs > 0 and face in ("F2", "F3", "FA")
        assert rec["pa_result"] == ("SF" if sac else "OUT")


@pytest.mark.parametrize("outs", [0, 1, 2])
@pytest.mark.parametrize("bases", ALL_BASES)
def test_ground_ball_force(bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs).run("C", "GF")
    rec = table.record()
    after, safe = ground_force(bases)
    assert rec["result"] == "GF"
    assert rec["runs"] == 0
    assert rec["outs_after"] == outs + 1
    assert rec["pa_result"] == ("FC" if safe else "OUT")
    if outs < 2:
        assert rec["bases_after"] == after
        assert text(table.state.bases) == after
    else:
        assert table.state.half == "bottom"


@pytest.mark.parametrize("outs", [0, 2])
@pytest.mark.parametrize("bases", ALL_BASES)
def test_home_run(bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs).run("C", "HR")
    rec = table.record()
    runs = bits(bases).bit_count() + 1
    assert rec["dice"] == [{"die": "pitch", "face": "C"}, {"die": "bat", "face": "HR"}]
    assert (rec["result"], rec["pa_result"]) == ("HR", "HR")
    assert rec["runs"] == runs == table.state.score[table.offense]
    assert (rec["bases_after"], rec["outs_after"]) == ("000", outs)


# ---------------------------------------------------------------------------- hit die


@pytest.mark.parametrize("bases", ALL_BASES)
@pytest.mark.parametrize("face", sorted(HIT_MOVES))
def test_hit(face: str, bases: str) -> None:
    moves = HIT_MOVES[face]
    table = situation(bases=bases, outs=1, balls=2, strikes=1).run("C", "HT", face)
    rec = table.record()
    after, runs = moved(bases, moves[:3], moves[3])
    assert rec["dice"] == [
        {"die": "pitch", "face": "C"}, {"die": "bat", "face": "HT"}, {"die": "hit", "face": face}
    ]
    assert rec["result"] == f"HT:{face}"
    assert rec["pa_result"] == HIT_PA[face]
    assert (rec["bases"], rec["bases_after"]) == (bases, after)
    assert rec["runs"] == runs == table.state.score[table.offense]
    assert (rec["outs"], rec["outs_after"]) == (1, 1)
    assert (rec["balls_after"], rec["strikes_after"]) == (0, 0)
    assert text(table.state.bases) == after


def test_two_outs_do_not_change_a_hit() -> None:
    table = situation(bases="111", outs=2).run("C", "HT", "D3")
    assert table.record()["runs"] == 3
    assert table.record()["bases_after"] == "010"


# ---------------------------------------------------------------------------- pitch die


@pytest.mark.parametrize("face", ["S", "SM"])
@pytest.mark.parametrize("strikes", [0, 1])
def test_strike_adds_to_the_count(face: str, strikes: int) -> None:
    table = situation(bases="100", balls=2, strikes=strikes).run(face)
    rec = table.record()
    assert rec["dice"] == [{"die": "pitch", "face": face}]
    assert (rec["result"], rec["pa_result"], rec["runs"]) == (face, None, 0)
    assert (rec["balls_after"], rec["strikes_after"], rec["outs_after"]) == (2, strikes + 1, 0)
    assert rec["bases_after"] == "100"
    assert (table.state.strikes, table.state.batters[table.offense]) == (strikes + 1, 1)


@pytest.mark.parametrize("face", ["S", "SM"])
@pytest.mark.parametrize("outs", [0, 1])
def test_third_strike_is_a_strikeout(face: str, outs: int) -> None:
    table = situation(bases="010", outs=outs, balls=3, strikes=2).run(face)
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == (face, "K")
    assert (rec["balls_after"], rec["strikes_after"], rec["outs_after"]) == (0, 0, outs + 1)
    assert rec["bases_after"] == "010"
    assert (table.state.balls, table.state.strikes, table.state.outs) == (0, 0, outs + 1)
    assert table.state.batters[table.offense] == 2  # the next batter is up


def test_strikeout_for_the_third_out_ends_the_half() -> None:
    table = situation(bases="111", outs=2, strikes=2).run("S")
    rec = table.record()
    assert (rec["pa_result"], rec["outs_after"], rec["runs"]) == ("K", 3, 0)
    assert (table.state.half, table.state.outs, table.state.bases) == ("bottom", 0, 0)


@pytest.mark.parametrize(("strikes", "after"), [(0, 1), (1, 2), (2, 2)])
def test_foul_is_a_strike_except_with_two_strikes(strikes: int, after: int) -> None:
    table = situation(balls=1, strikes=strikes).run("F")
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("F", None)
    assert (rec["strikes_after"], rec["outs_after"]) == (after, 0)
    assert table.state.strikes == after and table.state.outs == 0


@pytest.mark.parametrize("balls", [0, 1, 2])
def test_ball_adds_to_the_count(balls: int) -> None:
    table = situation(bases="101", balls=balls, strikes=2).run("B")
    rec = table.record()
    assert (rec["result"], rec["pa_result"], rec["runs"]) == ("B", None, 0)
    assert (rec["balls_after"], rec["strikes_after"], rec["bases_after"]) == (balls + 1, 2, "101")


# Ball four forces the batter to first and only forced runners ahead (§4.1 note).
WALKS = {"000": ("100", 0), "100": ("110", 0), "010": ("110", 0), "001": ("101", 0),
         "110": ("111", 0), "101": ("111", 0), "011": ("111", 0), "111": ("111", 1)}


@pytest.mark.parametrize("bases", ALL_BASES)
def test_walk_forces_runners(bases: str) -> None:
    table = situation(bases=bases, outs=2, balls=3, strikes=1).run("B")
    rec = table.record()
    after, runs = WALKS[bases]
    assert (rec["result"], rec["pa_result"]) == ("B", "BB")
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 2)
    assert (rec["balls_after"], rec["strikes_after"]) == (0, 0)
    assert table.state.score[table.offense] == runs
    assert table.state.batters[table.offense] == 2


def test_contact_then_bat_die_is_rolled_by_the_offense() -> None:
    # D32: the defense rolls the pitch die, the offense the bat and hit dice.
    table = situation().settle()
    assert table.head() == (table.defense, "pitch")
    table.roll("C")
    assert table.head() == (table.offense, "swing")
    assert table.legal() == [{"side": table.offense, "type": "roll"}]
    table.roll("HT")
    table.settle()
    assert table.head() == (table.offense, "hit")
    table.roll("iH")
    rolls = table.of_type("roll")
    assert [(r["side"], r["die"]) for r in rolls] == [
        (table.defense, "pitch"), (table.offense, "bat"), (table.offense, "hit")
    ]
