"""Data analysis over many games' pitch records: dice fairness, run expectancy, win
probability, card value.

**Dice fairness** (:func:`dice_fairness`): for each die, the observed count of each face against
the expected count, ``rolls × (faces showing it) / (faces on the die)``. Base on Board's
twelve-sided dice repeat faces (``PITCH_DIE``, ``BAT_DIE``, ``HIT_DIE`` in
``app/engines/base_on_board/data.py``: the pitch die has B on 4 of 12 faces, so 1/3 of rolls are
expected to be B). Bottom of the 9th: the pitch die is ``rules.PITCH_DIE`` (six faces), the
control, swing, crush and race dice are plain six-sided dice showing ``"1"``..``"6"``. Rerolls
are rolls. The test is Pearson's chi-square, ``Σ (observed − expected)² / expected`` over the
distinct faces, with ``distinct faces − 1`` degrees of freedom; the p-value is the chi-square
upper tail, computed here in pure Python (the regularized upper incomplete gamma function
``Q(df/2, x/2)``, Numerical Recipes' series and continued fraction; no scipy). The test is
approximate when an expected count is below 5 (``small_sample`` is then true). Run it on one
game's records for that game, or on all records for the whole server.

**Run expectancy** (:func:`run_expectancy`): for each of the 24 base-out states, the mean of the
runs scored from the moment the half-inning is in that state to the end of the half-inning. A
state is counted at the start of every plate appearance and whenever it changes during one (a
steal, a pickoff, a wild pitch), i.e. once per record that starts a half, starts a new batter,
or starts in a different (bases, outs) than the previous record. Only half-innings that ended
with the third out are used (a walk-off or abandoned half would cut the runs short).

**Win probability** (:func:`win_probability`): at the start of each half-inning, keyed by
(inning, half, lead of the batting side), the share of games the batting side went on to win;
a tie counts half. Feed it games of one length (the same ``innings`` option), since the third
inning of a three-inning game is its last.

**Card value** (:func:`card_value`): for each card played, the runs the offense scored from the
start of that pitch to the end of the half-inning, minus the run expectancy of the base-out
state at the start of the pitch. The mean per card code is its value in runs (positive helps
the offense; a good defense card is negative). Only complete half-innings count, an RNH
returned on a foul is not a play, and a state never seen in the run-expectancy table is
skipped.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.engines.base_on_board.data import BAT_DIE, HIT_DIE, PITCH_DIE
from app.records.plays import record_cards
from app.records.shape import Record, as_records, half_complete, halves, score_before

BOB = "base-on-board"
B9 = "bottom-of-the-9th"
_D6 = tuple(str(n) for n in range(1, 7))
BASES = ("000", "100", "010", "001", "110", "101", "011", "111")


def die_faces(game: str) -> dict[str, tuple[str, ...]]:
    """Every die of a game and its faces (repeated faces repeated)."""
    if game == BOB:
        return {"pitch": PITCH_DIE, "bat": BAT_DIE, "hit": HIT_DIE}
    if game == B9:
        from app.engines.bottom_of_the_ninth import rules

        return {
            "pitch": tuple(rules.PITCH_DIE), "control": _D6, "swing": _D6, "crush": _D6,
            "race_home": _D6, "race_away": _D6,
        }
    raise ValueError(f"unknown game {game!r}")


# ----------------------------------------------------------------------- chi-square


def _log_gamma_prefix(a: float, x: float) -> float:
    return -x + a * math.log(x) - math.lgamma(a)


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(_log_gamma_prefix(a, x))


def _upper_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(_log_gamma_prefix(a, x)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if a <= 0 or x < 0:
        raise ValueError("gamma_q needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return min(1.0, _upper_fraction(a, x))


def chi2_sf(statistic: float, df: int) -> float:
    """P(X ≥ statistic) for X chi-square with ``df`` degrees of freedom."""
    if df <= 0:
        return 1.0
    return gamma_q(df / 2.0, max(0.0, statistic) / 2.0)


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


# ----------------------------------------------------------------------- dice fairness


@dataclass(frozen=True, slots=True)
class FaceCount:
    face: str
    probability: float
    observed: int
    expected: float


@dataclass(frozen=True, slots=True)
class DieFairness:
    die: str
    rolls: int
    faces: tuple[FaceCount, ...]
    chi_square: float
    df: int
    p_value: float
    unknown: int
    """Rolls showing a face the die does not have (should be 0)."""

    @property
    def small_sample(self) -> bool:
        return any(f.expected < 5 for f in self.faces)

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die, "rolls": self.rolls, "chi_square": round(self.chi_square, 4),
            "df": self.df, "p_value": round(self.p_value, 6), "small_sample": self.small_sample,
            "unknown": self.unknown,
            "faces": [
                {"face": f.face, "probability": round(f.probability, 6), "observed": f.observed,
                 "expected": round(f.expected, 3)}
                for f in self.faces
            ],
        }


def fairness_of(die: str, faces: Sequence[str], counts: Mapping[str, int]) -> DieFairness:
    """Chi-square of observed face ``counts`` against a fair die with ``faces``."""
    multiplicity = Counter(faces)
    rolls = sum(n for face, n in counts.items() if face in multiplicity)
    rows = tuple(
        FaceCount(face, k / len(faces), int(counts.get(face, 0)), rolls * k / len(faces))
        for face, k in multiplicity.items()
    )
    stat = chi_square([r.observed for r in rows], [r.expected for r in rows]) if rolls else 0.0
    df = len(rows) - 1
    unknown = sum(n for face, n in counts.items() if face not in multiplicity)
    return DieFairness(die, rolls, rows, stat, df, chi2_sf(stat, df) if rolls else 1.0, unknown)


def dice_fairness(
    records: Iterable[Mapping[str, Any]], game: str = BOB
) -> dict[str, DieFairness]:
    """Each die of ``game`` over the given records (one game's, or every game's)."""
    tables = die_faces(game)
    counts: dict[str, Counter[str]] = {die: Counter() for die in tables}
    for record in as_records(records):
        for roll in record["dice"]:
            die = str(roll.get("die"))
            if die in counts:
                counts[die][str(roll.get("face"))] += 1
    return {die: fairness_of(die, tables[die], counts[die]) for die in tables}


# ----------------------------------------------------------------------- run expectancy


@dataclass(frozen=True, slots=True)
class RunExpectancy:
    """Mean runs to the end of the half-inning from each (bases, outs) state."""

    total: Mapping[tuple[str, int], int]
    count: Mapping[tuple[str, int], int]

    def get(self, bases: str, outs: int) -> float | None:
        n = self.count.get((bases, outs), 0)
        return self.total.get((bases, outs), 0) / n if n else None

    def to_json(self) -> list[dict[str, Any]]:
        rows = []
        for outs in range(3):
            for bases in BASES:
                value = self.get(bases, outs)
                rows.append({
                    "bases": bases, "outs": outs, "count": self.count.get((bases, outs), 0),
                    "runs": None if value is None else round(value, 3),
                })
        return rows


def _state(record: Record) -> tuple[str, int]:
    return str(record["bases"]), int(record["outs"])


def state_starts(half: list[Record]) -> list[int]:
    """Indexes in ``half`` where a base-out state occurrence begins (see the module text)."""
    starts = []
    for i, record in enumerate(half):
        if i == 0:
            starts.append(i)
            continue
        before = half[i - 1]
        if _state(record) != _state(before) or record["batter"] != before["batter"]:
            starts.append(i)
    return starts


def _rest_runs(half: list[Record]) -> list[int]:
    rest = [0] * (len(half) + 1)
    for i in range(len(half) - 1, -1, -1):
        rest[i] = rest[i + 1] + int(half[i]["runs"])
    return rest[:-1]


def run_expectancy(games: Iterable[Iterable[Mapping[str, Any]]]) -> RunExpectancy:
    """The 24-state table over many games (each item one game's records)."""
    total: dict[tuple[str, int], int] = defaultdict(int)
    count: dict[tuple[str, int], int] = defaultdict(int)
    for records in games:
        for half in halves(as_records(records)):
            if not half_complete(half):
                continue
            rest = _rest_runs(half)
            for i in state_starts(half):
                key = _state(half[i])
                if key[1] > 2:
                    continue
                total[key] += rest[i]
                count[key] += 1
    return RunExpectancy(dict(total), dict(count))


# ----------------------------------------------------------------------- win probability


@dataclass(frozen=True, slots=True)
class WinCell:
    inning: int
    half: str
    lead: int
    games: int
    wins: int
    ties: int

    @property
    def probability(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games

    def to_json(self) -> dict[str, Any]:
        return {
            "inning": self.inning, "half": self.half, "lead": self.lead, "games": self.games,
            "wins": self.wins, "ties": self.ties, "probability": round(self.probability, 4),
        }


def win_probability(
    games: Iterable[tuple[Iterable[Mapping[str, Any]], str | None]],
) -> list[WinCell]:
    """Batting side's chance to win from the start of each half, by (inning, half, lead).

    Each item is one game's records and its winning side (``None`` for a tie).
    """
    cells: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for records, winner in games:
        rows = as_records(records)
        scores = score_before(rows)
        position = 0
        for half in halves(rows):
            score = scores[position]
            position += len(half)
            offense = str(half[0]["offense"])
            defense = str(half[0]["defense"])
            key = (int(half[0]["inning"]), str(half[0]["half"]), score[offense] - score[defense])
            cell = cells[key]
            cell[0] += 1
            if winner is None:
                cell[2] += 1
            elif winner == offense:
                cell[1] += 1
    half_order = {"top": 0, "bottom": 1}
    return [
        WinCell(inning, half, lead, *cells[(inning, half, lead)])
        for inning, half, lead in sorted(cells, key=lambda k: (k[0], half_order[k[1]], k[2]))
    ]


# ----------------------------------------------------------------------- card value


@dataclass(frozen=True, slots=True)
class CardValue:
    code: str
    plays: int
    runs_after: float
    """Mean runs from the start of the pitch to the end of the half."""
    expected: float
    """Mean run expectancy of the states the card was played in."""

    @property
    def value(self) -> float:
        return self.runs_after - self.expected

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code, "plays": self.plays, "runs_after": round(self.runs_after, 3),
            "expected": round(self.expected, 3), "value": round(self.value, 3),
        }


def card_value(
    games: Iterable[Iterable[Mapping[str, Any]]], table: RunExpectancy | None = None
) -> dict[str, CardValue]:
    """Mean run value of each card code; ``table`` defaults to these games' own."""
    rows = [as_records(records) for records in games]
    if table is None:
        table = run_expectancy(rows)
    runs: dict[str, float] = defaultdict(float)
    expected: dict[str, float] = defaultdict(float)
    plays: Counter[str] = Counter()
    for game in rows:
        for half in halves(game):
            if not half_complete(half):
                continue
            rest = _rest_runs(half)
            for i, record in enumerate(half):
                if not record["cards"]:
                    continue
                base = table.get(*_state(record))
                if base is None:
                    continue
                for play in record_cards(record, i):
                    plays[play.code] += 1
                    runs[play.code] += rest[i]
                    expected[play.code] += base
    return {
        code: CardValue(code, n, runs[code] / n, expected[code] / n)
        for code, n in sorted(plays.items())
    }
