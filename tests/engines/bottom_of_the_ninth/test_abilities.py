"""Each ability kind of the card vocabulary, the stare-down triggers, the ace and MVP lines,
and the rule that a modified die never switches an ability on."""

from __future__ import annotations

from app.engines.bottom_of_the_ninth.abilities import triggered
from app.engines.bottom_of_the_ninth.cards import default_cards
from tests.engines.bottom_of_the_ninth.helpers import make, pitch, pitch_record

LINEUP_B01 = ["B01", "B09", "B03", "B04", "B05", "B06"]
LINEUP_B07 = ["B07", "B09", "B01", "B03", "B04", "B05"]


def fired(record: dict[str, object]) -> list[tuple[str, int]]:
    return [(a["card"], a["index"]) for a in record["abilities"]]  # type: ignore[attr-defined]


def test_reads_go_to_the_batter_and_misses_to_the_pitcher() -> None:
    cards = default_cards()
    batter, pitcher = cards["B12"], cards["P01"]
    batter_on, pitcher_on, dir_read, loc_read, ace = triggered(
        batter, pitcher, ("inside", "low"), ("inside", "high")
    )
    assert (dir_read, loc_read) == (True, False)
    assert [a.when for a in batter_on] == ["inside"]
    assert ace is True  # inside is part of P01's ace (inside high)
    assert [a.when for a in pitcher_on] == ["ace"]


def test_reading_both_parts_cancels_the_ace_and_switches_on_the_mvp() -> None:
    cards = default_cards()
    batter_on, pitcher_on, _, _, ace = triggered(
        cards["B09"], cards["P01"], ("inside", "high"), ("inside", "high")
    )
    assert ace is False
    assert pitcher_on == []
    assert sorted(a.when for a in batter_on) == ["inside", "mvp"]


def test_modify_by_the_pitchers_ace_turns_contact_into_a_foul() -> None:
    engine, dice, state = make()
    # P01 throws its ace inside-high; the batter misses both: ace on, swing -1 on an S.
    state, events = pitch(
        engine, dice, state, 4, "S", 5, stare_pair=(("inside", "high"), ("outside", "low"))
    )
    record = pitch_record(events)
    assert record["result"] == "F"
    assert record["swing_modified"] == 4
    assert fired(record) == [("P01", 0)]
    assert record["cards"] == [{"side": "away", "code": "P01"}]


def test_a_modified_six_is_not_a_crush() -> None:
    engine, dice, state = make()
    # B09 reads both: MVP +1 swing makes the natural 5 a 6, which must not crush.
    state, _events = pitch(
        engine, dice, state, 4, "S", 5, stare_pair=(("outside", "low"), ("outside", "low"))
    )
    assert state.phase == "race"
    assert "crush_bonus" not in (state.record or {})
    assert (state.record or {})["result"] == "X"


def test_modify_by_the_batters_read_turns_a_strike_into_a_foul() -> None:
    engine, dice, state = make(LINEUP_B01, starter="P06")
    # B01 reads inside: +1 swing on an S (MVP off: location missed; P06 has no ace part
    # thrown and no "high" line). A natural 3 against control 4 becomes a 4: a foul.
    state, events = pitch(
        engine, dice, state, 4, "S", 3, stare_pair=(("inside", "high"), ("inside", "low"))
    )
    record = pitch_record(events)
    assert record["result"] == "F"
    assert ("B01", 0) in fired(record)


def test_reroll_of_the_swing_die_uses_a_new_draw() -> None:
    # B09 reads inside and re-rolls a natural 1; the re-roll is a 5, a strike on a B of 4.
    engine, dice, state = make()
    state, events = pitch(
        engine, dice, state, 4, "B", 1, 4, stare_pair=(("inside", "low"), ("inside", "high"))
    )
    record = pitch_record(events)
    assert record["dice"][-2:] == [
        {"die": "swing", "face": "1"},
        {"die": "swing", "face": "5", "reroll": True},
    ]
    assert record["result"] == "S"
    assert ("B09", 0) in fired(record)


def test_reroll_of_the_pitch_die_by_the_pitcher() -> None:
    engine, dice, state = make()
    # P01's "outside" line: the batter missed outside, so a B face is re-rolled (to C here).
    from tests.engines.bottom_of_the_ninth.helpers import act, face, stare

    state, _ = stare(engine, state, ("outside", "low"), ("inside", "high"))
    dice.push(3, face("B"), face("C"))
    state, events = act(engine, state, "away", "pitch_roll")
    assert state.pitch_face == "C"
    assert events[-1].data["rerolls"] == [["P01", 1]]


def test_turn_strike_into_foul_on_the_mvp() -> None:
    engine, dice, state = make(LINEUP_B01)
    state, events = pitch(
        engine, dice, state, 2, "B", 4, stare_pair=(("outside", "low"), ("outside", "low"))
    )
    record = pitch_record(events)
    assert record["result"] == "F"
    assert ("B01", 1) in fired(record)


def test_turn_with_a_count_condition_waits_for_two_strikes() -> None:
    engine, dice, state = make(LINEUP_B07)
    read_low = (("inside", "low"), ("outside", "low"))
    state, events = pitch(engine, dice, state, 2, "B", 4, stare_pair=read_low)
    assert pitch_record(events)["result"] == "S"  # one strike: B07's turn stays off
    state, _ = pitch(engine, dice, state, 2, "B", 4, stare_pair=read_low)
    state, events = pitch(engine, dice, state, 2, "B", 4, stare_pair=read_low)
    record = pitch_record(events)
    assert record["result"] == "F"
    assert ("B07", 1) in fired(record)
    assert state.strikes == 2


def test_traits_are_always_on() -> None:
    cards = default_cards()
    assert cards["B08"].has_trait("speed") and cards["B08"].has_trait("unopposed")
    assert cards["P03"].has_trait("defense")
    assert not cards["B09"].has_trait("speed")
