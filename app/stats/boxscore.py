"""Line score and box score of one game, from its pitch records alone.

Scoring conventions (MLB's, adapted to the codes the engines write; they are the same for both
games where the codes exist):

- **Plate appearance (PA)**: a record whose ``pa_result`` is not ``None``. A pitch that ends a
  half-inning without ending the plate appearance (the third out on a pickoff or caught
  stealing, a walk-off on a steal of home) is not a PA; that batter's PA is not counted.
- **At bat (AB)**: every PA except ``BB`` (walk), ``HBP``, ``SF`` (sacrifice fly), ``SAC``
  (sacrifice bunt, squeeze SQ1), ``CI`` (catcher's interference) and ``IOB`` (obstruction).
  ``E`` (reached on error) is an AB without a hit; ``FC``, ``DP``, ``TP``, ``OUT`` are ABs;
  ``SNO`` (uncaught third strike, the batter reaches) is an AB and a strikeout.
- **Hits (H)**: ``1B``, ``2B``, ``3B``, ``HR`` (the engine already writes a successful squeeze
  SQ2, a bunt beaten out against BD, a runner hit by a batted ball RHB and a reversed GA as
  ``1B``). Total bases 1/2/3/4. Bottom of the 9th: ``RS`` (safe after winning the run
  phase on a ball in play, credited an RBI by the engine) is a single; ``RO`` is an out.
- **Strikeouts (K)**: ``K`` and ``SNO``, for the batting side and for the pitching side.
- **Walks (BB)** are ``BB`` only; ``HBP``, ``CI`` and ``IOB`` are counted apart.
- **R**: runs the side scored (the sum of ``runs`` of its records: every run, including those on
  wild pitches, balks and steals of home). **RBI**: the sum of the engine's ``rbi`` (none on an
  error, a double or triple play, or a run that scored without a plate appearance ending).
- **SB / CS** come from the cards, as described in :mod:`app.records.plays` (SB2 / SB3 / SBH and
  RNH; a steal fails when answered by CS2 / CS3 / CSH or reversed on a challenge).
- **AVG** = H / AB; **OBP** = (H + BB + HBP) / (AB + BB + HBP + SF) (CI and obstruction are
  left out of both, as in MLB); **SLG** = TB / AB; **OPS** = OBP + SLG. A rate whose
  denominator is 0 is ``None``. Rates are rounded to 3 decimals in JSON only.
- **Errors (E)** in the line score are charged to the fielding side: each PA ending ``E``
  (the E card, or E answering GDP / GTP / GBH), and each POE and 1H1E card played.
- **Pitches**: a record is a pitch when a pitch die was rolled on it or a card made the pitch
  (``pitch_by_card``, hit-and-run); a record that ended before the pitch (a pickoff or balk
  ending the half) is not. **Strikes**: for Base on Board, the pitch die's call after any
  challenge (a reversed B is a strike, a reversed SM a ball) — S, SM, F and C (contact) are
  strikes, B is a ball, and a pitch that ended as HBP is a ball. For Bottom of the 9th (records
  with a ``stare`` key) a pitch is a ball when its ``result`` is ``B``, a strike otherwise.
  Strike % = strikes / pitches.
- The pitching line belongs to the fielding side: batters faced (its opponents' PAs), outs
  recorded (``outs_after - outs``), innings pitched as ``"outs // 3 . outs % 3"``, K, BB, HBP, H,
  HR, R allowed (runs scored while it fielded; there are no earned runs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from app.records.calls import is_strike, pitch_thrown
from app.records.plays import record_cards, steals
from app.records.shape import SIDES, Record, as_records, halves

HITS = {"1B": 1, "2B": 2, "3B": 3, "HR": 4, "RS": 1}
NOT_AT_BAT = frozenset({"BB", "HBP", "SF", "SAC", "CI", "IOB"})
STRIKEOUTS = frozenset({"K", "SNO"})
ERROR_CARDS = frozenset({"POE", "1H1E"})


def _rate(num: float, den: int) -> float | None:
    return num / den if den else None


def _r3(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


@dataclass(slots=True)
class BattingLine:
    """Counting stats of a side's batting; add lines to sum games. Rates are properties."""

    pa: int = 0
    ab: int = 0
    h: int = 0
    doubles: int = 0
    triples: int = 0
    hr: int = 0
    bb: int = 0
    hbp: int = 0
    k: int = 0
    r: int = 0
    rbi: int = 0
    sb: int = 0
    cs: int = 0
    sf: int = 0
    sac: int = 0
    ci: int = 0
    roe: int = 0
    """Reached on error."""

    def __add__(self, other: BattingLine) -> BattingLine:
        return BattingLine(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    @property
    def singles(self) -> int:
        return self.h - self.doubles - self.triples - self.hr

    @property
    def tb(self) -> int:
        return self.singles + 2 * self.doubles + 3 * self.triples + 4 * self.hr

    @property
    def avg(self) -> float | None:
        return _rate(self.h, self.ab)

    @property
    def obp(self) -> float | None:
        return _rate(self.h + self.bb + self.hbp, self.ab + self.bb + self.hbp + self.sf)

    @property
    def slg(self) -> float | None:
        return _rate(self.tb, self.ab)

    @property
    def ops(self) -> float | None:
        obp, slg = self.obp, self.slg
        return None if obp is None or slg is None else obp + slg

    def to_json(self) -> dict[str, Any]:
        return {
            "PA": self.pa, "AB": self.ab, "H": self.h, "2B": self.doubles, "3B": self.triples,
            "HR": self.hr, "BB": self.bb, "HBP": self.hbp, "K": self.k, "R": self.r,
            "RBI": self.rbi, "SB": self.sb, "CS": self.cs, "SF": self.sf, "SAC": self.sac,
            "CI": self.ci, "ROE": self.roe, "TB": self.tb,
            "AVG": _r3(self.avg), "OBP": _r3(self.obp), "SLG": _r3(self.slg),
            "OPS": _r3(self.ops),
        }


@dataclass(slots=True)
class PitchingLine:
    """Counting stats of a side's pitching (while it fielded); add lines to sum games."""

    pitches: int = 0
    strikes: int = 0
    bf: int = 0
    outs: int = 0
    k: int = 0
    bb: int = 0
    hbp: int = 0
    h: int = 0
    hr: int = 0
    r: int = 0

    def __add__(self, other: PitchingLine) -> PitchingLine:
        return PitchingLine(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    @property
    def balls(self) -> int:
        return self.pitches - self.strikes

    @property
    def strike_pct(self) -> float | None:
        return _rate(self.strikes, self.pitches)

    @property
    def ip(self) -> str:
        return f"{self.outs // 3}.{self.outs % 3}"

    def to_json(self) -> dict[str, Any]:
        return {
            "pitches": self.pitches, "strikes": self.strikes, "balls": self.balls,
            "strike_pct": _r3(self.strike_pct), "BF": self.bf, "outs": self.outs, "IP": self.ip,
            "K": self.k, "BB": self.bb, "HBP": self.hbp, "H": self.h, "HR": self.hr, "R": self.r,
        }


@dataclass(slots=True)
class LineScore:
    """Runs per inning per side; ``None`` where a half was not played (the home ninth 'X')."""

    innings: int
    first: str
    """The side batting in the top halves."""
    runs: dict[str, list[int | None]]
    r: dict[str, int]
    h: dict[str, int]
    e: dict[str, int]

    @property
    def order(self) -> tuple[str, str]:
        return (self.first, "home" if self.first == "away" else "away")

    def to_json(self) -> dict[str, Any]:
        return {
            "innings": list(range(1, self.innings + 1)),
            "sides": [
                {"side": side, "runs": list(self.runs[side]), "R": self.r[side],
                 "H": self.h[side], "E": self.e[side]}
                for side in self.order
            ],
        }


@dataclass(slots=True)
class BoxScore:
    line: LineScore
    batting: dict[str, BattingLine] = field(default_factory=dict)
    pitching: dict[str, PitchingLine] = field(default_factory=dict)
    """Keyed by the fielding side: ``pitching["home"]`` is the home side's pitching."""

    @property
    def score(self) -> dict[str, int]:
        return dict(self.line.r)

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "line_score": self.line.to_json(),
            "batting": {side: self.batting[side].to_json() for side in self.line.order},
            "pitching": {side: self.pitching[side].to_json() for side in self.line.order},
        }


def add_batting(line: BattingLine, record: Record) -> None:
    """Adds one record's batting events (its offense's) to ``line``."""
    line.r += record["runs"]
    line.rbi += record["rbi"]
    sb, cs = steals(record) if record["cards"] else (0, 0)
    line.sb += sb
    line.cs += cs
    pa = record.get("pa_result")
    if pa is None:
        return
    line.pa += 1
    if pa not in NOT_AT_BAT:
        line.ab += 1
    if pa in HITS:
        line.h += 1
        line.doubles += pa == "2B"
        line.triples += pa == "3B"
        line.hr += pa == "HR"
    line.bb += pa == "BB"
    line.hbp += pa == "HBP"
    line.k += pa in STRIKEOUTS
    line.sf += pa == "SF"
    line.sac += pa == "SAC"
    line.ci += pa == "CI"
    line.roe += pa == "E"


def add_pitching(line: PitchingLine, record: Record) -> None:
    """Adds one record to its defense's pitching line."""
    if pitch_thrown(record):
        line.pitches += 1
        line.strikes += is_strike(record)
    line.outs += max(0, int(record["outs_after"]) - int(record["outs"]))
    line.r += record["runs"]
    pa = record.get("pa_result")
    if pa is None:
        return
    line.bf += 1
    line.k += pa in STRIKEOUTS
    line.bb += pa == "BB"
    line.hbp += pa == "HBP"
    line.h += pa in HITS
    line.hr += pa == "HR"


def errors_charged(record: Record) -> int:
    """Errors the fielding side made on this record."""
    n = 1 if record.get("pa_result") == "E" else 0
    if record["cards"]:
        n += sum(1 for p in record_cards(record) if p.code in ERROR_CARDS and p.success)
    return n


def line_score(records: Iterable[Mapping[str, Any]]) -> LineScore:
    """Runs per inning per side, and R, H, E."""
    return _line(as_records(records))


def _line(rows: list[Record]) -> LineScore:
    first = "away"
    for row in rows:
        if row["half"] == "top":
            first = str(row["offense"])
            break
    innings = max((int(r["inning"]) for r in rows), default=0)
    runs: dict[str, list[int | None]] = {side: [None] * innings for side in SIDES}
    hits = dict.fromkeys(SIDES, 0)
    errors = dict.fromkeys(SIDES, 0)
    for half in halves(rows):
        offense = str(half[0]["offense"])
        runs[offense][int(half[0]["inning"]) - 1] = sum(r["runs"] for r in half)
        for record in half:
            hits[offense] += record.get("pa_result") in HITS
            errors[str(record["defense"])] += errors_charged(record)
    total = {side: sum(n or 0 for n in runs[side]) for side in SIDES}
    return LineScore(innings, first, runs, total, hits, errors)


def box_score(records: Iterable[Mapping[str, Any]]) -> BoxScore:
    """The line score and each side's batting and pitching lines."""
    rows = as_records(records)
    box = BoxScore(
        _line(rows),
        {side: BattingLine() for side in SIDES},
        {side: PitchingLine() for side in SIDES},
    )
    for record in rows:
        add_batting(box.batting[str(record["offense"])], record)
        add_pitching(box.pitching[str(record["defense"])], record)
    return box
