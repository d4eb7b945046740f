"""The fixed tables: every B/S/C comparison, crush bonuses, runner movement."""

from __future__ import annotations

import pytest

from app.engines.bottom_of_the_ninth import rules


@pytest.mark.parametrize(
    ("face", "control", "swing", "expected"),
    [
        ("B", 4, 3, "ball"),
        ("B", 4, 4, "ball"),
        ("B", 4, 5, "strike"),
        ("S", 4, 3, "strike"),
        ("S", 4, 4, "foul"),
        ("S", 4, 5, "contact"),
        ("C", 4, 3, "strike"),
        ("C", 4, 4, "contact"),
        ("C", 4, 5, "strike"),
    ],
)
def test_pitch_table(face: str, control: int, swing: int, expected: str) -> None:
    assert rules.compare(face, control, swing) == expected


def test_pitch_die_has_every_mark() -> None:
    assert sorted(set(rules.PITCH_DIE)) == ["B", "C", "S"]
    assert len(rules.PITCH_DIE) == 6


@pytest.mark.parametrize(("value", "clamped"), [(-3, 1), (0, 1), (1, 1), (6, 6), (7, 6), (9, 6)])
def test_modified_die_stays_on_the_die(value: int, clamped: int) -> None:
    assert rules.clamp_die(value) == clamped


def test_crush_bonus_table() -> None:
    assert rules.CRUSH_BONUS == {
        1: "contact",
        2: "contact",
        3: "1B",
        4: "1B",
        5: "2B",
        6: "HR",
    }


@pytest.mark.parametrize(
    ("before", "after", "runs"),
    [
        ([False, False, False], [True, False, False], 0),
        ([True, False, False], [True, True, False], 0),
        ([False, True, False], [True, True, False], 0),
        ([False, False, True], [True, False, True], 0),
        ([True, False, True], [True, True, True], 0),
        ([True, True, True], [True, True, True], 1),
    ],
)
def test_walk_moves_only_forced_runners(before: list[bool], after: list[bool], runs: int) -> None:
    bases = list(before)
    assert rules.walk(bases) == runs
    assert bases == after


@pytest.mark.parametrize(
    ("before", "to", "after", "runs"),
    [
        ([False, False, False], 1, [True, False, False], 0),
        ([True, False, False], 1, [True, True, False], 0),
        ([False, True, False], 1, [True, False, True], 0),
        ([False, False, True], 1, [True, False, False], 1),
        ([True, False, False], 2, [False, True, True], 0),
        ([False, True, False], 2, [False, True, False], 1),
        ([True, True, True], 4, [False, False, False], 4),
        ([False, False, False], 4, [False, False, False], 1),
    ],
)
def test_hits_move_every_runner(before: list[bool], to: int, after: list[bool], runs: int) -> None:
    bases = list(before)
    assert rules.advance(bases, to) == runs
    assert bases == after
