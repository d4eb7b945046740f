"""One account's stats over its games of one kind, summed from each game's records.

The caller picks the games (one account, one rating pool or game kind) and says, for each, which
side the account sat on and how the game ended. Rules:

- Only ``finished`` and ``abandoned`` games count (an unfinished game counts for nothing). A
  finished game's ``winner`` wins (``None`` is a tie); an abandoned game is a loss for the side
  that ``left`` and a win for the other, whatever the score when it stopped.
- **Runs for / against** are the side's and the opponent's runs in the records.
- **Batting** is the batting line of the side the account was on (a team's line: the account is
  credited with its whole side's plate appearances, as the issue asks); **pitching** the
  pitching line of that side while it fielded. Both follow :mod:`app.stats.boxscore`.
- **Cards** (Base on Board): the cards the side played and how often each succeeded, and the
  side's challenges and how often they reversed the call (:mod:`app.records.plays`).
- **Bottom of the 9th** (records with ``stare``): home bats, away pitches. ``stares`` counts the
  stare-downs of the account's plate appearances or pitches; ``direction_reads``,
  ``location_reads`` and ``full_reads`` (MVP) count the batter's correct reads, so for a home
  player they are its guess rate and for an away player how often it was read. ``races`` /
  ``race_wins``: run phases the account's side won. ``max_fatigue``: the highest fatigue token
  row (either part) of its pitcher; ``recoveries``: stare-downs after which a fatigue token went
  up the track with the same pitcher (relief, fatigue recovery); ``benched``: pitcher changes.
  These last two are read from consecutive records and are only counted for the away side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from app.records.shape import as_records, final_score, other
from app.stats.boxscore import BattingLine, PitchingLine, box_score
from app.stats.cards import CardUsage, card_usage

Status = Literal["finished", "abandoned", "unfinished"]


@dataclass(frozen=True, slots=True)
class PlayerGame:
    records: Sequence[Mapping[str, Any]]
    side: str
    status: Status = "finished"
    winner: str | None = None
    left: str | None = None


@dataclass(slots=True)
class NinthStats:
    stares: int = 0
    direction_reads: int = 0
    location_reads: int = 0
    full_reads: int = 0
    races: int = 0
    race_wins: int = 0
    max_fatigue: int = 0
    recoveries: int = 0
    benched: int = 0

    def to_json(self) -> dict[str, Any]:
        def rate(n: int, d: int) -> float | None:
            return round(n / d, 3) if d else None

        return {
            "stares": self.stares, "direction_reads": self.direction_reads,
            "location_reads": self.location_reads, "full_reads": self.full_reads,
            "direction_read_rate": rate(self.direction_reads, self.stares),
            "location_read_rate": rate(self.location_reads, self.stares),
            "full_read_rate": rate(self.full_reads, self.stares),
            "races": self.races, "race_wins": self.race_wins,
            "race_win_rate": rate(self.race_wins, self.races),
            "max_fatigue": self.max_fatigue, "recoveries": self.recoveries,
            "benched": self.benched,
        }


@dataclass(slots=True)
class PlayerStats:
    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    runs_for: int = 0
    runs_against: int = 0
    batting: BattingLine = field(default_factory=BattingLine)
    pitching: PitchingLine = field(default_factory=PitchingLine)
    cards: CardUsage = field(default_factory=CardUsage.empty)
    ninth: NinthStats | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "wins": self.wins, "losses": self.losses, "ties": self.ties,
            "runs_for": self.runs_for, "runs_against": self.runs_against,
            "batting": self.batting.to_json(), "pitching": self.pitching.to_json(),
            **self.cards.to_json(),
            "bottom_of_the_9th": None if self.ninth is None else self.ninth.to_json(),
        }


def game_winner(game: PlayerGame) -> tuple[bool, str | None]:
    """(counts, winning side or None for a tie) under the rules above."""
    if game.status == "finished":
        return True, game.winner
    if game.status == "abandoned" and game.left in ("home", "away"):
        return True, other(game.left)
    return False, None


def ninth_stats(records: Iterable[Mapping[str, Any]], side: str) -> NinthStats:
    """Bottom of the 9th extras of one game for ``side``."""
    stats = NinthStats()
    previous: Mapping[str, Any] | None = None
    for record in as_records(records):
        stare = record.get("stare")
        if isinstance(stare, Mapping):
            stats.stares += 1
            stats.direction_reads += bool(stare.get("direction_read"))
            stats.location_reads += bool(stare.get("location_read"))
            stats.full_reads += bool(stare.get("direction_read")) and bool(
                stare.get("location_read"))
            fatigue = [int(x) for x in stare.get("fatigue") or []]
            if side == record.get("defense") and fatigue:
                stats.max_fatigue = max(stats.max_fatigue, *fatigue)
                if previous is not None:
                    if previous.get("pitcher") != record.get("pitcher"):
                        stats.benched += 1
                    else:
                        before = [int(x) for x in previous["stare"].get("fatigue") or []]
                        if any(a < b for a, b in zip(fatigue, before, strict=False)):
                            stats.recoveries += 1
                previous = record
        race = record.get("race")
        if isinstance(race, Mapping) and race.get("winner"):
            stats.races += 1
            stats.race_wins += race.get("winner") == side
    return stats


def player_stats(games: Iterable[PlayerGame]) -> PlayerStats:
    """The sum over the account's games (see the module text for what counts)."""
    stats = PlayerStats()
    for game in games:
        counts, winner = game_winner(game)
        if not counts:
            continue
        records = as_records(game.records)
        stats.games += 1
        if winner is None:
            stats.ties += 1
        elif winner == game.side:
            stats.wins += 1
        else:
            stats.losses += 1
        score = final_score(records)
        stats.runs_for += score[game.side]
        stats.runs_against += score[other(game.side)]
        box = box_score(records)
        stats.batting = stats.batting + box.batting[game.side]
        stats.pitching = stats.pitching + box.pitching[game.side]
        stats.cards = stats.cards.add(card_usage(records, game.side))
        if any("stare" in r for r in records):
            ninth = ninth_stats(records, game.side)
            if stats.ninth is None:
                stats.ninth = NinthStats()
            for name in (f.name for f in fields(NinthStats)):
                if name == "max_fatigue":
                    stats.ninth.max_fatigue = max(stats.ninth.max_fatigue, ninth.max_fatigue)
                else:
                    setattr(stats.ninth, name, getattr(stats.ninth, name) + getattr(ninth, name))
    return stats
