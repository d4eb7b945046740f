"""The season's schedule: a round robin by the circle method.

Entrants are numbered 0..n-1 in the order they entered. With an odd count a phantom entrant
makes the count even; whoever meets it that round has a bye. Entrant 0 stays put and the others
turn one place per round, so in n-1 rounds (n even) every pair meets exactly once and nobody
plays twice in a round. Home and away: the fixed entrant alternates by round, and in every other
pair the entrant in the circle's top half is at home; turning, each entrant spends as many
rounds in the top half as in the bottom (within one), so its home and away games differ by at
most one. A double round robin plays the first half again with home and away swapped,
so every pair meets once at each end.
"""

from __future__ import annotations

Pairing = tuple[int, int]
"""(home, away) entrant numbers."""


def round_robin(count: int, rounds: int = 1) -> list[list[Pairing]]:
    """The pairings of each round, first round first."""
    if count < 2:
        return []
    circle: list[int | None] = list(range(count))
    if count % 2:
        circle.append(None)
    size = len(circle)
    half: list[list[Pairing]] = []
    for number in range(size - 1):
        pairs: list[Pairing] = []
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if a is None or b is None:
                continue  # a bye
            swap = i == 0 and number % 2 == 1
            pairs.append((b, a) if swap else (a, b))
        half.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    if rounds == 2:
        return half + [[(away, home) for home, away in pairs] for pairs in half]
    return half
