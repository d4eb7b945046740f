"""Property tests over random legal play: games end, hidden choices stay hidden until the
reveal, the JSON round trip is lossless, illegal actions change nothing, and every dice index
is used exactly once."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engines.bottom_of_the_ninth import Engine, State
from app.engines.dice import HmacDice
from app.engines.interface import Action, IllegalAction

OPTIONS = st.sampled_from(
    [
        {"setup": "random", "race": "turns"},
        {"setup": "random", "race": "realtime"},
        {"setup": "choose", "race": "realtime"},
        {"mode": "solo", "challenge": "M03"},
        {"mode": "solo", "challenge": "M14", "race": "realtime"},
        {"mode": "solo", "solo_side": "away"},
    ]
)


class CountingDice:
    """HMAC dice that also remember which indexes were drawn."""

    def __init__(self, seed: int) -> None:
        self.inner = HmacDice(seed.to_bytes(8, "big"), "property")
        self.used: list[int] = []

    def below(self, index: int, n: int) -> int:
        self.used.append(index)
        return self.inner.below(index, n)


def all_actions(engine: Engine, state: State) -> list[Action]:
    return engine.legal_actions(state, "home") + engine.legal_actions(state, "away")


def hidden_views(engine: Engine, state: State, chooser: str) -> list[Any]:
    other = "home" if chooser == "away" else "away"
    return [engine.view(state, other), engine.view(state, None)]  # type: ignore[arg-type]


def check_stare_is_hidden(engine: Engine, state: State, action: Action) -> None:
    """Whatever ``action``'s side chose, the other side and spectators see the same thing
    (state and events) until both have chosen."""
    side = action["side"]
    other_choice = state.away_choice if side == "home" else state.home_choice
    if action["type"] != "stare" or other_choice is not None:
        return
    seen = []
    for alternative in engine.legal_actions(state, side):
        if alternative["type"] != "stare":
            continue
        after, events = engine.apply(state, alternative)
        other = "home" if side == "away" else "away"
        seen.append(
            (
                hidden_views(engine, after, side),
                [e.for_viewer(other) for e in events],  # type: ignore[arg-type]
                [e.for_viewer(None) for e in events],
            )
        )
    assert all(s == seen[0] for s in seen)


def illegal_variants(action: Action) -> list[dict[str, Any]]:
    other = "home" if action["side"] == "away" else "away"
    return [
        {**action, "side": other, "type": action["type"] + "_x"},
        {**action, "extra": True},
        {**action, "side": "nobody"},
    ]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_legal_play(seed: int, options: dict[str, Any]) -> None:
    dice = CountingDice(seed)
    engine = Engine(dice)
    rng = random.Random(seed)
    state = engine.new_game(options)
    for _ in range(3000):
        if state.phase == "over":
            break
        actions = all_actions(engine, state)
        assert actions, state.phase
        action = rng.choice(actions)
        snapshot = engine.to_json(state)
        if rng.random() < 0.3:
            check_stare_is_hidden(engine, state, action)
        if rng.random() < 0.2:
            for bad in illegal_variants(action):
                if bad in all_actions(engine, state):
                    continue
                try:
                    engine.apply(state, bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"illegal action accepted: {bad}")
                assert engine.to_json(state) == snapshot
        restored = engine.from_json(snapshot)
        assert engine.to_json(restored) == snapshot
        new, events = engine.apply(state, action)
        again, events_again = engine.apply(restored, action)
        assert engine.to_json(new) == engine.to_json(again)
        assert [e.to_json() for e in events] == [e.to_json() for e in events_again]
        assert engine.to_json(state) == snapshot  # apply never mutates
        state = new
    assert state.phase == "over", "game did not end"
    outcome = engine.outcome(state)
    assert outcome is not None
    assert (outcome.winner == "home") == (state.runs > 0)
    assert outcome.winner == "home" or state.outs == 3
    # The replayed and alternative branches redraw indexes; once per game is checked below.
    assert max(dice.used, default=-1) < state.dice_index


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_each_dice_index_is_drawn_once_in_a_game(seed: int) -> None:
    dice = CountingDice(seed)
    engine = Engine(dice)
    rng = random.Random(seed)
    state = engine.new_game({"setup": "random", "race": "realtime"})
    while state.phase != "over":
        actions = all_actions(engine, state)
        engine.step_in_place(state, rng.choice(actions))
    assert dice.used == list(range(state.dice_index))
    assert engine.outcome(state) is not None


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_event_stream_never_leaks_a_choice_before_its_reveal(seed: int) -> None:
    engine = Engine(HmacDice(seed.to_bytes(8, "big"), "leak"))
    rng = random.Random(seed)
    state = engine.new_game({"setup": "random"})
    while state.phase != "over":
        action = rng.choice(all_actions(engine, state))
        state, events = engine.apply(state, action)
        for event in events:
            if event.type == "stare_chosen":
                owner = event.data["side"]
                other = "home" if owner == "away" else "away"
                for viewer in (other, None):
                    body = event.for_viewer(viewer)  # type: ignore[arg-type]
                    assert set(body) == {"type", "side"}
                assert set(event.for_viewer(owner)) == {"type", "side", "direction", "location"}
