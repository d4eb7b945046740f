"""The reading of the other hand (app/engines/base_on_board/reading.py)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

from app.engines.base_on_board import Engine, State
from app.engines.base_on_board.policy import choose_normal, determinise
from app.engines.base_on_board.reading import HandReading, ReadingHard, read_game, reading_hard
from app.engines.dice import HmacDice
from app.engines.interface import Action, Side
from tests.engines.base_on_board.test_policy import _assert_whole_decks, _hide_differently

Step = tuple[Engine, State, Side, Action, State]


def _normal_game(seed: int, tier: str = "pro") -> Iterator[Step]:
    """Every position of a game ``normal`` plays against itself, who acts, how, and the
    position after it."""
    engine = Engine(HmacDice(bytes(32), f"game-{seed}"))  # by draw index, as the server's
    pick = random.Random(seed).randrange
    state = engine.new_game({"tier": tier, "innings": 3, "fast_play": True})
    while state.result is None:
        side: Side = state.queue[0][0]  # type: ignore[assignment]
        action = choose_normal(engine, state, side, pick)
        after, _ = engine.apply(state, action)
        yield engine, state, side, action, after
        state = after


def _other(state: State, side: Side) -> Side:
    return state.defense if side == state.offense else state.offense  # type: ignore[return-value]


def _fits(hand: list[str], slots: list[frozenset[str]]) -> bool:
    """Whether the cards of ``hand`` can be laid one to a slot, none on a slot ruling it out."""
    return len(hand) == len(slots) and any(
        all(code not in slot for code, slot in zip(order, slots, strict=True))
        for order in itertools.permutations(hand)
    )


def test_the_reading_sees_only_what_its_side_sees() -> None:
    """Fed the same game with the other hand and every deck order changed at each step, the
    reading learns the same and deals the same worlds."""
    compared = 0
    for seed in (1, 2):
        true, twin = HandReading("home"), HandReading("home")
        for step, (engine, state, actor, action, _) in enumerate(_normal_game(seed)):
            hidden = _hide_differently(state, "home", seed=step)
            true.observe(engine, state, actor, action)
            twin.observe(engine, hidden, actor, action)
            assert true.slots == twin.slots and true.known_discards == twin.known_discards
            if step % 3 == 0:
                a = true.deal(state, "home", random.Random(step))
                b = twin.deal(hidden, "home", random.Random(step))
                assert (a.hands, a.decks, a.discards) == (b.hands, b.decks, b.discards)
                compared += 1
    assert compared > 50


def test_the_reading_never_rules_out_a_card_normal_holds_and_beats_the_uniform_deal() -> None:
    """Against the player it models, every card ruled out is truly not held, every card counted
    lies in the discards, and the deal puts more of the true hand in the other hand than the
    uniform one."""
    ruled = found_by_reading = found_uniform = 0
    for seed in range(3, 9):
        reading = HandReading("home")
        for step, (engine, state, actor, action, _) in enumerate(_normal_game(seed)):
            other = _other(state, "home")
            reading._catch_up(state)  # what observing or dealing in this position does first
            for deck, cards in reading.known_discards.items():
                assert not Counter(cards) - Counter(state.discards[deck]), (seed, step, deck)
            if actor == "home" and step % 3 == 0:  # a decision: dealt before the action
                truth = Counter(state.hands[other])
                rng = random.Random(step)
                world = reading.deal(state, "home", rng)
                _assert_whole_decks(state, world)
                for deck, cards in reading.known_discards.items():
                    assert not Counter(cards) - Counter(world.discards[deck])
                found_by_reading += sum((Counter(world.hands[other]) & truth).values())
                uniform = determinise(state, "home", rng)
                found_uniform += sum((Counter(uniform.hands[other]) & truth).values())
            reading.observe(engine, state, actor, action)
            if not (actor == other and action["type"] == "play"):  # else the hand changes
                assert _fits(state.hands[other], reading.slots), (seed, step)
            ruled += sum(map(len, reading.slots))
    assert ruled > 0
    assert found_by_reading > 1.05 * found_uniform, (found_by_reading, found_uniform)


def test_a_card_the_model_said_was_not_held_makes_the_reading_forget() -> None:
    reading = HandReading("home")
    reading._slots = [frozenset({"CS2"}), frozenset({"CS2", "PO1"}), frozenset()]
    reading._played("PO1")  # of the slots that could hold it, the most ruled-out goes
    assert reading.slots == [frozenset({"CS2", "PO1"}), frozenset()]
    reading._played("CS2")
    assert reading.slots == [frozenset({"CS2", "PO1"})]
    reading._played("PO1")  # none could: the model is wrong about this player, forget it
    assert reading.slots == []
    reading._slots = [frozenset({"CS2"})] * 3
    reading._played("CS2")
    assert reading.slots == [frozenset(), frozenset()]


def test_a_new_half_starts_a_new_reading_and_counts_the_hand_thrown_away() -> None:
    reading = HandReading("home")
    halves = 0
    last: tuple[int, str] | None = None
    mine: list[str] = []
    for engine, state, actor, action, _ in _normal_game(11):
        half = (state.inning, state.half)
        reading.observe(engine, state, actor, action)
        if half != last and last is not None:
            halves += 1
            assert all(not slot for slot in reading.slots)
            known = reading.known_discards
            assert not Counter(mine) - Counter(known["offense"] + known["defense"])
        last = half
        mine = [c for c in state.hands["home"]
                if not (actor == "home" and action.get("card") == c)]
    assert halves >= 4


def test_reading_hard_keeps_a_reading_for_its_seat_only() -> None:
    player = ReadingHard(budget=8)
    player.new_game()
    player.seat("away")
    for engine, state, actor, action, _ in itertools.islice(_normal_game(4), 60):
        player.observe(engine, state, actor, action)
        if actor == "away" and len(engine.legal_actions(state, actor)) > 1:
            assert player(engine, state, actor, random.Random(0).randrange) in (
                engine.legal_actions(state, actor))
    assert set(player.readings) == {"away"}


def test_the_server_reads_the_game_again_from_its_actions() -> None:
    """The reading the server rebuilds from the game's actions (after a restart, on another
    process) is the one kept live; a past that does not lead to the position reads nothing."""
    live = HandReading("away")
    past: list[Action] = []
    checked = 0
    for step, (engine, state, actor, action, _) in enumerate(_normal_game(12)):
        if actor == "away" and step % 3 == 0:
            rebuilt = read_game(engine, state, "away", past)
            assert rebuilt is not None
            live._catch_up(state)
            assert rebuilt.slots == live.slots
            assert rebuilt.known_discards == live.known_discards
            rng_a, rng_b = random.Random(step), random.Random(step)
            a, b = rebuilt.deal(state, "away", rng_a), live.deal(state, "away", rng_b)
            assert (a.hands, a.decks, a.discards) == (b.hands, b.decks, b.discards)
            assert read_game(engine, state, "away", past[:-1]) is None
            checked += 1
        live.observe(engine, state, actor, action)
        past.append(action)
    assert checked > 10


def test_the_servers_hard_plays_from_a_reading_or_from_the_position() -> None:
    for step, (engine, state, actor, _, _) in enumerate(_normal_game(13)):
        if step == 40:
            legal = engine.legal_actions(state, actor)
            assert reading_hard(lambda: True, ())(engine, state, actor,
                                                  random.Random(1).randrange) in legal
            break
