"""The standings of a league's season from its decided games (docs/leagues.md, *Standings*).

Pure: the caller reads the games; the rules live here so the tests can hand-build results.

- A game **won** (by play, resignation, claim, a single forfeit or the score at the deadline)
  is W for the winner and L for the loser; a **tie** (a drawn game, or a game both sides sat
  down for but never together) is T for both; a **double forfeit** (``decided_by`` ``no-show``)
  is L for both.
- PCT = (W + T/2) / games; GB = ((leader W - W) + (L - leader L)) / 2 against the first row.
- Runs scored / allowed and run differential count games with a score (forfeits have none).
- Streak: the current run of equal results, newest first (``W3``, ``L1``, ``T1``).
- Order: PCT; then, among entrants level on PCT, **head to head**: the PCT of the games
  between the level entrants only; then run differential; then runs scored; then fewer
  forfeit losses; then entry order (who entered first). The head-to-head is taken once over
  the whole level group (not re-applied to a sub-group still level after it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any


@dataclass(frozen=True)
class Decided:
    """One decided season game, as the standings need it."""

    home: int
    away: int
    winner: int | None
    home_runs: int | None
    away_runs: int | None
    decided_by: str
    status: str
    finished_at: datetime | None
    id: int = 0

    @property
    def double_forfeit(self) -> bool:
        return self.status == "forfeit" and self.decided_by == "no-show"


@dataclass
class Row:
    entrant: int
    order: int
    wins: int = 0
    losses: int = 0
    ties: int = 0
    runs_for: int = 0
    runs_against: int = 0
    forfeit_losses: int = 0
    results: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def pct(self) -> float:
        return (self.wins + self.ties / 2) / self.games if self.games else 0.0

    @property
    def run_diff(self) -> int:
        return self.runs_for - self.runs_against

    @property
    def streak(self) -> str:
        if not self.results:
            return ""
        last = self.results[-1]
        count = 0
        for result in reversed(self.results):
            if result != last:
                break
            count += 1
        return f"{last}{count}"


def outcome(game: Decided, entrant: int) -> str:
    """``W``, ``L`` or ``T`` of ``entrant`` in ``game``."""
    if game.double_forfeit:
        return "L"
    if game.winner is None:
        return "T"
    return "W" if game.winner == entrant else "L"


def standings(entrants: Sequence[int], games: Iterable[Decided]) -> list[dict[str, Any]]:
    """One row per entrant (in entry order as given), ranked; see the module's rules."""
    rows = {e: Row(entrant=e, order=i) for i, e in enumerate(entrants)}
    played = sorted(games, key=lambda g: (g.finished_at is None, g.finished_at or 0, g.id))
    for game in played:
        for me, mine, theirs in ((game.home, game.home_runs, game.away_runs),
                                 (game.away, game.away_runs, game.home_runs)):
            row = rows.get(me)
            if row is None:
                continue
            result = outcome(game, me)
            row.results.append(result)
            if result == "W":
                row.wins += 1
            elif result == "L":
                row.losses += 1
                if game.status == "forfeit":
                    row.forfeit_losses += 1
            else:
                row.ties += 1
            if mine is not None and theirs is not None:
                row.runs_for += mine
                row.runs_against += theirs
    ranked: list[Row] = []
    by_pct = sorted(rows.values(), key=lambda r: (-r.pct, r.order))
    for _pct, level in groupby(by_pct, key=lambda r: r.pct):
        group = list(level)
        if len(group) > 1:
            h2h = _head_to_head({r.entrant for r in group}, played)
            group.sort(key=lambda r: (-h2h[r.entrant], -r.run_diff, -r.runs_for,
                                      r.forfeit_losses, r.order))
        ranked.extend(group)
    out: list[dict[str, Any]] = []
    for rank, row in enumerate(ranked, start=1):
        top = ranked[0]
        gb = ((top.wins - row.wins) + (row.losses - top.losses)) / 2
        out.append({
            "rank": rank, "entrant_id": row.entrant, "games": row.games, "wins": row.wins,
            "losses": row.losses, "ties": row.ties, "pct": round(row.pct, 3),
            "games_behind": gb, "runs_for": row.runs_for, "runs_against": row.runs_against,
            "run_diff": row.run_diff, "streak": row.streak,
            "forfeit_losses": row.forfeit_losses,
        })
    return out


def _head_to_head(group: set[int], games: Sequence[Decided]) -> dict[int, float]:
    """PCT of each entrant of ``group`` over the games between two entrants of the group
    (0.5 for one that played none of them: neither ahead nor behind)."""
    tally: dict[int, list[float]] = {e: [0.0, 0.0] for e in group}
    for game in games:
        if game.home in group and game.away in group:
            for me in (game.home, game.away):
                result = outcome(game, me)
                tally[me][0] += {"W": 1.0, "T": 0.5, "L": 0.0}[result]
                tally[me][1] += 1
    return {e: (points / n if n else 0.5) for e, (points, n) in tally.items()}
