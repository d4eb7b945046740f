"""The rulebook's fixed tables: pitch-die faces, the B/S/C comparison, crush bonuses, runners.

Kept apart from the engine so that each table is one small function a test can pin down and the
decision table in docs/rules/bottom-of-the-9th.md can point at.
"""

from __future__ import annotations

PITCH_DIE: tuple[str, ...] = ("B", "B", "S", "S", "C", "C")
"""Faces of the white pitch die, by face index 0..5: two of each mark.

The rulebook names the three marks but not their split. Two B faces keep walks possible; two C
faces make the corner (where a swing that is too good is a strike too) common enough that
reading the pitch matters. With one C face simulated home sides won about 61% of games; with
two, 54-57% (decision D1 in docs/rules/bottom-of-the-9th.md).
"""

FATIGUE_BOTTOM = 3
"""Rows of the fatigue track are 0 (top) .. 3 (bottom); a token on row 3 locks its part."""

RELIEF_CEILING = 1
"""After the starter is benched, tokens reset to row 1 and never climb above it."""

CRUSH_BONUS: dict[int, str] = {1: "contact", 2: "contact", 3: "1B", 4: "1B", 5: "2B", 6: "HR"}


def clamp_die(value: int) -> int:
    """A modified die never leaves 1..6."""
    return 1 if value < 1 else 6 if value > 6 else value


def compare(face: str, control: int, swing: int) -> str:
    """The rulebook's pitch table, on the modified dice: ball, strike, foul or contact."""
    if face == "B":
        return "ball" if swing <= control else "strike"
    if face == "S":
        if swing < control:
            return "strike"
        return "foul" if swing == control else "contact"
    if swing == control:
        return "contact"
    return "strike"


def walk(bases: list[bool]) -> int:
    """Batter to first; only forced runners move. Returns runs scored."""
    if not bases[0]:
        bases[0] = True
        return 0
    if not bases[1]:
        bases[1] = True
        return 0
    if not bases[2]:
        bases[2] = True
        return 0
    return 1


def advance(bases: list[bool], batter_to: int) -> int:
    """Every runner and the batter move ``batter_to`` bases (1 single, 2 double, 4 home run).

    Returns runs scored. Bases are first, second, third; index 3 and beyond is home.
    """
    runs = 0
    new = [False, False, False]
    for base in (2, 1, 0):
        if bases[base]:
            target = base + batter_to
            if target >= 3:
                runs += 1
            else:
                new[target] = True
    if batter_to >= 4:
        runs += 1
    else:
        new[batter_to - 1] = True
    bases[0], bases[1], bases[2] = new
    return runs


def bases_code(bases: list[bool]) -> str:
    """'000'..'111', first base first, as the pitch record stores it."""
    return ("1" if bases[0] else "0") + ("1" if bases[1] else "0") + ("1" if bases[2] else "0")


def empty_bases(bases: list[bool]) -> int:
    return 3 - sum(bases)
