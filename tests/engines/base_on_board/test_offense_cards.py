"""The 18 offense cards: when each may be played, when it may not, and what it does (docs §6,
§6.1, D15-D19, D22-D27, D29)."""

from __future__ import annotations

import pytest

from tests.engines.base_on_board.helpers import Table, situation, text


def cards_of(table: Table) -> list[str]:
    return [c["code"] for c in table.record()["cards"]]


def state_of(table: Table) -> tuple[str, int, int]:
    """(bases, outs, runs of the offense) now."""
    return text(table.state.bases), table.state.outs, table.state.score[table.offense]


# ---------------------------------------------------------------------------- HBP


@pytest.mark.parametrize(
    ("bases", "after", "runs"),
    [("000", "100", 0), ("010", "110", 0), ("101", "111", 0), ("011", "111", 0),
     ("111", "111", 1)],
)
def test_hbp_on_a_ball_puts_the_batter_on_first_forcing_runners(
    bases: str, after: str, runs: int
) -> None:
    # D24: HBP replaces the ball: batter to first, forced runners advance.
    table = situation(bases=bases, balls=1, offense_hand=["HBP"])
    table.run("B", {"type": "play", "card": "HBP"})
    rec = table.record()
    assert (rec["pa_result"], rec["bases_after"], rec["runs"]) == ("HBP", after, runs)
    assert (rec["balls_after"], rec["strikes_after"]) == (0, 0)
    assert cards_of(table) == ["HBP"]


@pytest.mark.parametrize("face", ["S", "SM", "F"])
def test_hbp_only_on_a_ball(face: str) -> None:
    table = situation(bases="100", offense_hand=["HBP"]).run(face)
    assert not table.offered("HBP")
    table = situation(bases="100", offense_hand=["HBP"]).run("C", "GA")
    assert not table.offered("HBP")


# ---------------------------------------------------------------------------- WP


def test_wild_pitch_advances_every_runner_and_the_ball_counts() -> None:
    table = situation(bases="101", balls=1, offense_hand=["WP"])
    table.run("B", {"type": "play", "card": "WP"})
    rec = table.record()
    assert (rec["bases_after"], rec["runs"], rec["balls_after"]) == ("010", 1, 2)
    assert rec["pa_result"] is None


def test_wild_pitch_on_ball_four_then_walks() -> None:
    table = situation(bases="110", balls=3, offense_hand=["WP"])
    table.run("B", {"type": "play", "card": "WP"})
    rec = table.record()
    # runners 1st, 2nd -> 2nd, 3rd; then ball four: batter to 1st, nobody forced.
    assert (rec["bases_after"], rec["runs"], rec["pa_result"]) == ("111", 0, "BB")


@pytest.mark.parametrize("face", ["S", "SM", "F"])
def test_wild_pitch_only_on_a_ball(face: str) -> None:
    table = situation(bases="100", offense_hand=["WP"]).run(face)
    assert not table.offered("WP")


# ---------------------------------------------------------------------------- BK


def test_balk_advances_every_runner_and_reopens_the_pre_pitch_windows() -> None:
    table = situation(bases="011", offense_hand=["BK", "BK", "WP", "HBP"])
    assert table.legal() == [
        {"side": table.offense, "type": "play", "card": "BK"},
        {"side": table.offense, "type": "pass"},
    ]
    table.play("BK")
    assert state_of(table) == ("001", 0, 1)
    # D29: after BK the pre-pitch windows open again (a runner is still on).
    assert table.head() == (table.offense, "pre")
    assert {"side": table.offense, "type": "play", "card": "BK"} in table.legal()
    assert len(table.state.hands[table.offense]) == 4  # drawn at once (§3)
    table.run("S")
    rec = table.record()
    assert (rec["bases"], rec["bases_after"], rec["runs"]) == ("011", "001", 1)
    assert cards_of(table) == ["BK"]


def test_balk_needs_a_runner() -> None:
    table = situation(bases="000", offense_hand=["BK"]).run("S")
    assert not table.offered("BK")


# ---------------------------------------------------------------------------- POE


@pytest.mark.parametrize(
    ("pickoff", "bases", "face", "after", "runs"),
    [("PO1", "100", None, "010", 0), ("PO1", "101", None, "010", 1),
     ("PO2", "110", None, "011", 0), ("CO1", "100", "S", "010", 0),
     ("CO3", "001", "B", "000", 1)],
)
def test_poe_cancels_a_pickoff_and_advances_every_runner(
    pickoff: str, bases: str, face: str | None, after: str, runs: int
) -> None:
    table = situation(bases=bases, offense_hand=["POE"], defense_hand=[pickoff])
    if face:
        table.roll(face)
    table.play(pickoff)
    table.play("POE")
    assert state_of(table) == (after, 0, runs)


