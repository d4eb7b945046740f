"""bench/bare_bots.py refuses a load it cannot time."""

from __future__ import annotations

import argparse

import pytest

from bench.bare_bots import spectator_count


def test_a_table_without_spectators_is_refused_before_any_run() -> None:
    # A command is timed to its last spectator's receipt: with none, every table would wait
    # out its timeout (seen: 200 tables, 200 TimeoutErrors, no figure).
    with pytest.raises(argparse.ArgumentTypeError, match="at least one spectator"):
        spectator_count("0")
    assert spectator_count("1") == 1
