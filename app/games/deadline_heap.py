"""The deadlines this process's own commits set, in a heap, so the timer runner finds what is
due without asking the database each time it wakes.

At 200 live games a deadline falls due a hundred times a second (most are the automatic passes
of design note 1); one query per wake was a tenth of the server's time. The heap only saves
those reads: the runner still scans the database every tick for deadlines that other processes
set or that a restart left behind, and the command path's version check still decides whether a
timeout applies. An entry whose game moved on since is skipped when it comes up.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class DueGame:
    game_id: str
    room_id: str
    version: int
    deadlines: dict[str, Any]


class DeadlineHeap:
    """The latest deadlines per game (as committed here) and a heap of when each comes due.
    It holds one entry per live game with a deadline: it grows with the games, never with
    callers."""

    def __init__(self) -> None:
        self._latest: dict[str, tuple[datetime, DueGame]] = {}
        self._heap: list[tuple[datetime, int, str]] = []
        self._pushed = 0

    def note(self, game_id: str, room_id: str, version: int, deadlines: dict[str, Any],
             due: datetime | None) -> None:
        """The game's deadlines after a commit at ``version`` (``due``: the soonest)."""
        if due is None:
            self._latest.pop(game_id, None)
            return
        self._latest[game_id] = (due, DueGame(game_id, room_id, version, deadlines))
        self._pushed += 1
        heapq.heappush(self._heap, (due, self._pushed, game_id))
        if len(self._heap) > 4 * len(self._latest) + 64:  # mostly superseded entries: rebuild
            self._heap = [(at, i, gid) for i, (gid, (at, _g)) in enumerate(self._latest.items())]
            heapq.heapify(self._heap)

    def forget(self, game_id: str) -> None:
        self._latest.pop(game_id, None)

    def pop_due(self, now: datetime) -> list[DueGame]:
        """The games with a deadline due by ``now``, each once, taken out of the heap (the
        commit that acts on one notes its next deadlines)."""
        due: list[DueGame] = []
        heap = self._heap
        while heap and heap[0][0] <= now:
            at, _n, game_id = heapq.heappop(heap)
            latest = self._latest.get(game_id)
            if latest is None or latest[0] != at:
                continue  # superseded by a later commit of the same game
            del self._latest[game_id]
            due.append(latest[1])
        return due

    def soonest(self) -> datetime | None:
        heap = self._heap
        while heap:
            at, _n, game_id = heap[0]
            latest = self._latest.get(game_id)
            if latest is not None and latest[0] == at:
                return at
            heapq.heappop(heap)
        return None

    def __len__(self) -> int:
        return len(self._latest)