def test_poe_is_only_an_answer_to_a_pickoff() -> None:
    for face in ("B", "S"):
        table = situation(bases="100", offense_hand=["POE"]).run(face)
        assert not table.offered("POE")


# ---------------------------------------------------------------------------- steals


@pytest.mark.parametrize(
    ("card", "bases", "after", "runs"),
    [("SB2", "100", "010", 0), ("SB2", "101", "011", 0), ("SB3", "010", "001", 0),
     ("SB3", "110", "101", 0), ("SBH", "001", "000", 1), ("SBH", "111", "110", 1)],
)
@pytest.mark.parametrize("face", ["S", "SM", "B"])
def test_steal_succeeds_and_the_pitch_counts(
    card: str, bases: str, after: str, runs: int, face: str
) -> None:
    table = situation(bases=bases, balls=1, strikes=1, offense_hand=[card])
    table.run(face, {"type": "play", "card": card})
    rec = table.record()
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 0)
    assert (rec["balls_after"], rec["strikes_after"]) == (
        (2, 1) if face == "B" else (1, 2)
    )
    assert cards_of(table) == [card]


@pytest.mark.parametrize(
    ("card", "catch", "bases", "after"),
    [("SB2", "CS2", "100", "000"), ("SB3", "CS3", "110", "100"), ("SBH", "CSH", "101", "100")],
)
def test_caught_stealing_answers_its_steal(card: str, catch: str, bases: str, after: str) -> None:
    table = situation(bases=bases, offense_hand=[card], defense_hand=["CS2", "CS3", "CSH"])
    table.roll("S")
    table.play(card)
    # D15: only the matching CS card answers (CS2 SB2, CS3 SB3, CSH SBH).
    answers = [a["card"] for a in table.legal() if a["type"] == "play"]
    assert answers == [catch]
    table.play(catch)
    table.settle()
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, 1, 0)
    assert cards_of(table) == [card, catch]


@pytest.mark.parametrize(
    ("card", "bases"),
    [("SB2", "000"), ("SB2", "110"), ("SB2", "010"), ("SB3", "100"), ("SB3", "011"),
     ("SB3", "111"), ("SBH", "110"), ("SBH", "000")],
)
def test_steal_needs_its_runner_and_an_empty_base(card: str, bases: str) -> None:
    # D23: SB2 a runner on first and second empty; SB3 on second and third empty; SBH on third.
    table = situation(bases=bases, offense_hand=[card]).run("S")
    assert not table.offered(card)


@pytest.mark.parametrize("card", ["SB2", "SB3", "SBH"])
def test_no_steal_on_a_foul_or_contact(card: str) -> None:
    bases = {"SB2": "100", "SB3": "010", "SBH": "001"}[card]
    table = situation(bases=bases, offense_hand=[card])
    table.run("F")
    table.run("C", "FO")
    assert not table.offered(card)


# ---------------------------------------------------------------------------- bunts


@pytest.mark.parametrize(
    ("bases", "outs", "after", "runs"),
    [("100", 0, "010", 0), ("010", 1, "001", 0), ("110", 0, "011", 0)],
)
def test_sacrifice_bunt(bases: str, outs: int, after: str, runs: int) -> None:
    # D22: SB: every runner advances, the batter is out.
    table = situation(bases=bases, outs=outs, offense_hand=["SB"])
    table.run("C", {"type": "play", "card": "SB"})
    rec = table.record()
    assert [d["die"] for d in rec["dice"]] == ["pitch"]  # no bat die on a bunt
    assert (rec["result"], rec["pa_result"]) == ("SB", "SAC")
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs + 1, runs)


@pytest.mark.parametrize(("bases", "outs"), [("100", 2), ("001", 0), ("101", 0), ("111", 0),
                                             ("000", 0), ("011", 1)])
def test_sacrifice_bunt_not_offered(bases: str, outs: int) -> None:
    # §6: runner on 1st, 2nd, or 1st and 2nd; D22: 0-1 out.
    table = situation(bases=bases, outs=outs, offense_hand=["SB"]).run("C", "FO")
    assert not table.offered("SB")


