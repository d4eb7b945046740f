"""A whole Dice Duel game over real sockets, with spectators, on each database."""

from __future__ import annotations

from app.bots.client import play_table
from tests.support.live import LiveServer


async def test_full_game_with_spectators(live: LiveServer) -> None:
    report = await play_table(live.url, "dice-duel", {"innings": 3}, spectators=2, seed=3)
    assert report.problems == []
    assert report.errors == []
    assert report.result is not None
    assert len(report.spectator_events) == 2
    seqs = [seq for seq, _ in report.spectator_events[0]]
    assert seqs == list(range(1, len(seqs) + 1))
