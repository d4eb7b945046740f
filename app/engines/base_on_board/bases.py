"""Runner movement on the three bases, as pure functions of a bitmask.

Bit 0 is first base, bit 1 second, bit 2 third (so 0b101 is "runners on first and third").
Every function returns the new bases and the runs that scored; the caller adds outs and decides
whether runs count (they do not when the play's batter-out is the third out, decision D7).
"""

from __future__ import annotations

from typing import Final

FIRST: Final = 1
SECOND: Final = 2
THIRD: Final = 4
HOME: Final = 4  # a target base of 4 means the runner scores

# Where the runners on first, second and third, and the batter, end on each batted result.
# Decisions D3-D6: single-1 faces move everyone one base; L2/C2 move the runner from first one
# base and score the runners from second and third; R2 moves every runner two bases; D2 puts the
# batter on second and stops the runner from first at third; D3 is a double on which every runner
# scores; T3 a triple. 0 for the batter means the batter is out.
HIT_TARGETS: Final[dict[str, tuple[int, int, int, int]]] = {
    "iH": (2, 3, 4, 1),
    "L1": (2, 3, 4, 1),
    "C1": (2, 3, 4, 1),
    "R1": (2, 3, 4, 1),
    "L2": (2, 4, 4, 1),
    "C2": (2, 4, 4, 1),
    "R2": (3, 4, 4, 1),
    "D2": (3, 4, 4, 2),
    "D3": (4, 4, 4, 2),
    "T3": (4, 4, 4, 3),
    "HR": (4, 4, 4, 4),
}
OUT_TARGETS: Final[dict[str, tuple[int, int, int, int]]] = {
    "G3": (1, 2, 4, 0),
    "GA": (2, 3, 4, 0),
    "PO": (1, 2, 3, 0),
    "FO": (1, 2, 3, 0),
    "F2": (1, 3, 4, 0),
    "F3": (1, 2, 4, 0),
    "FA": (2, 3, 4, 0),
}


_TEXTS: Final = tuple(f"{b & 1}{(b >> 1) & 1}{(b >> 2) & 1}" for b in range(8))
"""Every base state's text, worked out once: a command's events and views ask for it often."""


def as_text(bases: int) -> str:
    """"101" style: first, second, third; the form the pitch records and docs use."""
    return _TEXTS[bases & 7]


def count(bases: int) -> int:
    return (bases & 1) + ((bases >> 1) & 1) + ((bases >> 2) & 1)


def move(
    bases: int, targets: tuple[int, int, int, int], out_runners: int = 0, extra: int = 0
) -> tuple[int, int]:
    """Moves each runner to its target (plus ``extra`` bases); runners in ``out_runners`` are
    removed; the batter goes to ``targets[3]`` (0: not on base). Returns (bases, runs)."""
    new = 0
    runs = 0
    for index, bit in enumerate((FIRST, SECOND, THIRD)):
        if bases & bit and not out_runners & bit:
            target = targets[index] + extra
            if target >= HOME:
                runs += 1
            else:
                new |= 1 << (target - 1)
    batter = targets[3]
    if batter >= HOME:
        runs += 1
    elif batter:
        new |= 1 << (batter - 1)
    return new, runs


def advance_all(bases: int, batter_to_first: bool = False) -> tuple[int, int]:
    """Every runner one base (BK, WP, POE, E, IOB, CIB, SNO), optionally the batter to first."""
    runs = 1 if bases & THIRD else 0
    new = (bases << 1) & 0b111
    if batter_to_first:
        new |= FIRST
    return new, runs


def force(bases: int) -> tuple[int, int]:
    """Batter to first; only forced runners move (walk, HBP, the batter awarded first)."""
    if not bases & FIRST:
        return bases | FIRST, 0
    if not bases & SECOND:
        return bases | FIRST | SECOND, 0
    if not bases & THIRD:
        return 0b111, 0
    return 0b111, 1


def forced_chain(bases: int) -> int:
    """How many runners are forced on a ground ball: the occupied run of bases from first."""
    chain = 0
    for bit in (FIRST, SECOND, THIRD):
        if bases & bit:
            chain += 1
        else:
            break
    return chain


def lead_runner(bases: int) -> int:
    """The bit of the most advanced runner (0 with the bases empty)."""
    for bit in (THIRD, SECOND, FIRST):
        if bases & bit:
            return bit
    return 0


def ground_force(bases: int) -> tuple[int, int, int]:
    """GF: the lead forced runner is out, the batter is safe at first; with no force the batter
    is out and the runners hold. Returns (bases, runs, outs)."""
    chain = forced_chain(bases)
    if chain == 0:
        return bases, 0, 1
    lead = 1 << (chain - 1)
    behind = bases & (lead - 1)
    ahead = bases & ~((lead << 1) - 1) & 0b111
    return ahead | (behind << 1) | FIRST, 0, 1


def remove_then_force(bases: int, runner: int) -> tuple[int, int]:
    """A runner is out and the batter is awarded first (BD, RHB, the reversed IOB)."""
    return force(bases & ~runner)


def runner_bits(bases: int) -> list[int]:
    return [bit for bit in (FIRST, SECOND, THIRD) if bases & bit]


BASE_NAMES: Final[dict[int, str]] = {FIRST: "1B", SECOND: "2B", THIRD: "3B"}
BASE_BITS: Final[dict[str, int]] = {name: bit for bit, name in BASE_NAMES.items()}
