"""bench/fan_out.py times both ways of a broadcast's fan-out, and both send every frame in
order."""

from __future__ import annotations

from bench.fan_out import main


def test_each_round_times_both_ways_and_every_socket_gets_every_frame_in_order() -> None:
    runs = main(["--rooms", "3", "--broadcasts", "4", "--rounds", "2"])
    assert [(r["round"], r["way"]) for r in runs] == [
        (1, "queued"), (1, "at_once"), (2, "queued"), (2, "at_once")]
    assert all(r["in_order"] and r["us_per_broadcast"] > 0 for r in runs)