@pytest.mark.parametrize(("bases", "outs", "after"), [("001", 0, "000"), ("111", 1, "110"),
                                                      ("101", 0, "100")])
def test_squeeze_one(bases: str, outs: int, after: str) -> None:
    # D22: SQ1: the runner from third scores, the others hold, the batter is out.
    table = situation(bases=bases, outs=outs, offense_hand=["SQ1"])
    table.run("C", {"type": "play", "card": "SQ1"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("SQ1", "SAC")
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs + 1, 1)


@pytest.mark.parametrize(("bases", "outs"), [("001", 2), ("110", 0), ("000", 0)])
def test_squeeze_one_not_offered(bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs, offense_hand=["SQ1"]).run("C", "FO")
    assert not table.offered("SQ1")


@pytest.mark.parametrize(("bases", "outs", "after", "runs"),
                         [("001", 0, "100", 1), ("111", 2, "111", 1), ("011", 1, "101", 1)])
def test_squeeze_two_all_safe(bases: str, outs: int, after: str, runs: int) -> None:
    # D22: SQ2: the batter is safe at first, every runner advances one (any number of outs).
    table = situation(bases=bases, outs=outs, offense_hand=["SQ2"])
    table.run("C", {"type": "play", "card": "SQ2"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("SQ2", "1B")
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, outs, runs)


@pytest.mark.parametrize("bases", ["000", "100", "110"])
def test_squeeze_two_needs_a_runner_on_third(bases: str) -> None:
    table = situation(bases=bases, offense_hand=["SQ2"]).run("C", "FO")
    assert not table.offered("SQ2")


@pytest.mark.parametrize("card", ["SB", "SQ1", "SQ2"])
def test_bunts_only_on_contact(card: str) -> None:
    table = situation(bases="101", offense_hand=[card]).run("B")
    table.run("S")
    assert not table.offered(card)


# ---------------------------------------------------------------------------- E


@pytest.mark.parametrize("face", ["GF", "G3", "GA", "PO", "FO", "F2", "F3", "FA"])
@pytest.mark.parametrize(("bases", "after", "runs"), [("000", "100", 0), ("101", "110", 1),
                                                      ("111", "111", 1)])
def test_error_on_a_batted_out(face: str, bases: str, after: str, runs: int) -> None:
    # D19: the batter is safe at first and every runner advances one base.
    table = situation(bases=bases, outs=1, offense_hand=["E"])
    table.run("C", face, {"type": "play", "card": "E"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("E", "E")
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, 1, runs)


@pytest.mark.parametrize(("defense", "face", "bases"),
                         [("GDP", "GA", "110"), ("GTP", "GF", "111"), ("GBH", "GA", "011")])
def test_error_answers_gdp_gtp_gbh(defense: str, face: str, bases: str) -> None:
    table = situation(bases=bases, offense_hand=["E"], defense_hand=[defense])
    table.run("C", face, {"type": "play", "card": defense}, {"type": "play", "card": "E"})
    rec = table.record()
    after = {"110": "111", "111": "111", "011": "101"}[bases]
    runs = {"110": 0, "111": 1, "011": 1}[bases]
    assert (rec["pa_result"], rec["bases_after"], rec["outs_after"], rec["runs"]) == (
        "E", after, 0, runs
    )
    assert cards_of(table) == [defense, "E"]


def test_error_not_on_a_hit_home_run_or_pitch() -> None:
    table = situation(bases="100", offense_hand=["E"])
    table.run("C", "HT", "L1")
    table.run("C", "HR")
    table.run("B")
    table.run("F")
    assert not table.offered("E")


def test_error_cannot_answer_an_assist_on_the_batted_ball() -> None:
    # D15: once the defense played on a batted ball the offense may only answer that card.
    table = situation(bases="010", offense_hand=["E"], defense_hand=["A3F"])
    table.run("C", "F2", {"type": "play", "card": "A3F"})
    assert not table.offered("E")
    assert table.record()["result"] == "A3F"


# ---------------------------------------------------------------------------- 1H1E


@pytest.mark.parametrize(
    ("bases", "face", "after", "runs"),
    [("000", "L1", "010", 0), ("100", "L1", "011", 0), ("100", "D2", "001", 1),
     ("111", "R2", "010", 3), ("000", "T3", "000", 1)],
)
def test_one_hit_one_error_moves_everyone_one_more_base(
    bases: str, face: str, after: str, runs: int
) -> None:
    # D27: every runner after the hit, the batter included, advances one more base.
    table = situation(bases=bases, offense_hand=["1H1E"])
    table.run("C", "HT", face, {"type": "play", "card": "1H1E"})
    rec = table.record()
    assert (rec["bases_after"], rec["runs"], rec["result"]) == (after, runs, f"HT:{face}")


def test_one_hit_one_error_only_on_a_hit() -> None:
    table = situation(bases="100", offense_hand=["1H1E"])
    table.run("C", "GA")
    table.run("C", "HR")
    table.run("B")
    assert not table.offered("1H1E")


# ---------------------------------------------------------------------------- HRC


def test_hrc_forbids_the_home_run_challenge() -> None:
    table = situation(bases="100", challenges=1, offense_hand=["HRC"])
    table.roll("C")
    table.roll("HR")
    assert table.head() == (table.offense, "cards")
    table.play("HRC")
    table.settle()
    assert not any(a["type"] == "challenge" for a in table.seen)
    rec = table.record()
    assert (rec["result"], rec["runs"], rec["challenge"]) == ("HR", 2, None)
    assert table.state.challenges[table.defense] == 1


def test_without_hrc_the_defense_may_challenge_a_home_run() -> None:
    table = situation(bases="100", challenges=1, offense_hand=["HRC"])
    table.run("C", "HR")
    assert {"side": table.defense, "type": "challenge"} in table.seen


def test_hrc_only_on_a_home_run() -> None:
    table = situation(bases="100", offense_hand=["HRC"])
    table.run("C", "HT", "T3")
    table.run("C", "FO")
    table.run("B")
    assert not table.offered("HRC")


# ---------------------------------------------------------------------------- CIB, SNO, IOB


@pytest.mark.parametrize(("strikes", "bases", "after", "runs"),
                         [(0, "000", "100", 0), (2, "101", "110", 1), (1, "111", "111", 1)])
def test_catchers_interference_on_a_swinging_strike(
    strikes: int, bases: str, after: str, runs: int
) -> None:
    # D24: batter to first, every runner advances one.
    table = situation(bases=bases, strikes=strikes, offense_hand=["CIB"])
    table.run("SM", {"type": "play", "card": "CIB"})
    rec = table.record()
    assert (rec["pa_result"], rec["bases_after"], rec["runs"], rec["outs_after"]) == (
        "CI", after, runs, 0
    )


@pytest.mark.parametrize("face", ["S", "B", "F"])
def test_catchers_interference_only_on_sm(face: str) -> None:
    table = situation(offense_hand=["CIB"]).run(face)
    assert not table.offered("CIB")


@pytest.mark.parametrize(("bases", "outs", "after", "runs"),
                         [("000", 0, "100", 0), ("011", 1, "101", 1), ("110", 2, "111", 0),
                          ("111", 2, "111", 1)])
def test_uncaught_third_strike(bases: str, outs: int, after: str, runs: int) -> None:
    # D24: SM as the third strike, first base empty or two outs: batter to first, runners +1.
    table = situation(bases=bases, outs=outs, strikes=2, offense_hand=["SNO"])
    table.run("SM", {"type": "play", "card": "SNO"})
    rec = table.record()
    assert (rec["pa_result"], rec["bases_after"], rec["runs"], rec["outs_after"]) == (
        "SNO", after, runs, outs
    )


@pytest.mark.parametrize(("face", "strikes", "bases", "outs"),
                         [("SM", 1, "000", 0), ("S", 2, "000", 0), ("SM", 2, "100", 0),
                          ("SM", 2, "110", 1), ("B", 2, "000", 0)])
def test_uncaught_third_strike_not_offered(face: str, strikes: int, bases: str, outs: int) -> None:
    table = situation(bases=bases, outs=outs, strikes=strikes, offense_hand=["SNO"]).run(face)
    assert not table.offered("SNO")


@pytest.mark.parametrize("face", ["GF", "GA", "PO"])
@pytest.mark.parametrize(("bases", "after", "runs"), [("100", "110", 0), ("011", "101", 1)])
def test_obstruction(face: str, bases: str, after: str, runs: int) -> None:
    # D26: the batter to first, every runner advances one base.
    table = situation(bases=bases, offense_hand=["IOB"])
    table.run("C", face, {"type": "play", "card": "IOB"})
    rec = table.record()
    assert (rec["result"], rec["pa_result"]) == ("IOB", "IOB")
    assert (rec["bases_after"], rec["runs"], rec["outs_after"]) == (after, runs, 0)


@pytest.mark.parametrize(("bases", "face"), [("000", "GF"), ("000", "GA"), ("100", "FO"),
                                             ("100", "G3"), ("100", "F2")])
def test_obstruction_not_offered(bases: str, face: str) -> None:
    table = situation(bases=bases, offense_hand=["IOB"]).run("C", face)
    assert not table.offered("IOB")


# ---------------------------------------------------------------------------- HNR (§6.1, D18)


def test_hit_and_run_skips_the_pitch_die() -> None:
    table = situation(bases="100", offense_hand=["HNR"])
    table.play("HNR")
    # D29: after HNR the offense rolls the bat die at once; no card, no pass.
    assert table.head() == (table.offense, "swing")
    assert table.legal() == [{"side": table.offense, "type": "roll"}]
    table.run("FA")
    rec = table.record()
    assert rec["dice"] == [{"die": "bat", "face": "FA"}]
    assert rec["hit_and_run"] is True


@pytest.mark.parametrize("bases", ["000", "010", "001", "101", "011", "111"])
def test_hit_and_run_needs_first_or_first_and_second(bases: str) -> None:
    table = situation(bases=bases, offense_hand=["HNR"]).run("S")
    assert not table.offered("HNR")


@pytest.mark.parametrize(("face", "bases", "after"),
                         [("GF", "100", "010"), ("G3", "110", "011"), ("GA", "110", "011")])
def test_hit_and_run_ground_balls_play_as_ga(face: str, bases: str, after: str) -> None:
    table = situation(bases=bases, offense_hand=["HNR"], defense_hand=["GDP", "GTP"])
    table.play("HNR")
    table.run(face)
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == (after, 1, 0)
    # §6.1: GDP may not be played (nor GTP, which needs GF).
    assert not table.offered("GDP") and not table.offered("GTP")


@pytest.mark.parametrize("face", ["FO", "PO"])
def test_hit_and_run_fly_doubles_up_the_runner(face: str) -> None:
    table = situation(bases="100", offense_hand=["HNR"])
    table.play("HNR")
    table.run(face)
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"], rec["pa_result"]) == ("000", 2, "DP")


@pytest.mark.parametrize(("runner", "after"), [("1B", "010"), ("2B", "100")])
@pytest.mark.parametrize("face", ["FO", "PO"])
def test_hit_and_run_fly_with_two_runners_defense_chooses(
    face: str, runner: str, after: str
) -> None:
    table = situation(bases="110", offense_hand=["HNR"])
    table.play("HNR")
    table.roll(face)
    table.settle()
    assert table.head() == (table.defense, "choose")
    assert table.legal() == [
        {"side": table.defense, "type": "choose", "runner": "1B"},
        {"side": table.defense, "type": "choose", "runner": "2B"},
    ]
    table.run({"type": "choose", "runner": runner})
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"]) == (after, 2)


@pytest.mark.parametrize("face", ["F2", "F3", "FA"])
def test_hit_and_run_deep_flies_send_the_runners_back(face: str) -> None:
    table = situation(bases="110", offense_hand=["HNR"])
    table.play("HNR")
    table.run(face)
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"], rec["runs"]) == ("110", 1, 0)


@pytest.mark.parametrize(("bases", "face", "after", "runs"),
                         [("100", "L1", "101", 0), ("110", "L1", "101", 1),
                          ("100", "D2", "010", 1), ("110", "R2", "100", 2)])
def test_hit_and_run_hit_gives_runners_an_extra_base(
    bases: str, face: str, after: str, runs: int
) -> None:
    # D18: runners (not the batter) take one extra base.
    table = situation(bases=bases, offense_hand=["HNR"])
    table.play("HNR")
    table.run("HT", face)
    rec = table.record()
    assert (rec["bases_after"], rec["runs"]) == (after, runs)


# ---------------------------------------------------------------------------- RNH (§6.1, D16-17)


def test_run_and_hit_needs_three_balls_and_first_or_first_and_second() -> None:
    for bases, balls in (("100", 2), ("010", 3), ("101", 3), ("000", 3)):
        table = situation(bases=bases, balls=balls, offense_hand=["RNH"]).run("S")
        assert not table.offered("RNH"), (bases, balls)
    for bases in ("100", "110"):
        table = situation(bases=bases, balls=3, offense_hand=["RNH"])
        assert {"side": table.offense, "type": "play", "card": "RNH"} in table.legal()


def run_and_hit(bases: str, strikes: int = 0, defense_hand: tuple[str, ...] = ()) -> Table:
    table = situation(bases=bases, balls=3, strikes=strikes,
                      offense_hand=["RNH", "HBP", "WP", "SB2"], defense_hand=defense_hand)
    table.play("RNH")
    # D29: after RNH the defense must pitch.
    assert table.legal() == [{"side": table.defense, "type": "roll"}]
    assert len(table.state.hands[table.offense]) == 3  # D16: not replaced yet
    return table


@pytest.mark.parametrize(("bases", "stolen", "walk"), [("100", "010", "110"),
                                                       ("110", "011", "111")])
def test_run_and_hit_steal_on_ball_four(bases: str, stolen: str, walk: str) -> None:
    table = run_and_hit(bases)
    table.roll("B")
    assert text(table.state.bases) == stolen
    table.settle()
    rec = table.record()
    # D17: every runner steals, then the count: ball four walks the batter.
    assert (rec["bases_after"], rec["pa_result"], rec["runs"]) == (walk, "BB", 0)
    assert rec["run_and_hit"] is True
    # D17: RNH is the offense's card for that pitch: no HBP, WP, steal on the ball.
    assert not table.offered("HBP") and not table.offered("WP") and not table.offered("SB2")
    assert len(table.state.hands[table.offense]) == 4  # replaced once the pitch is over
    assert "RNH" in table.state.discards["offense"]


@pytest.mark.parametrize("face", ["S", "SM"])
def test_run_and_hit_steal_on_a_strike(face: str) -> None:
    table = run_and_hit("110", strikes=1)
    table.run(face)
    rec = table.record()
    assert (rec["bases_after"], rec["strikes_after"], rec["pa_result"]) == ("011", 2, None)


@pytest.mark.parametrize(("catch", "after"), [("CS2", "001"), ("CS3", "010")])
def test_run_and_hit_caught_stealing(catch: str, after: str) -> None:
    table = run_and_hit("110", strikes=1, defense_hand=("CS2", "CS3"))
    table.roll("S")
    assert [a["card"] for a in table.legal() if a["type"] == "play"] == ["CS2", "CS3"]
    table.play(catch)
    table.settle()
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"], rec["strikes_after"]) == (after, 1, 2)


def test_run_and_hit_cs3_needs_a_runner_from_second() -> None:
    table = run_and_hit("100", defense_hand=("CS2", "CS3"))
    table.roll("S")
    assert [a["card"] for a in table.legal() if a["type"] == "play"] == ["CS2"]


def test_run_and_hit_foul_returns_the_card() -> None:
    table = run_and_hit("100", strikes=1)
    table.run("F")
    rec = table.record()
    # §6.1: on a foul the runners go back and the card counts as not used (D16: back to hand).
    assert (rec["bases_after"], rec["strikes_after"]) == ("100", 2)
    hand = table.state.hands[table.offense]
    assert sorted(hand) == sorted(["RNH", "HBP", "WP", "SB2"])
    assert "RNH" not in table.state.discards["offense"]


def test_run_and_hit_on_contact_discards_and_replaces_the_card() -> None:
    # D16: the RNH replacement is drawn when RNH's pitch is over; the card is then discarded.
    table = run_and_hit("100")
    table.run("C", "FA")
    assert table.records()[0]["bases_after"] == "100"  # plays as HNR: runners go back
    assert len(table.state.hands[table.offense]) == 4
    assert "RNH" in table.state.discards["offense"]


def test_run_and_hit_on_contact_plays_as_hit_and_run() -> None:
    table = run_and_hit("100", defense_hand=("GDP",))
    table.run("C", "GF")
    rec = table.record()
    assert (rec["bases_after"], rec["outs_after"]) == ("010", 1)
    assert not table.offered("GDP")


@pytest.mark.parametrize("card", ["E", "IOB"])
def test_run_and_hit_is_the_offense_card_for_the_pitch_on_contact(card: str) -> None:
    table = situation(bases="100", balls=3, offense_hand=["RNH", "E", "IOB", "1H1E"])
    table.play("RNH")
    table.run("C", "GA")
    assert not table.offered(card)


def test_run_and_hit_is_the_offense_card_for_the_pitch_on_a_hit() -> None:
    table = situation(bases="100", balls=3, offense_hand=["RNH", "E", "IOB", "1H1E"])
    table.play("RNH")
    table.run("C", "HT", "L1")
    assert not table.offered("1H1E")
