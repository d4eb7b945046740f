"""The timer runner's heap of this process's own deadlines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.games.deadline_heap import DeadlineHeap

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_due_games_come_out_once_soonest_first() -> None:
    heap = DeadlineHeap()
    heap.note("g1", "r1", 3, {"home": {"at": "x"}}, at(2))
    heap.note("g2", "r2", 5, {"away": {"at": "y"}}, at(1))
    heap.note("g3", "r3", 1, {"home": {"at": "z"}}, at(9))
    assert heap.soonest() == at(1)
    due = heap.pop_due(at(2))
    assert [(d.game_id, d.room_id, d.version) for d in due] == [("g2", "r2", 5), ("g1", "r1", 3)]
    assert due[1].deadlines == {"home": {"at": "x"}}
    assert heap.pop_due(at(2)) == []
    assert heap.soonest() == at(9)
    assert len(heap) == 1


def test_a_later_commit_supersedes_the_entry_of_its_game() -> None:
    heap = DeadlineHeap()
    heap.note("g1", "r1", 3, {}, at(1))
    heap.note("g1", "r1", 4, {"home": {}}, at(5))
    assert heap.soonest() == at(5)
    assert heap.pop_due(at(2)) == []
    [due] = heap.pop_due(at(5))
    assert due.version == 4


def test_a_commit_without_deadlines_forgets_the_game() -> None:
    heap = DeadlineHeap()
    heap.note("g1", "r1", 3, {"home": {}}, at(1))
    heap.note("g1", "r1", 4, {}, None)
    assert heap.pop_due(at(10)) == []
    assert heap.soonest() is None
    assert len(heap) == 0


def test_superseded_entries_do_not_pile_up() -> None:
    heap = DeadlineHeap()
    for version in range(10_000):
        heap.note("g1", "r1", version, {"home": {}}, at(version))
    assert len(heap._heap) <= 4 * len(heap) + 65
    [due] = heap.pop_due(at(10_000))
    assert due.version == 9_999
