"""Property tests over random legal play (Hypothesis picks the options, a seed for the dice and
the policy, and how eagerly the policy plays cards); 3-inning games keep them fast."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engines.base_on_board import Engine, State
from app.engines.base_on_board.data import (
    CHALLENGE_DECK,
    DEFENSE_CODES,
    OFFENSE_CODES,
    TIERS,
    deck_for,
)
from app.engines.dice import HmacDice
from app.engines.interface import PITCH_EVENT, SIDES, Action, Event, IllegalAction, Side
from tests.engines.base_on_board.helpers import bits

MAX_STEPS = 20_000
PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

options_st = st.fixed_dictionaries({
    "innings": st.just(3),
    "tier": st.sampled_from(TIERS),
    "challenges": st.integers(0, 5),
    "bats_first": st.sampled_from(["home", "away"]),
    "fast_play": st.booleans(),
    "extra_innings": st.integers(0, 3),
})
seed_st = st.integers(0, 2**32 - 1)
eager_st = st.sampled_from([0.0, 0.3, 0.7, 1.0])


@dataclass
class Step:
    before: State
    action: Action
    after: State
    events: list[Event]


@dataclass
class Game:
    engine: Engine
    start: State
    start_events: list[Event]
    rng: random.Random
    eager: float

    def choose(self, actions: list[Action]) -> Action:
        bold = [a for a in actions if a["type"] in ("play", "challenge", "ifl", "choose")]
        if bold and self.rng.random() < self.eager:
            return self.rng.choice(bold)
        return self.rng.choice(actions)

    def steps(self) -> Iterator[Step]:
        state = self.start
        for _ in range(MAX_STEPS):
            if state.result is not None:
                return
            movers = [s for s in SIDES if self.engine.legal_actions(state, s)]
            assert len(movers) == 1, f"exactly one side moves, not {movers}"
            action = self.choose(self.engine.legal_actions(state, movers[0]))
            after, events = self.engine.apply(state, action)
            yield Step(state, action, after, events)
            state = after
        raise AssertionError(f"the game did not end in {MAX_STEPS} actions")


def new_game(options: dict[str, Any], seed: int, eager: float) -> Game:
    engine = Engine(HmacDice(seed.to_bytes(8, "big"), "property"))
    state, events = engine.start(options)
    return Game(engine, state, events, random.Random(seed), eager)


def play_out(game: Game) -> tuple[State, list[Event]]:
    events = list(game.start_events)
    state = game.start
    for step in game.steps():
        events.extend(step.events)
        state = step.after
    return state, events


# ---------------------------------------------------------------------------- the game


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_every_game_ends(options: dict[str, Any], seed: int, eager: float) -> None:
    game = new_game(options, seed, eager)
    state, events = play_out(game)
    assert state.result is not None
    outcome = game.engine.outcome(state)
    assert outcome is not None
    home, away = state.score["home"], state.score["away"]
    if outcome.winner is None:
        assert home == away and state.inning == 3 + options["extra_innings"]
    else:
        loser = "home" if outcome.winner == "away" else "away"
        assert state.score[outcome.winner] > state.score[loser]
    assert 3 <= state.inning <= 3 + options["extra_innings"]
    assert [e.type for e in events].count("game_over") == 1
    assert state.pitches == [e.type for e in events].count(PITCH_EVENT)  # D33: one per pitch
    for side in SIDES:
        assert sum(state.line[side]) == state.score[side]


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_counts_and_outs_stay_in_range(options: dict[str, Any], seed: int, eager: float) -> None:
    for step in new_game(options, seed, eager).steps():
        s = step.after
        assert 0 <= s.outs <= 3 and 0 <= s.balls <= 3 and 0 <= s.strikes <= 2
        assert s.outs < 3 or s.result is not None, "three outs end the half"
        for event in step.events:
            if event.type == PITCH_EVENT:
                rec = event.data
                assert not RECORD_KEYS - set(rec), RECORD_KEYS - set(rec)
                assert 0 <= rec["outs"] <= 2 and rec["outs"] <= rec["outs_after"] <= 3
                assert 0 <= rec["balls_after"] <= 3 and 0 <= rec["strikes_after"] <= 2
                assert rec["runs"] >= 0 and rec["rbi"] >= 0
                assert {rec["offense"], rec["defense"]} == {"home", "away"}
                assert all(d["die"] in ("pitch", "bat", "hit") for d in rec["dice"])
                assert all(c["side"] in SIDES for c in rec["cards"])


# interface.PITCH_EVENT: the keys every engine's pitch record has.
RECORD_KEYS = {
    "inning", "half", "offense", "defense", "batter", "batter_card", "pitcher", "balls",
    "strikes", "outs", "bases", "balls_after", "strikes_after", "outs_after", "bases_after",
    "dice", "result", "pa_result", "runs", "rbi", "cards", "challenge",
}


def bases_count(text: str) -> int:
    return bits(text).bit_count()


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_half_inning_accounting(options: dict[str, Any], seed: int, eager: float) -> None:
    """Everyone who comes up to bat is accounted for, from the pitch records alone.

    Per pitch record that does not end the half: the runners before, plus the batter when his
    plate appearance ended on it (``pa_result`` set), equal the runners after plus the runs
    plus the outs made. Outs made by cards that remove runners (pick-offs, caught stealing,
    LDP, GDP, GTP, IFD, assists, RHB, BD, the HNR/RNH double-up) are outs like any other, so a
    runner thrown out counts once, as an out.

    Per half-inning: batters who came up (distinct batter numbers) = runs + outs + left on base
    + (1 if the batter at the plate was still batting when the half ended). Adjustments:

    - D7: on the play that makes the third out no run counts, and the record's ``bases_after``
      is "000"; the runners left on base are derived instead as runners before that play +
      the batter if his plate appearance ended - runs on the record - outs still to make.
      That number must be 0..3 (an out capped at three, e.g. an HNR double-up with two outs,
      leaves the doubled-up runner counted as left on base).
    - A half ended by a walk-off keeps its runners: left on base = ``bases_after``.
    - A plate appearance cut off by a third out made on the bases (``pa_result`` None) belongs
      to a batter who came up but is neither out, on base, nor scored.
    """
    game = new_game(options, seed, eager)
    state, events = play_out(game)
    records = [e.data for e in events if e.type == PITCH_EVENT]
    halves: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for rec in records:
        halves.setdefault((rec["inning"], rec["half"]), []).append(rec)
    assert state.result is not None
    walk_off = state.result["reason"] == "walk-off"
    for (inning, half), recs in halves.items():
        offense = recs[0]["offense"]
        numbers = [r["batter"] for r in recs]
        # batter numbers: the same until a plate appearance ends, then the next one
        for prev, nxt in itertools.pairwise(recs):
            assert nxt["batter"] == prev["batter"] + (prev["pa_result"] is not None)
            assert (nxt["outs"], nxt["bases"]) == (prev["outs_after"], prev["bases_after"])
        assert recs[0]["outs"] == 0 and recs[0]["bases"] == "000"
        runs = sum(r["runs"] for r in recs)
        index = inning - 1
        assert state.line[offense][index] == runs
        for rec in recs[:-1]:
            done = rec["pa_result"] is not None
            assert rec["outs_after"] < 3
            assert bases_count(rec["bases"]) + done == (
                bases_count(rec["bases_after"]) + rec["runs"] + rec["outs_after"] - rec["outs"]
            ), rec
        last = recs[-1]
        done = last["pa_result"] is not None
        unfinished = walk_off and (inning, half) == (state.inning, state.half)
        if unfinished:
            outs = last["outs_after"]
            left = bases_count(last["bases_after"])
            assert bases_count(last["bases"]) + done == (
                left + last["runs"] + outs - last["outs"]
            ), last
        else:
            assert last["outs_after"] == 3
            outs = 3
            left = bases_count(last["bases"]) + done - last["runs"] - (3 - last["outs"])
            assert 0 <= left <= 3, last
        came_up = len(set(numbers))
        assert came_up == runs + outs + left + (not done), (inning, half, recs)


# ---------------------------------------------------------------------------- cards


def card_totals(state: State, deck: str) -> Counter[str]:
    holder: Side = state.offense if deck == "offense" else state.defense
    cards = Counter(state.decks[deck]) + Counter(state.discards[deck])
    if state.result is None:
        cards += Counter(state.hands[holder])
    if deck == "offense" and state.play.get("held"):
        cards[state.play["held"]] += 1
    return cards


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_hands_hold_four_and_no_card_is_lost(
    options: dict[str, Any], seed: int, eager: float
) -> None:
    game = new_game(options, seed, eager)
    full = {"offense": Counter(deck_for(options["tier"], offense=True)),
            "defense": Counter(deck_for(options["tier"], offense=False))}
    for step in game.steps():
        s = step.after
        if s.result is not None:
            continue
        for deck, side in (("offense", s.offense), ("defense", s.defense)):
            hand = s.hands[side]
            codes = OFFENSE_CODES if deck == "offense" else DEFENSE_CODES
            assert all(code in codes for code in hand), (deck, hand)
            held = 1 if deck == "offense" and s.play.get("held") else 0
            if s.decks[deck] or s.discards[deck]:
                # D16: during RNH's pitch the RNH card is out of the hand, not yet replaced.
                assert len(hand) + held == 4, (deck, hand, s.play)
            assert card_totals(s, deck) == full[deck]
        assert sorted(s.decks["challenge"] + s.discards["challenge"]) == sorted(CHALLENGE_DECK)


# ---------------------------------------------------------------------------- JSON


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_json_round_trip_continues_identically(
    options: dict[str, Any], seed: int, eager: float
) -> None:
    game = new_game(options, seed, eager)
    engine = game.engine
    for step in game.steps():
        raw = json.loads(json.dumps(engine.to_json(step.before)))
        copy = engine.from_json(raw)
        assert engine.to_json(copy) == engine.to_json(step.before)
        for side in SIDES:
            assert engine.legal_actions(copy, side) == engine.legal_actions(step.before, side)
            assert engine.view(copy, side) == engine.view(step.before, side)
        after, events = engine.apply(copy, step.action)
        assert engine.to_json(after) == engine.to_json(step.after)
        assert engine.to_json(copy) == raw, "apply never changes the state it is given"
        assert [e.to_json() for e in events] == [e.to_json() for e in step.events]


# ---------------------------------------------------------------------------- illegal actions

CARD_CODES = [*OFFENSE_CODES, *DEFENSE_CODES, "IFL", "XX"]
junk_st = st.lists(
    st.fixed_dictionaries(
        {"side": st.sampled_from(["home", "away"]),
         "type": st.sampled_from(["roll", "pass", "play", "challenge", "ifl", "choose",
                                  "resign"])},
        optional={"card": st.sampled_from(CARD_CODES),
                  "runner": st.sampled_from(["1B", "2B", "3B", "HB"])},
    ),
    min_size=3, max_size=12,
)


def variants(action: Action) -> list[Any]:
    """Near misses of a legal action: the other side, an extra key, a missing key, bad side."""
    other = "home" if action["side"] == "away" else "away"
    return [
        {**action, "side": other},
        {**action, "extra": 1},
        {k: v for k, v in action.items() if k != "side"},
        {**action, "side": "umpire"},
        {**action, "card": "XX"} if "card" in action else {**action, "type": "resign"},
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options_st, seed_st, eager_st, junk_st)
def test_illegal_actions_are_refused_and_change_nothing(
    options: dict[str, Any], seed: int, eager: float, junk: list[Action]
) -> None:
    game = new_game(options, seed, eager)
    engine = game.engine
    for number, step in enumerate(game.steps()):
        if number % 3:
            continue
        state = step.before
        legal = {side: engine.legal_actions(state, side) for side in SIDES}
        before = engine.to_json(state)
        for action in [*junk, *variants(step.action)]:
            side = action.get("side")
            if side in legal and action in legal[side]:
                continue
            try:
                engine.apply(state, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} was accepted; legal: {legal}")
            assert engine.to_json(state) == before
    final = step.after
    before = engine.to_json(final)
    for action in junk:
        try:
            engine.apply(final, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{action} was accepted after the game ended")
    assert engine.to_json(final) == before


# ---------------------------------------------------------------------------- hidden cards


def with_hidden_hands(state: State, viewer: Side | None) -> State:
    """The same state with every hand the viewer may not see replaced by other cards."""
    other = state.clone()
    for side in SIDES:
        if side != viewer:
            other.hands[side] = [f"HIDDEN{i}" for i in range(len(state.hands[side]))]
    return other


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_views_and_events_never_show_the_other_hand(
    options: dict[str, Any], seed: int, eager: float
) -> None:
    game = new_game(options, seed, eager)
    engine = game.engine
    for event in game.start_events:
        check_event(event)
    for step in game.steps():
        state = step.after
        for viewer in (None, *SIDES):
            view = engine.view(state, viewer)
            assert view == engine.view(with_hidden_hands(state, viewer), viewer)
            if viewer is None:
                assert "hand" not in view and "legal_actions" not in view
            else:
                assert view["hand"] == state.hands[viewer]
            json.dumps(view)
        for event in step.events:
            check_event(event)


def check_event(event: Event) -> None:
    public = event.for_viewer(None)
    assert public == {"type": event.type, **event.data}
    for side, extra in event.private.items():
        other = "home" if side == "away" else "away"
        for key in extra:
            assert key not in event.data
            assert key not in event.for_viewer(other)
    if event.type == "draw":
        assert "cards" not in public  # the cards drawn are the drawer's alone
        assert set(event.private) == {event.data["side"]}
        assert len(event.private[event.data["side"]]["cards"]) == event.data["count"]


# ---------------------------------------------------------------------------- windows (D31)

WINDOW_KINDS = ("pre", "cards", "answer", "challenge", "ifl")


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_windows_open_by_situation_not_by_hand(
    options: dict[str, Any], seed: int, eager: float
) -> None:
    """Without fast_play the windows that open do not depend on what the hands hold: the same
    actions (no card plays) from the same state with every hand emptied meet the same windows.
    With fast_play an open card window always offers a card, a challenge or the IFL token."""
    options = {**options, "fast_play": False}
    game = new_game(options, seed, eager)
    engine = game.engine
    state = game.start
    while state.result is None:
        side = state.queue[0][0]
        actions = [a for a in engine.legal_actions(state, side) if a["type"] != "play"]
        assert {"type": "pass"} in [{"type": a["type"]} for a in actions] or (
            state.queue[0][1] not in WINDOW_KINDS
        )
        action = game.rng.choice(actions)
        blind = state.clone()
        blind.hands = {"home": [], "away": []}
        after, _ = engine.apply(state, action)
        blind_after, _ = engine.apply(blind, action)
        assert blind_after.queue == after.queue
        assert blind_after.play == after.play
        state = after


@PROPERTY
@given(options_st, seed_st, eager_st)
def test_fast_play_windows_offer_something(
    options: dict[str, Any], seed: int, eager: float
) -> None:
    game = new_game({**options, "fast_play": True}, seed, eager)
    for step in game.steps():
        state = step.after
        if state.result is not None:
            continue
        side, kind = state.queue[0]
        if kind in WINDOW_KINDS:
            types = {a["type"] for a in game.engine.legal_actions(state, side)}  # type: ignore[arg-type]
            assert "pass" in types
            assert types & {"play", "challenge", "ifl"}, (kind, state.play)
