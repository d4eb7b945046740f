"""The 20 defense cards and the IFL token: when each may be played, when it may not, and what
it does (docs §5, §5.1, §6.2, D13-D15, D20-D23, D28)."""

from __future__ import annotations

import pytest

from tests.engines.base_on_board.helpers import situation, text

# ---------------------------------------------------------------------------- pick-offs


@pytest.mark.parametrize(("card", "bases", "after"),
                         [("PO1", "100", "000"), ("PO1", "101", "001"),
                          ("PO2", "010", "000"), ("PO2", "110", "100")])
def test_pitcher_pickoff_before_the_pitch(card: str, bases: str, after: str) -> None:
    table = situation(bases=bases, outs=1, defense_hand=[card, "GDP", "GBH", "FFO"])
    table.play(card)
    table.settle()  # the offense's answer window (POE) passes
    assert (text(table.state.bases), table.state.outs) == (after, 2)
    assert len(table.state.hands[table.defense]) == 4
    # D29: after a pick-off the pre-pitch windows open again; the pitch is still to come.
    assert table.records() == []
    table.run("B")
    rec = table.record()
    assert (rec["bases"], rec["outs"], rec["bases_after"], rec["outs_after"]) == (
        bases, 1, after, 2
    )
    assert rec["cards"] == [{"side": table.defense, "code": card}]


@pytest.mark.parametrize(("card", "bases"),
                         [("PO1", "000"), ("PO1", "110"), ("PO1", "111"), ("PO1", "010"),
                          ("PO2", "011"), ("PO2", "111"), ("PO2", "001"), ("PO2", "100")])
def test_pitcher_pickoff_only_in_the_listed_situations(card: str, bases: str) -> None:
    # D23: PO1 runners exactly 1 or 1-3; PO2 exactly 2 or 1-2.
    table = situation(bases=bases, defense_hand=[card]).run("S")
    assert not table.offered(card)


def test_pickoff_for_the_third_out_gives_a_record_without_dice() -> None:
    # D33: a pre-pitch play that ends the half-inning gives a record with no dice.
    table = situation(bases="100", outs=2, balls=2, defense_hand=["PO1"])
    table.play("PO1")
    table.settle()
    rec = table.record()
    assert rec["dice"] == []
    assert (rec["result"], rec["pa_result"], rec["outs_after"]) == ("PO1", None, 3)
    assert table.state.half == "bottom"


@pytest.mark.parametrize(("card", "bases", "after"),
                         [("CO1", "100", "000"), ("CO1", "111", "011"), ("CO3", "001", "000"),
                          ("CO3", "101", "100")])
@pytest.mark.parametrize("face", ["S", "SM", "B"])
def test_catcher_pickoff_after_the_pitch(card: str, bases: str, after: str, face: str) -> None:
    table = situation(bases=bases, balls=1, strikes=1, defense_hand=[card])
    table.run(face, {"type": "play", "card": card})
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"]) == (after, 1)
    assert (rec["balls_after"], rec["strikes_after"]) == ((2, 1) if face == "B" else (1, 2))


@pytest.mark.parametrize(("card", "bases", "face"),
                         [("CO1", "010", "S"), ("CO1", "100", "F"), ("CO3", "110", "B"),
                          ("CO3", "001", "F")])
def test_catcher_pickoff_not_offered(card: str, bases: str, face: str) -> None:
    table = situation(bases=bases, defense_hand=[card]).run(face)
    table.run("C", "FO")
    assert not table.offered(card)


# ---------------------------------------------------------------------------- FFO


