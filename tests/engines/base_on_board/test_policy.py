"""The computer players: legal, blind to the other side's cards, deterministic, and stronger
level by level (docs/rules/base-on-board.md, "Computer players")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.engines.base_on_board import Engine, State
from app.engines.base_on_board.data import CHALLENGE_DECK, TIERS, deck_for
from app.engines.base_on_board.policy import (
    HALF_RUNS,
    LEVELS,
    MIN_ROUNDS,
    POLICIES,
    choose_action,
    determinise,
    expected_runs,
    hard_samples,
    holds_probability,
    leaf_value,
    make_hard,
    state_value,
    win_probability,
)
from app.engines.base_on_board.reading import TIMED_POLICIES, reading_hard
from app.engines.dice import SeededDice
from app.engines.interface import Action, IllegalAction, Side
from app.engines.registry import computer_policies

QUICK = {**POLICIES, "hard": make_hard(12)}


def _states(seed: int, tier: str, games: int = 2, innings: int = 3) -> list[tuple[State, Side]]:
    """States met in random games where the side to move has a real choice."""
    rng = random.Random(seed)
    engine = Engine(SeededDice(seed))
    found: list[tuple[State, Side]] = []
    for _ in range(games):
        state = engine.new_game({"tier": tier, "innings": innings, "challenges": 2})
        while state.result is None:
            side: Side = state.queue[0][0]  # type: ignore[assignment]
            actions = engine.legal_actions(state, side)
            if len(actions) > 1:
                found.append((state, side))
            state, _ = engine.apply(state, actions[rng.randrange(len(actions))])
    return found


def _pick(seed: int):  # type: ignore[no-untyped-def]
    return random.Random(seed).randrange


@pytest.mark.parametrize("tier", TIERS)
def test_every_choice_is_legal_and_repeatable(tier: str) -> None:
    engine = Engine(SeededDice(0))
    states = _states(seed=TIERS.index(tier) + 1, tier=tier)
    assert len(states) > 40
    for i, (state, side) in enumerate(states):
        legal = engine.legal_actions(state, side)
        for level, policy in QUICK.items():
            if level == "hard" and i % 4:
                continue  # hard is slow; every fourth state is plenty
            first = policy(engine, state, side, _pick(i))
            assert first in legal, (level, first, legal)
            assert policy(engine, state, side, _pick(i)) == first, level


def test_whole_games_of_every_pairing_finish() -> None:
    rng = random.Random(5)
    for game, (home, away) in enumerate([(a, b) for a in LEVELS for b in LEVELS]):
        engine = Engine(SeededDice(game))
        options = {"tier": TIERS[game % 3], "innings": 3, "fast_play": game % 2 == 0}
        state = engine.new_game(options)
        levels = {"home": home, "away": away}
        while state.result is None:
            side: Side = state.queue[0][0]  # type: ignore[assignment]
            action = QUICK[levels[side]](engine, state, side, rng.randrange)
            state, _ = engine.apply(state, action)  # apply refuses an illegal action


def _hide_differently(state: State, side: Side, seed: int) -> State:
    """The same game as ``side`` sees it, with the other hand and every deck order changed."""
    rng = random.Random(seed)
    new = state.clone()
    other = new.defense if side == new.offense else new.offense
    for deck in ("offense", "defense", "challenge"):
        holder = {"offense": new.offense, "defense": new.defense}.get(deck)
        pool = new.decks[deck] + new.discards[deck]
        if holder == other:
            pool += new.hands[other]
        rng.shuffle(pool)
        if holder == other:
            size = len(new.hands[other])
            new.hands[other], pool = pool[:size], pool[size:]
        size = len(new.decks[deck])
        new.decks[deck], new.discards[deck] = pool[:size], pool[size:]
    return new


def test_hidden_cards_do_not_change_the_choice() -> None:
    """The computer sees only its side's view: changing the other side's hand and the deck
    orders (and the engine's own future dice) changes none of its choices."""
    checked = changed = 0
    for tier in TIERS:
        for i, (state, side) in enumerate(_states(seed=40 + TIERS.index(tier), tier=tier)):
            if i % 2:
                continue
            other = state.defense if side == state.offense else state.offense
            twin = _hide_differently(state, side, seed=i)
            engine, twin_engine = Engine(SeededDice(1)), Engine(SeededDice(2))
            assert engine.view(state, side) == twin_engine.view(twin, side)
            changed += twin.hands[other] != state.hands[other]
            for level, policy in QUICK.items():
                if level == "hard" and i % 6:
                    continue
                mine = policy(engine, state, side, _pick(i))
                theirs = policy(twin_engine, twin, side, _pick(i))
                assert mine == theirs, (level, tier, i)
                checked += 1
    assert checked > 100 and changed > 30


def _assert_whole_decks(state: State, world: State) -> None:
    """Each deck of ``world`` (its pile, discards, the holder's hand, a card held by RNH) is
    the tier's whole deck, as in ``state``."""
    held = [state.play["held"]] if state.play.get("held") else []
    for deck, offense in (("offense", True), ("defense", False)):
        holder = state.offense if offense else state.defense
        cards = world.decks[deck] + world.discards[deck] + world.hands[holder] + (
            held if offense else []
        )
        assert Counter(cards) == Counter(deck_for(state.options.tier, offense))
        assert len(world.decks[deck]) == len(state.decks[deck])


def test_determinisation_keeps_what_the_side_sees() -> None:
    for state, side in _states(seed=9, tier="pro")[::7]:
        world = determinise(state, side, random.Random(3))
        assert Engine(SeededDice(0)).view(world, side) == Engine(SeededDice(0)).view(state, side)
        other = state.defense if side == state.offense else state.offense
        _assert_whole_decks(state, world)
        assert Counter(world.decks["challenge"] + world.discards["challenge"]) == Counter(
            CHALLENGE_DECK
        )
        assert len(world.hands[other]) == len(state.hands[other])


def test_a_yardstick_may_keep_the_other_hand_and_deal_only_the_orders() -> None:
    dealt_anew = guessed = 0
    for state, side in _states(seed=9, tier="pro")[::7]:
        other = state.defense if side == state.offense else state.offense
        world = determinise(state, side, random.Random(3), their_hand=True)
        assert world.hands == state.hands
        _assert_whole_decks(state, world)
        dealt_anew += world.decks != state.decks
        guessed += determinise(state, side, random.Random(3)).hands[other] != state.hands[other]
    assert dealt_anew  # the deck orders are dealt, not copied
    assert guessed  # while a level's deal does not know the other hand


def test_the_odds_that_the_other_side_holds_a_card() -> None:
    engine = Engine(SeededDice(3))
    state = engine.new_game({"tier": "pro", "innings": 3})
    offense = state.offense
    # Defense deck of 40 with 3 GDP, hand of 4: 1 - C(37,4)/C(40,4).
    assert holds_probability(state, offense, "GDP") == pytest.approx(1 - 66045 / 91390)
    assert holds_probability(state, offense, "HBP") == 0.0  # not a defense card


def test_the_run_expectancy_table_behaves_like_baseball() -> None:
    assert expected_runs(0, 0) == pytest.approx(0.772, abs=0.005)
    for outs in range(3):
        assert expected_runs(outs, 0) < expected_runs(outs, 0b001) < expected_runs(outs, 0b111)
        if outs < 2:
            assert expected_runs(outs + 1, 0b010) < expected_runs(outs, 0b010)
    assert expected_runs(0, 0, balls=3) > expected_runs(0, 0) > expected_runs(0, 0, strikes=2)
    # Symmetric game, nothing played: even; a lead in the last half is nearly won.
    assert win_probability(True, 0, 0, 0, 0, 0, 2, 3) == pytest.approx(0.5, abs=1e-9)
    assert win_probability(False, 3, 2, 0, 0, 0, 0, 0) > 0.97


def test_the_table_matches_the_engine_when_nobody_plays_a_card() -> None:
    """The dice model behind ``normal`` is the engine's own: with every window passed, the
    engine scores what the table says a fresh half is worth."""
    engine = Engine(SeededDice(21))
    halves = runs = 0
    for _ in range(300):
        state = engine.new_game({"tier": "lite", "innings": 3, "challenges": 0,
                                 "fast_play": True})
        while state.result is None:
            side: Side = state.queue[0][0]  # type: ignore[assignment]
            actions = engine.legal_actions(state, side)
            action = next(a for a in actions if a["type"] in ("pass", "roll"))
            engine.step_in_place(state, action)
        for side in ("home", "away"):
            halves += len(state.line[side])
            runs += sum(state.line[side])
    # ~1,800 halves; the runs of a half have a standard deviation of about 1.2.
    assert runs / halves == pytest.approx(expected_runs(0, 0), abs=0.1)


def test_state_value_is_the_result_once_the_game_is_over() -> None:
    engine = Engine(SeededDice(4))
    state = engine.new_game({"tier": "pro", "innings": 3})
    assert state_value(state, "home") == pytest.approx(1 - state_value(state, "away"))
    state.result = {"winner": "home", "reason": "final"}
    assert state_value(state, "home") == 1.0 and state_value(state, "away") == 0.0


def test_choose_action_levels_and_errors() -> None:
    engine = Engine(SeededDice(6))
    state = engine.new_game({"tier": "pro", "innings": 3})
    side: Side = state.queue[0][0]  # type: ignore[assignment]
    for level in LEVELS:
        assert choose_action(engine, state, side, _pick(1), level) in engine.legal_actions(
            state, side
        )
    with pytest.raises(ValueError):
        choose_action(engine, state, side, _pick(1), "grandmaster")
    waiting: Side = "home" if side == "away" else "away"
    with pytest.raises(IllegalAction):
        choose_action(engine, state, waiting, _pick(1))
    assert computer_policies("base-on-board") == POLICIES  # the server's levels are these


def _match(first: str, second: str, games: int, seed: int) -> tuple[int, int]:
    engine = Engine(SeededDice(seed))
    picks = [_pick(seed * 2 + 1), _pick(seed * 2 + 2)]
    wins = [0, 0]
    for game in range(games):
        seats: dict[str, int] = {"home": game % 2, "away": 1 - game % 2}
        state = engine.new_game({"tier": "pro", "innings": 3, "fast_play": True})
        while state.result is None:
            side: Side = state.queue[0][0]  # type: ignore[assignment]
            who = seats[side]
            action: Action = QUICK[(first, second)[who]](engine, state, side, picks[who])
            engine.step_in_place(state, action)
        if state.result["winner"] is not None:
            wins[seats[state.result["winner"]]] += 1
    return wins[0], wins[1]


def test_normal_beats_easy() -> None:
    """A smoke test that can fail: 134-63 over these 200 3-inning Pro games (p ~ 5e-7), 70.7%
    over 4,000 (docs/benchmarks.md); the test asks only for p < 0.05 (about 114 of 197)."""
    normal, easy = _match("normal", "easy", games=200, seed=1)
    from app.sim.base_on_board import binomial_p

    assert normal > easy and binomial_p(normal, normal + easy) < 0.05, (normal, easy)


def test_hard_stops_when_the_stop_check_says_so() -> None:
    """The server's clock is injected as ``enough()``: asked before each round once
    ``MIN_ROUNDS`` are played, and the play-outs stop at the first ``True``."""
    engine = Engine(SeededDice(0))
    state, side = _states(seed=5, tier="pro", games=1)[0]
    actions = engine.legal_actions(state, side)
    calls = 0

    def enough_after(n: int):  # type: ignore[no-untyped-def]
        def enough() -> bool:
            nonlocal calls
            calls += 1
            return calls > n
        return enough

    rows = hard_samples(engine, state, side, actions, _pick(1), 10_000, enough_after(3))
    assert len(rows) == MIN_ROUNDS + 3 and calls == 4
    calls = 0
    rows = hard_samples(engine, state, side, actions, _pick(1), 10_000, enough_after(0))
    assert len(rows) == MIN_ROUNDS and calls == 1  # never fewer than MIN_ROUNDS
    calls = 0
    budget = (MIN_ROUNDS + 2) * len(actions)
    rows = hard_samples(engine, state, side, actions, _pick(1), budget, enough_after(99))
    assert len(rows) == MIN_ROUNDS + 2 and calls == 2  # the budget still caps it
    calls = 0
    chosen = reading_hard(enough_after(2), ())(engine, state, side, _pick(1))
    assert chosen in actions and calls == 3
    assert set(TIMED_POLICIES) == {"hard"}


def test_the_play_out_leaf_uses_each_tiers_measured_halves() -> None:
    """``hard`` scores the end of a play-out with the runs a half is worth in its tier: the
    Lite cards make a lead far less safe than the dice alone say."""
    for tier, dist in HALF_RUNS.items():
        assert abs(sum(dist) - 1.0) < 1e-3 and len(dist) == 16, tier
    mean = {tier: sum(i * p for i, p in enumerate(d)) for tier, d in HALF_RUNS.items()}
    assert mean["lite"] > 2.5 > 1.0 > mean["lite-extended"] > mean["pro"] > 0.77
    engine = Engine(SeededDice(0))
    for tier in TIERS:
        state = engine.new_game({"tier": tier, "innings": 3})
        assert abs(leaf_value(state, "home") + leaf_value(state, "away") - 1.0) < 1e-9
        state.score["home"] = 3
        assert leaf_value(state, "home") > 0.5
        if tier == "lite":
            assert leaf_value(state, "home") < state_value(state, "home") - 0.1
