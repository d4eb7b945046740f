"""The simulator's stepping path (``fast.play``) ends every game exactly where the public path
(``legal_actions`` at each decision, ``step_in_place`` and its events, a tally of every pitch
record) ends it: the same state, the same tally, the same dice and policy draws after it."""

from __future__ import annotations

import random

import pytest

from app.engines.base_on_board import Engine, State, fast
from app.engines.base_on_board.policy import _normal_choice
from app.engines.dice import SeededDice
from app.engines.interface import Action, Side
from app.sim.base_on_board import Tally, eager_choice, play_game, play_game_with_events


def _tally(tally: Tally) -> tuple[object, ...]:
    return (tally.pitches, {d: dict(c) for d, c in tally.dice.items()}, dict(tally.cards),
            {call: dict(c) for call, c in tally.challenges.items() if +c})


def _eager_without_pick(
    engine: Engine, state: State, rng: random.Random, tally: Tally
) -> State:
    """``fast.play`` with the eager policy as a plain ``choose`` over the action lists."""

    def choose(engine: Engine, state: State, side: Side, actions: list[Action]) -> Action:
        return eager_choice(rng, actions)

    return fast.play(engine, state, choose, tally)


@pytest.mark.parametrize(
    ("tier", "innings", "fast_play"),
    [("pro", 9, True), ("lite", 3, True), ("lite-extended", 5, True), ("pro", 3, False)],
)
def test_eager_games_end_alike(tier: str, innings: int, fast_play: bool) -> None:
    options = {"tier": tier, "innings": innings, "fast_play": fast_play}
    for seed in range(40):
        ends = []
        for player in (play_game_with_events, play_game, _eager_without_pick):
            engine = Engine(SeededDice(seed))
            rng = random.Random(seed * 7 + 1)
            tally = Tally()
            state = player(engine, engine.new_game(options), rng, tally)
            ends.append((state.to_json(), _tally(tally), rng.random(), engine.dice.below(0, 97)))
        assert ends[0] == ends[1] == ends[2], f"seed {seed}"
        assert ends[0][1][0] > 0 and ends[0][0]["result"] is not None


def test_tallies_count_what_was_played() -> None:
    """The eager policy plays cards and challenges in a long game: the comparison above is
    not between two empty tallies."""
    engine = Engine(SeededDice(3))
    tally = Tally()
    play_game(engine, engine.new_game({"tier": "pro", "fast_play": True}), random.Random(3),
              tally)
    assert sum(tally.cards.values()) > 10 and tally.challenges
    assert sum(tally.dice["pitch"].values()) > 100


def test_half_only_stops_where_the_normal_player_stops() -> None:
    """The play-outs of ``hard``: both sides ``normal`` to the end of the half."""
    for seed in range(12):
        states: list[State] = []
        for quick in (False, True):
            engine = Engine(SeededDice(seed))
            state = engine.new_game({"tier": "pro", "innings": 3, "fast_play": seed % 2 == 0})
            for _ in range(seed * 5):  # into the game, somewhere mid-half
                side: Side = state.queue[0][0]  # type: ignore[assignment]
                engine.step_in_place(state, engine.legal_actions(state, side)[0])
            if quick:
                fast.play(engine, state, _normal_choice, half_only=True)
            else:
                half = (state.inning, state.half)
                while state.result is None and (state.inning, state.half) == half:
                    who: Side = state.queue[0][0]  # type: ignore[assignment]
                    actions = engine.legal_actions(state, who)
                    engine.step_in_place(state, _normal_choice(engine, state, who, actions))
            states.append(state)
        assert states[0].to_json() == states[1].to_json(), f"seed {seed}"


@pytest.mark.parametrize("records", [True, False])
def test_the_engine_keeps_its_records_setting(records: bool) -> None:
    """``play`` turns the pitch records off while it plays and gives the engine back as it was
    given (an engine that keeps no records is not made to keep them)."""
    engine = Engine(SeededDice(5))
    engine.records = records
    state = engine.new_game({"tier": "pro", "innings": 3, "fast_play": True})
    fast.play(engine, state, _normal_choice, half_only=True)
    assert engine.records is records
    assert state.result is None and (state.inning, state.half) == (1, "bottom")