@pytest.mark.parametrize("strikes", [0, 2])
def test_foul_fly_out(strikes: int) -> None:
    table = situation(bases="100", strikes=strikes, defense_hand=["FFO"])
    table.run("F", {"type": "play", "card": "FFO"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"], rec["outs_after"], rec["bases_after"]) == (
        "FFO", "OUT", 1, "100"
    )


@pytest.mark.parametrize("face", ["S", "SM", "B"])
def test_foul_fly_out_only_on_a_foul(face: str) -> None:
    table = situation(defense_hand=["FFO"]).run(face)
    table.run("C", "PO")
    assert not table.offered("FFO")


# ---------------------------------------------------------------------------- GDP, GTP, GBH, RHB


@pytest.mark.parametrize("face", ["GF", "GA"])
@pytest.mark.parametrize(("bases", "outs", "after"),
                         [("100", 0, "000"), ("110", 0, "010"), ("111", 0, "011"),
                          ("111", 1, None), ("100", 1, None)])
def test_ground_ball_double_play(face: str, bases: str, outs: int, after: str | None) -> None:
    # D21: the most advanced runner and the batter are out, the other runners advance one.
    table = situation(bases=bases, outs=outs, defense_hand=["GDP"])
    table.run("C", face, {"type": "play", "card": "GDP"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"], rec["runs"]) == ("GDP", "DP", 0)
    assert rec["outs_after"] == outs + 2
    if after is not None:
        assert rec["bases_after"] == after
    else:
        assert table.state.half == "bottom"


@pytest.mark.parametrize(("face", "bases", "outs"),
                         [("GA", "100", 2), ("GF", "010", 0), ("GA", "101", 0),
                          ("GA", "011", 0), ("G3", "100", 0), ("PO", "100", 0)])
def test_ground_ball_double_play_not_offered(face: str, bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs, defense_hand=["GDP"]).run("C", face)
    assert not table.offered("GDP")


@pytest.mark.parametrize("bases", ["110", "111"])
def test_ground_ball_triple_play(bases: str) -> None:
    table = situation(bases=bases, score=(2, 0), defense_hand=["GTP"])
    table.run("C", "GF", {"type": "play", "card": "GTP"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"], rec["outs_after"], rec["runs"]) == (
        "GTP", "TP", 3, 0
    )
    assert table.state.half == "bottom"


@pytest.mark.parametrize(("face", "bases", "outs"),
                         [("GF", "110", 1), ("GF", "100", 0), ("GA", "111", 0),
                          ("GF", "101", 0)])
def test_ground_ball_triple_play_not_offered(face: str, bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs, defense_hand=["GTP"]).run("C", face)
    assert not table.offered("GTP")


@pytest.mark.parametrize("bases", ["010", "001", "011"])
def test_holding_the_runners(bases: str) -> None:
    table = situation(bases=bases, defense_hand=["GBH"])
    table.run("C", "GA", {"type": "play", "card": "GBH"})
    rec = table.record()
    assert (rec["result"], rec["bases_after"], rec["outs_after"], rec["runs"]) == (
        "GBH", bases, 1, 0
    )


@pytest.mark.parametrize(("face", "bases"), [("GA", "110"), ("GA", "111"), ("GA", "100"),
                                             ("GA", "101"), ("GF", "010"), ("G3", "001")])
def test_holding_the_runners_not_offered(face: str, bases: str) -> None:
    table = situation(bases=bases, defense_hand=["GBH"]).run("C", face)
    assert not table.offered("GBH")


@pytest.mark.parametrize("face", ["GF", "GA"])
@pytest.mark.parametrize(("bases", "runner", "after"),
                         [("100", "1B", "100"), ("010", "2B", "100"), ("110", "1B", "110"),
                          ("110", "2B", "110"), ("111", "2B", "111"), ("011", "2B", "101")])
def test_runner_hit_by_batted_ball(face: str, bases: str, runner: str, after: str) -> None:
    # D20: the named runner is out, the batter is awarded first, forced runners advance.
    table = situation(bases=bases, defense_hand=["RHB"])
    table.run("C", face, {"type": "play", "card": "RHB", "runner": runner})
    offered = [a.get("runner") for a in table.seen if a.get("card") == "RHB"]
    assert offered == [r for r, b in (("1B", 0), ("2B", 1)) if bases[b] == "1"]
    rec = table.record()
    assert (rec["result"], rec["bases_after"], rec["outs_after"], rec["runs"]) == (
        "RHB", after, 1, 0
    )


@pytest.mark.parametrize(("face", "bases"), [("GF", "001"), ("GA", "000"), ("G3", "100"),
                                             ("PO", "100")])
def test_runner_hit_by_batted_ball_not_offered(face: str, bases: str) -> None:
    table = situation(bases=bases, defense_hand=["RHB"]).run("C", face)
    assert not table.offered("RHB")


# ---------------------------------------------------------------------------- LDP


@pytest.mark.parametrize(("bases", "runner", "after"),
                         [("100", "1B", "000"), ("111", "2B", "101"), ("101", "3B", "100")])
@pytest.mark.parametrize("outs", [0, 1])
def test_line_drive_double_play(bases: str, runner: str, after: str, outs: int) -> None:
    # D20: the batter and the named runner are out, others hold, no hit die.
    table = situation(bases=bases, outs=outs, defense_hand=["LDP"])
    table.run("C", "HT", {"type": "play", "card": "LDP", "runner": runner})
    rec = table.record()
    assert [d["die"] for d in rec["dice"]] == ["pitch", "bat"]
    assert (rec["result"], rec["pa_result"], rec["runs"]) == ("LDP", "DP", 0)
    assert rec["outs_after"] == outs + 2
    if outs == 0:
        assert rec["bases_after"] == after


def test_line_drive_double_play_offers_each_runner() -> None:
    table = situation(bases="111", defense_hand=["LDP"])
    table.roll("C")
    table.roll("HT")
    assert [a["runner"] for a in table.legal() if a.get("card") == "LDP"] == ["1B", "2B", "3B"]


@pytest.mark.parametrize(("bases", "outs"), [("100", 2), ("000", 0)])
def test_line_drive_double_play_not_offered(bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs, defense_hand=["LDP"]).run("C", "HT", "L1")
    table.run("C", "FO")
    assert not table.offered("LDP")


# ---------------------------------------------------------------------------- assists on hits


@pytest.mark.parametrize(("face", "bases", "after", "runs"),
                         [("D2", "000", "000", 0), ("D2", "110", "001", 1),
                          ("D3", "111", "000", 3)])
def test_assist_at_second_on_a_double(face: str, bases: str, after: str, runs: int) -> None:
    # D28: the batter-runner is out at second; every runner moves as the double says.
    table = situation(bases=bases, defense_hand=["A2"])
    table.run("C", "HT", face, {"type": "play", "card": "A2"})
    rec = table.record()
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 1)


def test_assist_with_two_outs_scores_no_run() -> None:
    # D7: no run on a play that makes the third out (assists included).
    table = situation(bases="111", outs=2, defense_hand=["A2"])
    table.run("C", "HT", "D3", {"type": "play", "card": "A2"})
    assert (table.record()["runs"], table.record()["outs_after"]) == (0, 3)
    assert table.state.score == {"home": 0, "away": 0}


@pytest.mark.parametrize("face", ["L1", "iH", "T3", "L2", "R2"])
def test_assist_at_second_only_on_doubles(face: str) -> None:
    table = situation(bases="100", defense_hand=["A2"]).run("C", "HT", face)
    assert not table.offered("A2")


@pytest.mark.parametrize(("face", "bases", "after", "runs"),
                         [("L2", "100", "100", 0), ("C2", "110", "100", 1),
                          ("R2", "111", "100", 2), ("D2", "100", "010", 0)])
def test_assist_at_third_on_a_hit(face: str, bases: str, after: str, runs: int) -> None:
    # A3H: the runner from first is out at third; the others move as the hit says.
    table = situation(bases=bases, defense_hand=["A3H"])
    table.run("C", "HT", face, {"type": "play", "card": "A3H"})
    rec = table.record()
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 1)


@pytest.mark.parametrize(("face", "bases"), [("L1", "100"), ("D3", "100"), ("L2", "010"),
                                             ("T3", "100"), ("iH", "110")])
def test_assist_at_third_on_a_hit_not_offered(face: str, bases: str) -> None:
    table = situation(bases=bases, defense_hand=["A3H"]).run("C", "HT", face)
    assert not table.offered("A3H")


@pytest.mark.parametrize(("face", "bases", "after", "runs"),
                         [("L2", "010", "100", 0), ("C2", "110", "110", 0),
                          ("R2", "011", "100", 1)])
def test_assist_at_home_on_a_hit(face: str, bases: str, after: str, runs: int) -> None:
    table = situation(bases=bases, defense_hand=["AHH"])
    table.run("C", "HT", face, {"type": "play", "card": "AHH"})
    rec = table.record()
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 1)


@pytest.mark.parametrize(("face", "bases"), [("L1", "010"), ("D2", "010"), ("L2", "101"),
                                             ("C1", "011")])
def test_assist_at_home_on_a_hit_not_offered(face: str, bases: str) -> None:
    table = situation(bases=bases, defense_hand=["AHH"]).run("C", "HT", face)
    assert not table.offered("AHH")


# ---------------------------------------------------------------------------- assists on flies


@pytest.mark.parametrize(("face", "bases", "after", "runs"),
                         [("F2", "010", "000", 0), ("F2", "111", "100", 1),
                          ("FA", "110", "010", 0), ("FA", "011", "000", 1)])
def test_assist_at_third_on_a_fly(face: str, bases: str, after: str, runs: int) -> None:
    table = situation(bases=bases, defense_hand=["A3F"])
    table.run("C", face, {"type": "play", "card": "A3F"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("A3F", "DP")
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 2)


@pytest.mark.parametrize(("face", "bases", "after", "runs"),
                         [("F3", "001", "000", 0), ("F3", "111", "110", 0),
                          ("FA", "101", "010", 0), ("FA", "011", "001", 0)])
def test_assist_at_home_on_a_fly(face: str, bases: str, after: str, runs: int) -> None:
    table = situation(bases=bases, defense_hand=["AHF"])
    table.run("C", face, {"type": "play", "card": "AHF"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("AHF", "DP")
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 2)


@pytest.mark.parametrize(("card", "face", "bases", "outs"),
                         [("A3F", "F2", "010", 2), ("A3F", "F3", "010", 0),
                          ("A3F", "FA", "101", 0), ("A3F", "FO", "010", 0),
                          ("AHF", "F3", "001", 2), ("AHF", "F2", "001", 0),
                          ("AHF", "FA", "110", 0), ("AHF", "PO", "001", 0)])
def test_assists_on_flies_not_offered(card: str, face: str, bases: str, outs: int) -> None:
    # D28: A3F on F2/FA with a runner on 2nd, AHF on F3/FA with a runner on 3rd; 0-1 out.
    table = situation(bases=bases, outs=outs, defense_hand=[card]).run("C", face)
    assert not table.offered(card)


# ---------------------------------------------------------------------------- IFD and IFL


@pytest.mark.parametrize(("bases", "after"), [("100", "000"), ("101", "001")])
@pytest.mark.parametrize("outs", [0, 1])
def test_infield_popup_double_play_without_infield_fly(bases: str, after: str, outs: int) -> None:
    # D14: runners on 1 or 1-3: the runner from first and the batter are out.
    table = situation(bases=bases, outs=outs, defense_hand=["IFD"])
    table.run("C", "PO", {"type": "play", "card": "IFD"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"], rec["outs_after"]) == ("IFD", "DP", outs + 2)
    if outs == 0:
        assert rec["bases_after"] == after


@pytest.mark.parametrize(("bases", "after"), [("110", "010"), ("111", "011")])
def test_infield_popup_double_play_when_the_offense_does_not_declare(
    bases: str, after: str
) -> None:
    table = situation(bases=bases, defense_hand=["IFD"])
    table.roll("C")
    table.roll("PO")
    assert table.head() == (table.offense, "ifl")
    assert table.legal() == [{"side": table.offense, "type": "ifl"},
                             {"side": table.offense, "type": "pass"}]
    table.run({"type": "play", "card": "IFD"})
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"]) == (after, 2)
    assert table.state.ifl[table.offense] == 1


@pytest.mark.parametrize("bases", ["110", "111"])
@pytest.mark.parametrize("outs", [0, 1])
def test_infield_fly_token(bases: str, outs: int) -> None:
    # §6.2 / D13: only the batter is out; the token is spent; IFD can no longer be played.
    table = situation(bases=bases, outs=outs, defense_hand=["IFD"])
    table.run("C", "PO", {"type": "ifl"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"], rec["outs_after"]) == ("IFL", "OUT", outs + 1)
    assert rec["bases_after"] == bases
    assert rec["cards"] == [{"side": table.offense, "code": "IFL"}]
    assert table.state.ifl == {table.offense: 0, table.defense: 1}
    assert not table.offered("IFD")
    # One token per game: the next infield-fly situation has no declaration.
    # One token per game: the next infield-fly situation (outs set back to 0 to make one) has
    # no declaration, and IFD may be played.
    seen = len(table.seen)
    table.state.outs = 0
    table.run("C", "PO")
    assert not any(a["type"] == "ifl" for a in table.seen[seen:])
    assert table.offered("IFD")


@pytest.mark.parametrize(("bases", "outs"), [("110", 2), ("100", 0), ("010", 0), ("111", 2),
                                             ("011", 0)])
def test_no_infield_fly_declaration(bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs).run("C", "PO")
    assert not any(a["type"] == "ifl" for a in table.seen)


@pytest.mark.parametrize(("bases", "outs", "face"),
                         [("100", 2, "PO"), ("010", 0, "PO"), ("011", 0, "PO"),
                          ("100", 0, "FO"), ("001", 0, "PO")])
def test_infield_popup_double_play_not_offered(bases: str, outs: int, face: str) -> None:
    table = situation(bases=bases, outs=outs, defense_hand=["IFD"]).run("C", face)
    assert not table.offered("IFD")


@pytest.mark.parametrize("tier", ["lite", "lite-extended"])
def test_no_infield_fly_token_below_pro(tier: str) -> None:
    table = situation(bases="110", tier=tier)
    assert table.state.ifl == {"home": 0, "away": 0}
    table.run("C", "PO")
    assert not any(a["type"] == "ifl" for a in table.seen)


# ---------------------------------------------------------------------------- answers


@pytest.mark.parametrize(("card", "bases", "after"),
                         [("SB", "110", "110"), ("SQ1", "101", "110"), ("SQ2", "011", "110"),
                          ("SB", "010", "100")])
def test_bunt_defense(card: str, bases: str, after: str) -> None:
    # D22: the most advanced runner is out, the batter is awarded first, forced runners advance.
    table = situation(bases=bases, offense_hand=[card], defense_hand=["BD"])
    table.roll("C")
    table.play(card)
    table.run({"type": "play", "card": "BD"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("BD", "FC")
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, 1, 0)


def test_bunt_defense_only_answers_a_bunt() -> None:
    table = situation(bases="100", offense_hand=["SB2"], defense_hand=["BD", "CS3"])
    table.run("S", {"type": "play", "card": "SB2"})
    table.run("C", "GF")
    assert not table.offered("BD") and not table.offered("CS3")


@pytest.mark.parametrize("card", ["CS2", "CS3", "CSH"])
def test_caught_stealing_only_answers_a_steal(card: str) -> None:
    table = situation(bases="111", defense_hand=[card]).run("S")
    table.run("B")
    table.run("C", "GA")
    assert not table.offered(card)


@pytest.mark.parametrize(("card", "face", "bases"), [("A3F", "FA", "011"), ("AHF", "FA", "111"),
                                                     ("A3F", "F2", "111")])
def test_assist_on_a_fly_for_the_third_out_scores_no_run(card: str, face: str, bases: str) -> None:
    # D7: no run scores on a play that makes the third out (the batter and the runner).
    table = situation(bases=bases, outs=1, defense_hand=[card])
    table.run("C", face, {"type": "play", "card": card})
    rec = table.record()
    assert (rec["outs_after"], rec["runs"]) == (3, 0)
    assert table.state.score == {"home": 0, "away": 0}
