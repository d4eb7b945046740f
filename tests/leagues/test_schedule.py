"""The round robin: every pair meets once (twice in a double, once at each end), nobody plays
twice in a round, odd counts get byes, home and away are balanced."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from app.leagues.schedule import round_robin


@given(st.integers(min_value=2, max_value=30), st.sampled_from([1, 2]))
def test_every_pair_meets_once_per_half_and_nobody_twice_a_round(count: int, rounds: int
                                                                 ) -> None:
    schedule = round_robin(count, rounds)
    per_half = count - 1 if count % 2 == 0 else count
    assert len(schedule) == per_half * rounds
    meetings: Counter[frozenset[int]] = Counter()
    for pairs in schedule:
        playing = [e for pair in pairs for e in pair]
        assert len(playing) == len(set(playing)), pairs  # nobody twice in a round
        assert all(0 <= e < count for e in playing) and all(h != a for h, a in pairs)
        assert len(pairs) == count // 2
        if count % 2:
            assert len(set(range(count)) - set(playing)) == 1  # exactly one bye
        meetings.update(frozenset(pair) for pair in pairs)
    assert set(meetings) == {frozenset(p) for p in combinations(range(count), 2)}
    assert set(meetings.values()) == {rounds}


@given(st.integers(min_value=2, max_value=30))
def test_a_double_round_robin_meets_at_each_end(count: int) -> None:
    schedule = round_robin(count, 2)
    ordered = Counter(pair for pairs in schedule for pair in pairs)
    assert all(ordered[(a, b)] == 1 and ordered[(b, a)] == 1
               for a, b in combinations(range(count), 2))
    home = Counter(h for pairs in schedule for h, _ in pairs)
    away = Counter(a for pairs in schedule for _, a in pairs)
    assert all(home[e] == away[e] == count - 1 for e in range(count))
    half = len(schedule) // 2
    assert schedule[half:] == [[(a, h) for h, a in pairs] for pairs in schedule[:half]]


@given(st.integers(min_value=2, max_value=30))
def test_a_single_round_robin_is_balanced_within_one(count: int) -> None:
    schedule = round_robin(count, 1)
    home = Counter(h for pairs in schedule for h, _ in pairs)
    away = Counter(a for pairs in schedule for _, a in pairs)
    assert all(abs(home[e] - away[e]) <= 1 for e in range(count))
    byes = Counter(e for pairs in schedule for e in range(count)
                   if e not in {x for pair in pairs for x in pair})
    assert all(byes[e] == (1 if count % 2 else 0) for e in range(count))


def test_fewer_than_two_have_no_schedule() -> None:
    assert round_robin(0) == [] and round_robin(1, 2) == []
    assert round_robin(2) == [[(0, 1)]] and round_robin(2, 2) == [[(0, 1)], [(1, 0)]]
