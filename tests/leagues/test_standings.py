"""Standings from hand-built results: W/L/T, PCT, GB, runs, streaks, forfeits, and the
tie-breaks in order (head to head first)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.leagues.standings import Decided, standings

T0 = datetime(2026, 12, 1, tzinfo=UTC)
_clock = [0]


def game(home: int, away: int, hr: int | None, ar: int | None, *, status: str = "final",
         decided_by: str = "play", winner: int | None = None) -> Decided:
    """A decided game; the winner follows the score unless given (forfeits)."""
    _clock[0] += 1
    if winner is None and hr is not None and ar is not None and hr != ar:
        winner = home if hr > ar else away
    return Decided(home=home, away=away, winner=winner, home_runs=hr, away_runs=ar,
                   decided_by=decided_by, status=status, id=_clock[0],
                   finished_at=T0 + timedelta(minutes=_clock[0]))


def by_entrant(rows: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {row["entrant_id"]: row for row in rows}


def test_records_pct_games_behind_runs_and_streaks() -> None:
    rows = standings([1, 2, 3], [
        game(1, 2, 5, 3), game(2, 3, 4, 4), game(3, 1, 2, 7), game(1, 3, 1, 2),
        game(2, 1, 6, 0),
    ])
    one, two, three = (by_entrant(rows)[e] for e in (1, 2, 3))
    assert (one["wins"], one["losses"], one["ties"], one["games"]) == (2, 2, 0, 4)
    assert (one["runs_for"], one["runs_against"], one["run_diff"]) == (13, 13, 0)
    assert one["streak"] == "L2" and one["pct"] == 0.5
    assert (two["wins"], two["losses"], two["ties"], two["pct"]) == (1, 1, 1, 0.5)
    assert (two["runs_for"], two["runs_against"], two["streak"]) == (13, 9, "W1")
    assert (three["wins"], three["losses"], three["ties"]) == (1, 1, 1)
    assert (three["runs_for"], three["runs_against"], three["streak"]) == (8, 12, "W1")
    # all three at .500, and at .500 among themselves (every game is between them): run
    # differential decides, +4, 0, -4
    assert [r["entrant_id"] for r in rows] == [2, 1, 3]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert one["games_behind"] == 0.0  # ((1 - 2) + (2 - 1)) / 2


def test_games_behind_and_pct_count_a_tie_as_half() -> None:
    rows = by_entrant(standings([1, 2], [game(1, 2, 3, 1), game(2, 1, 2, 2), game(1, 2, 5, 0)]))
    assert rows[1]["pct"] == round(2.5 / 3, 3) and rows[2]["pct"] == round(0.5 / 3, 3)
    assert rows[2]["games_behind"] == 2.0 and rows[1]["streak"] == "W1"


def test_head_to_head_is_the_first_tie_break() -> None:
    # 1 and 2 both 2-1; 2 has the far better run differential, but 1 beat 2.
    rows = standings([1, 2, 3, 4], [
        game(1, 2, 3, 2), game(2, 3, 10, 0), game(2, 4, 10, 0), game(1, 3, 0, 1),
        game(1, 4, 2, 1), game(3, 4, 1, 2),
    ])
    order = [r["entrant_id"] for r in rows]
    assert order[:2] == [1, 2]
    assert by_entrant(rows)[2]["run_diff"] > by_entrant(rows)[1]["run_diff"]
    assert by_entrant(rows)[2]["games_behind"] == 0


def test_three_way_head_to_head_then_run_differential_then_runs_scored() -> None:
    # a cycle: 1 beat 2, 2 beat 3, 3 beat 1: head to head level (.500 each)
    rows = standings([1, 2, 3], [game(1, 2, 2, 1), game(2, 3, 9, 1), game(3, 1, 3, 2)])
    assert [r["pct"] for r in rows] == [0.5, 0.5, 0.5]
    # run differentials: 1: +1 -1 = 0; 2: -1 +8 = +7; 3: -8 +1 = -7
    assert [r["entrant_id"] for r in rows] == [2, 1, 3]
    # level run differentials too: runs scored decides
    rows = standings([1, 2, 3], [game(1, 2, 2, 1), game(2, 3, 5, 4), game(3, 1, 9, 8)])
    assert [r["run_diff"] for r in rows] == [0, 0, 0]
    assert [r["entrant_id"] for r in rows] == [3, 1, 2]  # 13, 10 and 6 runs scored


def test_entry_order_is_the_last_resort() -> None:
    rows = standings([7, 5], [game(7, 5, 1, 1)])
    assert [r["entrant_id"] for r in rows] == [7, 5]
    assert all(r["ties"] == 1 and r["pct"] == 0.5 for r in rows)


def test_forfeits_count_without_runs_and_a_double_forfeit_is_a_loss_for_both() -> None:
    rows = by_entrant(standings([1, 2, 3], [
        game(1, 2, None, None, status="forfeit", decided_by="deadline", winner=1),
        game(2, 3, None, None, status="forfeit", decided_by="no-show"),
        game(3, 1, None, None, status="forfeit", decided_by="deadline"),  # both sat: a tie
        game(1, 3, 4, 2),
    ]))
    assert (rows[1]["wins"], rows[1]["losses"], rows[1]["ties"]) == (2, 0, 1)
    assert (rows[1]["runs_for"], rows[1]["runs_against"]) == (4, 2)
    assert (rows[2]["wins"], rows[2]["losses"], rows[2]["forfeit_losses"]) == (0, 2, 2)
    assert (rows[3]["wins"], rows[3]["losses"], rows[3]["ties"]) == (0, 2, 1)
    assert rows[3]["forfeit_losses"] == 1 and rows[3]["streak"] == "L1"
    assert rows[2]["games_behind"] == 2.0 and rows[3]["games_behind"] == 2.0


def test_fewer_forfeit_losses_break_a_tie_before_entry_order() -> None:
    rows = standings([1, 2, 3, 4], [
        game(1, 3, None, None, status="forfeit", decided_by="deadline", winner=1),
        game(1, 4, None, None, status="forfeit", decided_by="deadline", winner=4),
        game(2, 3, None, None, status="forfeit", decided_by="deadline"),
        game(2, 4, None, None, status="forfeit", decided_by="deadline"),
    ])
    # 1 (1-1) and 2 (0-0-2) are both .500, never met, have no runs: 1's forfeit loss puts it
    # behind 2, who entered later
    assert [r["entrant_id"] for r in rows] == [4, 2, 1, 3]
    assert [r["forfeit_losses"] for r in rows] == [0, 0, 1, 1]
