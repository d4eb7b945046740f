"""How often a side played each card and how often it worked, over a game's records (the
outcome of each play is :mod:`app.records.plays`')."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.records.plays import record_cards
from app.records.shape import as_records


@dataclass(slots=True)
class CardUsage:
    """How often one side (or player) played each card and how often it worked."""

    played: Counter[str]
    succeeded: Counter[str]
    challenges: int = 0
    challenges_won: int = 0

    @staticmethod
    def empty() -> CardUsage:
        return CardUsage(Counter(), Counter())

    def add(self, other: CardUsage) -> CardUsage:
        return CardUsage(
            self.played + other.played,
            self.succeeded + other.succeeded,
            self.challenges + other.challenges,
            self.challenges_won + other.challenges_won,
        )

    @property
    def challenge_rate(self) -> float | None:
        return self.challenges_won / self.challenges if self.challenges else None

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": {
                code: {
                    "played": n,
                    "succeeded": self.succeeded[code],
                    "success_rate": round(self.succeeded[code] / n, 3),
                }
                for code, n in sorted(self.played.items())
            },
            "challenges": self.challenges,
            "challenges_won": self.challenges_won,
            "challenge_success_rate": (
                None if self.challenge_rate is None else round(self.challenge_rate, 3)
            ),
        }


def card_usage(records: Iterable[Mapping[str, Any]], side: str) -> CardUsage:
    """Cards ``side`` played in one game, their successes, and its challenges."""
    rows = as_records(records)
    usage = CardUsage.empty()
    for index, record in enumerate(rows):
        for play in record_cards(record, index):
            if play.side == side:
                usage.played[play.code] += 1
                if play.success:
                    usage.succeeded[play.code] += 1
        for c in record["challenges"]:
            if c.get("side") == side:
                usage.challenges += 1
                usage.challenges_won += c.get("result") == "reverse"
    return usage
