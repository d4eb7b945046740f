"""The Base on Board rule engine: a queue of decisions and the plays they resolve into.

A pitch is a sequence of *phases* (pre-pitch, pitch result, swing, batted ball, hit, home run).
Each phase has a queue of decisions ``[side, kind]``: mandatory ones (roll a die, choose a runner)
and response windows (play a card, challenge, declare the infield fly, or pass). A window opens
when the situation allows some card of the tier to be played (design note 1), so the pause never
tells the other side what is in a hand; with the ``fast_play`` option it opens only when the
hand really holds a playable card. A card played starts a *chain* that the other side may answer
(decision D15); the chain resolves when its last answer window closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from app.engines.base_on_board import bases as B
from app.engines.base_on_board.data import (
    BAT_DIE,
    CHALLENGE_DECK,
    DEFENSE_CHALLENGEABLE,
    HIT_DIE,
    OFFENSE_CHALLENGEABLE,
    PITCH_DIE,
    TIER_CODES,
    deck_for,
)
from app.engines.base_on_board.state import Options, State
from app.engines.base_on_board.windows import (
    ANSWERS,
    DEFENSE_WINDOW,
    OFFENSE_WINDOW,
    answer_choices,
    card_choices,
    card_moments,
)
from app.engines.dice import shuffled
from app.engines.interface import (
    JSON,
    PITCH_EVENT,
    SIDES,
    Action,
    DiceSource,
    Event,
    IllegalAction,
    Outcome,
    Side,
    parse_side,
)

MANDATORY: Final = frozenset({"pitch", "swing", "hit", "choose"})
HAND_SIZE: Final = 4
PA_HITS: Final[dict[str, str]] = {
    "iH": "1B", "L1": "1B", "L2": "1B", "C1": "1B", "C2": "1B", "R1": "1B", "R2": "1B",
    "D2": "2B", "D3": "2B", "T3": "3B",
}


_ROLL_KINDS: Final = frozenset({"pitch", "swing", "hit"})
_CARD_KINDS: Final = frozenset({"cards", "pre", "pitch", "swing"})
_DICE: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "pitch": ("pitch", PITCH_DIE),
    "swing": ("bat", BAT_DIE),
    "hit": ("hit", HIT_DIE),
}
_NO_RBI: Final = frozenset({None, "E", "DP", "TP"})
_NONE: Final[frozenset[str]] = frozenset()
_BASE_TEXT: Final[tuple[str, ...]] = tuple(B.as_text(bases) for bases in range(8))


def _plain_out(code: str, bases: int) -> tuple[int, int, int, str]:
    """A batted out no card changed (``_resolve_batted``'s last two branches): the new bases,
    the runs, the outs, and the plate appearance if the runs count."""
    if code == "GF":
        new, runs, outs = B.ground_force(bases)
        return new, runs, outs, "FC" if bases & B.FIRST else "OUT"
    new, runs = B.move(bases, B.OUT_TARGETS[code])
    return new, runs, 1, "SF" if runs and code in ("F2", "F3", "FA") else "OUT"


# The cards after which the other side has an answer window: a card some card answers, or
# a call the other side may challenge (the offense's cards are the defense's to challenge).
_ANSWERED_FROM_DEFENSE: Final = frozenset(ANSWERS) | DEFENSE_CHALLENGEABLE
_ANSWERED_FROM_OFFENSE: Final = frozenset(ANSWERS) | OFFENSE_CHALLENGEABLE

# Code -> bases -> ``_plain_out``; code -> hit and run -> bases -> ``B.move`` of a plain hit.
_PLAIN_OUTS: Final[dict[str, tuple[tuple[int, int, int, str], ...]]] = {
    code: tuple(_plain_out(code, bases) for bases in range(8))
    for code in (*B.OUT_TARGETS, "GF")
}
_PLAIN_HITS: Final[dict[str, tuple[tuple[tuple[int, int], ...], ...]]] = {
    code: tuple(
        tuple(B.move(bases, targets, extra=extra) for bases in range(8)) for extra in (0, 1)
    )
    for code, targets in B.HIT_TARGETS.items()
}

# The cards of each side's result windows, by phase: a hand holding none of them cannot play.
_OFFENSE_SETS: Final[dict[Any, frozenset[str]]] = {
    phase: frozenset(codes) for phase, codes in OFFENSE_WINDOW.items()
}
_DEFENSE_SETS: Final[dict[Any, frozenset[str]]] = {
    phase: frozenset(codes) for phase, codes in DEFENSE_WINDOW.items()
}

Events = list[Event] | None
"""Where the engine's private steps put what happened; ``None`` when nobody will read it (the
simulator's and the computer players' play-outs), so that no event is built at all."""

Playable = dict[str, list[dict[str, Any]]]
# Situation -> the cards of the offense's and of the defense's window in it that may be played
# now, each with its choices, in table order. The key holds exactly what ``card_choices`` reads
# in that phase, so that there are few situations and each is worked out once.
_SITUATIONS: dict[tuple[Any, ...], tuple[Playable, Playable]] = {}


def _situation(state: State, play: dict[str, Any]) -> tuple[Playable, Playable]:
    """``card_choices`` for every card of both sides' windows in this phase, memoized."""
    phase = play.get("phase")
    key: tuple[Any, ...]
    if phase == "pre":
        key = ("pre", state.bases, state.balls == 3)
    elif phase == "pitch":
        key = ("pitch", play.get("code"), state.bases, state.strikes == 2, state.outs == 2)
    elif phase == "swing":
        key = ("swing", state.bases, state.outs < 2, bool(play.get("hnr")))
    elif phase == "bat":
        key = (
            "bat", play.get("code"), state.bases, state.outs, bool(play.get("hnr")),
            bool(play.get("ifl")),
        )
    elif phase == "ht":
        key = ("ht", state.bases, state.outs < 2)
    elif phase == "hit":
        key = ("hit", play.get("code"), state.bases)
    else:
        key = (phase,)
    found = _SITUATIONS.get(key)
    if found is None:
        pair: list[Playable] = []
        for table in (OFFENSE_WINDOW, DEFENSE_WINDOW):
            playable: Playable = {}
            for code in table.get(str(phase), ()):
                choices = card_choices(state, code)
                if choices:
                    playable[code] = choices
            pair.append(playable)
        found = _SITUATIONS[key] = (pair[0], pair[1])
    return found


class Engine:
    """Base on Board for two sides; who sits on a side is the server's business."""

    name = "base-on-board"
    rules_version = "1"

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.records = True
        """Whether pitch records are kept in ``state.rec``. ``fast.play`` turns it off while it
        plays (nothing in the rules reads a record; it keeps its own tally) and puts back the
        record of the pitch it stops at, so the state it hands back is the same."""

    # ----------------------------------------------------------------- interface

    def new_game(self, options: Mapping[str, Any]) -> State:
        state, _ = self.start(options)
        return state

    def start(self, options: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """A new game and the events of its set-up (the first hands, dealt privately)."""
        opts = Options.parse(options)
        state = State(options=opts)
        state.decks = {
            "offense": self._shuffle(state, deck_for(opts.tier, offense=True)),
            "defense": self._shuffle(state, deck_for(opts.tier, offense=False)),
            "challenge": self._shuffle(state, list(CHALLENGE_DECK)),
        }
        state.discards = {"offense": [], "defense": [], "challenge": []}
        tokens = 1 if opts.tier == "pro" else 0
        state.ifl = {"home": tokens, "away": tokens}
        events: list[Event] = []
        self._start_half(state, events)
        self._run(state, events)
        return state, events

    def legal_actions(self, state: State, side: Side) -> list[Action]:
        queue = state.queue
        if state.result is not None or not queue:
            return []
        head = queue[0]
        if head[0] != side:
            return []
        kind = head[1]
        play = state.play
        if kind == "choose":
            return [
                {"side": side, "type": "choose", "runner": B.BASE_NAMES[bit]}
                for bit in B.runner_bits(state.bases)
            ]
        actions: list[Action] = []
        if kind in _ROLL_KINDS:
            actions.append({"side": side, "type": "roll"})
            if kind == "hit" or play.get("hnr") or play.get("rnh"):
                return actions
            # A pitch or a swing: the cards of the side's window, and nothing else (no
            # challenge, infield fly or pass in a mandatory decision).
            hand = state.hands[side]
            offense = side == state.offense
            codes = (_OFFENSE_SETS if offense else _DEFENSE_SETS).get(play.get("phase"))
            if codes is not None and not codes.isdisjoint(hand):
                playable = _situation(state, play)[0 if offense else 1]
                for code in dict.fromkeys(hand):
                    choices = playable.get(code)
                    if choices is not None:
                        for choice in choices:
                            actions.append({"side": side, "type": "play", "card": code, **choice})
            return actions
        if kind == "answer":
            allowed = ANSWERS.get(play["chain"][-1]["code"], ())
            if allowed:
                for code in dict.fromkeys(state.hands[side]):
                    if code in allowed:
                        for choice in answer_choices(state, code):
                            actions.append({"side": side, "type": "play", "card": code, **choice})
        elif kind in _CARD_KINDS:
            offense = side == state.offense
            hand = state.hands[side]
            codes = (_OFFENSE_SETS if offense else _DEFENSE_SETS).get(play.get("phase"))
            if (
                codes is not None
                and not codes.isdisjoint(hand)
                and not (offense and kind == "cards" and play.get("rnh"))
            ):
                playable = _situation(state, play)[0 if offense else 1]
                if playable:
                    for code in dict.fromkeys(hand):
                        choices = playable.get(code)
                        if choices is not None:
                            for choice in choices:
                                actions.append(
                                    {"side": side, "type": "play", "card": code, **choice}
                                )
        if state.challenges[side] > 0:  # ``_may_challenge``, inline
            if kind == "challenge":
                actions.append({"side": side, "type": "challenge"})
            elif kind == "answer":
                entry = play["chain"][-1]
                allowed_calls = (
                    OFFENSE_CHALLENGEABLE if side == state.offense else DEFENSE_CHALLENGEABLE
                )
                if entry["code"] in allowed_calls and "challenge" not in entry:
                    actions.append({"side": side, "type": "challenge"})
        if kind == "ifl":
            actions.append({"side": side, "type": "ifl"})
        if kind not in MANDATORY:
            actions.append({"side": side, "type": "pass"})
        return actions

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        side = parse_side(action.get("side") if isinstance(action, Mapping) else None)
        if dict(action) not in self.legal_actions(state, side):
            raise IllegalAction(self._why_illegal(state, side, action))
        new = state.clone()
        events: list[Event] = []
        self._step(new, dict(action), events)
        self._run(new, events)
        return new, events

    def step_in_place(self, state: State, action: Action, events: bool = True) -> list[Event]:
        """``apply`` without the copy or the legality check, for the simulator's hot loop.

        Only for actions taken from ``legal_actions`` of this very state. With ``events=False``
        nothing that happened is built (not even the pitch record's event: the record itself is
        still closed in ``state.rec`` first) and the list returned is empty; the state ends
        exactly as with events.
        """
        if not events:
            self._step(state, action, None)
            self._run(state, None)
            return []
        happened: list[Event] = []
        self._step(state, action, happened)
        self._run(state, happened)
        return happened

    def view(self, state: State, side: Side | None) -> JSON:
        body = self._public_view(state)
        if side is not None:
            self._add_own(state, side, body, self.legal_actions(state, side))
        return body

    def views(
        self, state: State, legal: Mapping[Side, list[Action]] | None = None
    ) -> dict[Side | None, JSON]:
        """The public part is built once and each side's view copies its top level only, so
        the three views share what is nested in it (nobody changes a view once built)."""
        public = self._public_view(state)
        built: dict[Side | None, JSON] = {None: public}
        for side in SIDES:
            body = dict(public)
            self._add_own(state, side, body, legal[side] if legal is not None
                          else self.legal_actions(state, side))
            built[side] = body
        return built

    def _add_own(self, state: State, side: Side, body: JSON, legal: list[Action]) -> None:
        """What only ``side`` sees: its hand, its legal actions and why the rest of its hand
        cannot be played."""
        body["side"] = side
        body["hand"] = list(state.hands[side])
        body["legal_actions"] = legal
        body["hand_notes"] = self.hand_notes(state, side, legal)

    def _public_view(self, state: State) -> JSON:
        """What every viewer sees, a spectator's whole view."""
        waiting = None
        if state.queue and state.result is None:
            waiting = {"side": state.queue[0][0], "kind": state.queue[0][1]}
        play = state.play
        body: JSON = {
            "game": self.name,
            "options": state.options.to_json(),
            "inning": state.inning,
            "half": state.half,
            "offense": state.offense,
            "defense": state.defense,
            "outs": state.outs,
            "balls": state.balls,
            "strikes": state.strikes,
            "bases": B.as_text(state.bases),
            "score": dict(state.score),
            "line": {k: list(v) for k, v in state.line.items()},
            "batters": dict(state.batters),
            "challenges": dict(state.challenges),
            "ifl_tokens": dict(state.ifl),
            "hand_sizes": {k: len(v) for k, v in state.hands.items()},
            "deck_sizes": {k: len(v) for k, v in state.decks.items()},
            "discard_sizes": {k: len(v) for k, v in state.discards.items()},
            "phase": play.get("phase"),
            "code": play.get("code"),
            "hit_and_run": bool(play.get("hnr")),
            "run_and_hit": bool(play.get("rnh")),
            "chain": [dict(entry) for entry in play.get("chain", [])],
            "waiting": waiting,
            "pitches": state.pitches,
            "result": dict(state.result) if state.result is not None else None,
        }
        return body

    def hand_notes(self, state: State, side: Side, legal: list[Action]) -> list[JSON]:
        """Why each card of ``side``'s hand that cannot be played now cannot: ``over`` (the
        game is over), ``wait`` (the other side is deciding), ``moment`` (the card is played
        at another moment: ``when`` lists the phases, ``answers`` the cards it answers),
        ``situation`` (this is its moment but the runners, outs, count or die do not allow
        it) or ``rnh`` (run and hit is the offense's card for this pitch, decision D17). Only
        the side's own view has it; it reads nothing the side cannot see."""
        playable = {a["card"] for a in legal if a["type"] == "play"}
        head = state.queue[0] if state.queue and state.result is None else None
        notes: list[JSON] = []
        for code in dict.fromkeys(state.hands[side]):
            if code in playable:
                continue
            when, answers = card_moments(code)
            why = "moment"
            if state.result is not None:
                why = "over"
            elif head is None or head[0] != side:
                why = "wait"
            elif (head[1] == "cards" and side == state.offense and state.play.get("rnh")
                  and code in OFFENSE_WINDOW.get(str(state.play.get("phase")), ())):
                why = "rnh"
            elif code in self._window_codes(state, side, head[1]):
                why = "situation"
            notes.append({"code": code, "why": why, "when": when, "answers": answers})
        return notes

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(
            winner=state.result["winner"],
            score=dict(state.score),
            reason=str(state.result["reason"]),
        )

    def timeout_action(
        self, state: State, side: Side, legal: list[Action] | None = None
    ) -> Action | None:
        actions = self.legal_actions(state, side) if legal is None else legal
        for wanted in ("pass", "roll"):
            for action in actions:
                if action["type"] == wanted:
                    return action
        return actions[0] if actions else None

    def to_json(self, state: State) -> JSON:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(data)

    # ----------------------------------------------------------------- dice and cards

    def _shuffle(self, state: State, cards: list[str]) -> list[str]:
        order, state.draw = shuffled(cards, self.dice, state.draw)
        return order

    def _draw_card(self, state: State, deck: str, events: Events) -> str | None:
        pile = state.decks[deck]
        if not pile and state.discards[deck]:
            pile[:] = self._shuffle(state, state.discards[deck])
            state.discards[deck] = []
            if events is not None:
                events.append(Event("reshuffle", {"deck": deck, "size": len(pile)}, {}))
        return pile.pop() if pile else None

    def _deal(self, state: State, side: Side, deck: str, n: int, events: Events) -> None:
        pile = state.decks[deck]
        hand = state.hands[side]
        if events is None and len(pile) >= n:
            # Nobody reads the draw: the top ``n`` cards in the order ``pop`` takes them.
            if n == 1:
                hand.append(pile.pop())
            else:
                hand.extend(pile[:-n - 1:-1])
                del pile[-n:]
            return
        held = len(hand)
        for _ in range(n):
            card = pile.pop() if pile else self._draw_card(state, deck, events)
            if card is None:
                break
            hand.append(card)
        if events is not None and len(hand) > held:
            drawn = hand[held:]
            events.append(
                Event("draw", {"side": side, "deck": deck, "count": len(drawn)},
                      {side: {"cards": drawn}})
            )

    # ----------------------------------------------------------------- the decision loop

    def _run(self, state: State, events: Events) -> None:
        """Moves on by itself until some side has a real choice, or the game is over."""
        situation: tuple[Playable, Playable] | None = None  # while nothing changes
        while state.result is None:
            queue = state.queue
            if not queue:
                phase = state.play.get("phase")
                if phase == "pitch":
                    self._finish_count(state, events)
                else:
                    self._finish_phase(state, events)
                situation = None
                continue
            side, kind = queue[0]
            if kind in MANDATORY:
                return
            if kind == "cards" or kind == "pre":
                # ``_opens`` for the commonest windows, inline: this loop is the engine's
                # hottest code.
                play = state.play
                offense = side == state.offense
                codes = (_OFFENSE_SETS if offense else _DEFENSE_SETS).get(play.get("phase"))
                if codes is not None and not (offense and kind == "cards" and play.get("rnh")):
                    hand = state.hands[side]
                    fast = state.options.fast_play
                    if not fast or not codes.isdisjoint(hand):
                        if situation is None:
                            situation = _situation(state, play)
                        playable = situation[0] if offense else situation[1]
                        if playable and (
                            not playable.keys().isdisjoint(hand)
                            if fast
                            else not TIER_CODES[state.options.tier].isdisjoint(playable)
                        ):
                            return
            elif self._opens(state, side, kind):  # type: ignore[arg-type]
                return
            queue.pop(0)
            if kind == "answer":
                self._resolve_chain(state, events)
                situation = None

    def _opens(self, state: State, side: Side, kind: str) -> bool:
        """Whether a window opens (design note 1): some card of the tier (with ``fast_play``,
        of the hand) may be played now, or a challenge or the infield fly may be declared."""
        if kind == "ifl":
            return True
        if kind == "challenge":
            return state.challenges[side] > 0
        play = state.play
        fast = state.options.fast_play
        if kind == "answer":
            if self._may_challenge(state, side, kind):
                return True
            allowed = ANSWERS.get(play["chain"][-1]["code"], ())
            if not allowed:
                return False
            # The answers the hand holds (with ``fast_play``) or the tier has, in that order.
            if fast:
                for code in state.hands[side]:
                    if code in allowed and answer_choices(state, code):
                        return True
                return False
            tier = TIER_CODES[state.options.tier]
            return any(code in tier and answer_choices(state, code) for code in allowed)
        if kind not in _CARD_KINDS:
            return False
        offense = side == state.offense
        if offense and kind == "cards" and play.get("rnh"):
            return False  # RNH is the offense's card for its pitch (decision D17)
        playable = _situation(state, play)[0 if offense else 1]
        if not playable:
            return False
        if fast:
            return not playable.keys().isdisjoint(state.hands[side])
        return not TIER_CODES[state.options.tier].isdisjoint(playable)

    def _window_codes(self, state: State, side: Side, kind: str) -> tuple[str, ...]:
        """The cards this window may offer, whatever the situation."""
        if kind == "answer":
            return ANSWERS.get(state.play["chain"][-1]["code"], ())
        if kind in ("cards", "pre", "pitch", "swing"):
            if side == state.offense and kind == "cards" and state.play.get("rnh"):
                return ()  # RNH is the offense's card for its pitch (decision D17)
            table = OFFENSE_WINDOW if side == state.offense else DEFENSE_WINDOW
            return table.get(str(state.play.get("phase")), ())
        return ()

    def _may_challenge(self, state: State, side: Side, kind: str) -> bool:
        if state.challenges[side] <= 0:
            return False
        if kind == "challenge":
            return True
        if kind == "answer":
            entry = state.play["chain"][-1]
            allowed = OFFENSE_CHALLENGEABLE if side == state.offense else DEFENSE_CHALLENGEABLE
            return entry["code"] in allowed and "challenge" not in entry
        return False

    # ----------------------------------------------------------------- one action

    def _step(self, state: State, action: Action, events: Events) -> None:
        side: Side = action["side"]
        kind = action["type"]
        window = state.queue.pop(0)[1]
        if kind == "roll":
            if events is not None:
                events.append(Event("roll_requested", {"side": side}, {}))
            die, faces = _DICE[window]
            face = faces[self.dice.below(state.draw, len(faces))]
            state.draw += 1
            rec = state.rec
            assert rec is not None
            rec["dice"].append({"die": die, "face": face})
            roller = state.defense if window == "pitch" else state.offense
            if events is not None:
                events.append(Event("roll", {"side": roller, "die": die, "face": face}, {}))
            if window == "pitch":
                self._pitch_result(state, face, events)
            elif window == "swing":
                self._bat_result(state, face, events)
            else:
                self._hit_result(state, face)
        elif kind == "pass":
            if events is not None:
                events.append(Event("pass", {"side": side, "window": window}, {}))
            if window == "answer":
                self._resolve_chain(state, events)
        elif kind == "play":
            self._on_card(state, side, window, action, events)
        elif kind == "challenge":
            self._on_challenge(state, side, window, events)
        elif kind == "ifl":
            self._on_infield_fly(state, side, events)
        elif kind == "choose":
            self._line_drive_double(
                state, B.BASE_BITS[action["runner"]], str(state.play["code"]), events
            )

    def _why_illegal(self, state: State, side: Side, action: Mapping[str, Any]) -> str:
        if state.result is not None:
            return "the game is over"
        if not state.queue or state.queue[0][0] != side:
            return f"it is not {side}'s move"
        return f"{dict(action)!r} is not a legal action for {side} now"

    # ----------------------------------------------------------------- halves and pitches

    def _start_half(self, state: State, events: Events) -> None:
        if state.half == "top" and (state.inning - 1) % 3 == 0:
            for side in ("home", "away"):
                state.challenges[side] += state.options.challenges
        offense, defense = state.offense, state.defense
        state.outs = state.balls = state.strikes = state.bases = 0
        state.line[offense].append(0)
        state.batters[offense] += 1
        if events is not None:
            events.append(
                Event(
                    "half_start",
                    {"inning": state.inning, "half": state.half, "offense": offense},
                    {},
                )
            )
        self._deal(state, offense, "offense", HAND_SIZE, events)
        self._deal(state, defense, "defense", HAND_SIZE, events)
        self._begin_pitch(state)

    def _begin_pitch(self, state: State) -> None:
        offense = state.offense
        defense = state.defense
        if state.rec is None:
            state.rec = self.new_record(state)
        state.play = {"phase": "pre", "chain": []}
        state.queue = [[offense, "pre"], [defense, "pitch"]]

    def new_record(self, state: State) -> dict[str, Any]:
        """The record of a pitch about to start: the situation before it, nothing happened."""
        offense = state.offense
        return {
            "inning": state.inning,
            "half": state.half,
            "offense": offense,
            "defense": state.defense,
            "batter": state.batters[offense],
            "batter_card": None,
            "pitcher": None,
            "balls": state.balls,
            "strikes": state.strikes,
            "outs": state.outs,
            "bases": _BASE_TEXT[state.bases],
            "dice": [],
            "cards": [],
            "challenge": None,
            "challenges": [],
            "runs": 0,
        }

    def _end_pitch(
        self, state: State, events: Events, pa: str | None, result: str, rbi: int = 0
    ) -> None:
        """Closes the pitch record; then the next pitch, the next half, or the end."""
        play = state.play
        offense = state.offense
        held = play.pop("held", None)
        if held is not None:  # RNH's pitch is over, however it ended (decision D16)
            state.discards["offense"].append(held)
            self._deal(state, offense, "offense", 1, events)
        if pa is not None:
            state.balls = state.strikes = 0
        outs = state.outs
        records = self.records
        if records:
            rec = state.rec
            assert rec is not None
            rec["result"] = result
            rec["pa_result"] = pa
            rec["rbi"] = rbi if pa not in _NO_RBI else 0
            rec["balls_after"] = state.balls
            rec["strikes_after"] = state.strikes
            rec["outs_after"] = outs if outs < 3 else 3
            rec["bases_after"] = _BASE_TEXT[state.bases] if outs < 3 else "000"
            rec["hit_and_run"] = bool(play.get("hnr"))
            rec["run_and_hit"] = bool(play.get("rnh"))
            if events is not None:
                events.append(Event(PITCH_EVENT, rec, {}))
            state.rec = None
        state.pitches += 1
        defense = state.defense
        score = state.score
        if (
            state.inning >= state.options.innings
            and state.half == "bottom"
            and score[offense] > score[defense]
        ):  # ``_walk_off``, inline (the commonest answer, an early inning, first)
            self._game_over(state, offense, "walk-off", events)
        elif outs >= 3:
            self._end_half(state, events)
        else:
            batters = state.batters
            if pa is not None:
                batters[offense] += 1
            # ``_begin_pitch``, inline
            if records:
                state.rec = self.new_record(state)
            state.play = {"phase": "pre", "chain": []}
            state.queue = [[offense, "pre"], [defense, "pitch"]]

    def _walk_off(self, state: State) -> bool:
        return (
            state.half == "bottom"
            and state.inning >= state.options.innings
            and state.score[state.offense] > state.score[state.defense]
        )

    def _end_half(self, state: State, events: Events) -> None:
        offense, defense = state.offense, state.defense
        state.discards["offense"].extend(state.hands[offense])
        state.discards["defense"].extend(state.hands[defense])
        state.hands[offense] = []
        state.hands[defense] = []
        if events is not None:
            events.append(
                Event(
                    "half_end",
                    {"inning": state.inning, "half": state.half, "runs": state.line[offense][-1]},
                    {},
                )
            )
        state.queue = []
        state.play = {}
        first = state.options.bats_first
        second: Side = "home" if first == "away" else "away"
        last = state.options.innings
        if state.half == "top":
            if state.inning >= last and state.score[second] > state.score[first]:
                self._game_over(state, second, "leads after the top half", events)
                return
            state.half = "bottom"
        else:
            if state.inning >= last and state.score["home"] != state.score["away"]:
                winner: Side = "home" if state.score["home"] > state.score["away"] else "away"
                self._game_over(state, winner, "final", events)
                return
            if state.inning >= last + state.options.extra_innings:
                self._game_over(state, None, "tie after extra innings", events)
                return
            state.inning += 1
            state.half = "top"
        self._start_half(state, events)

    def _game_over(
        self, state: State, winner: Side | None, reason: str, events: Events
    ) -> None:
        state.result = {"winner": winner, "reason": reason}
        state.queue = []
        if events is not None:
            events.append(
                Event(
                    "game_over",
                    {"winner": winner, "reason": reason, "score": dict(state.score)},
                    {},
                )
            )

    def _settle(self, state: State, bases: int, runs: int, outs: int) -> None:
        """Commits a play: a play that ends with the third out scores no run (decision D7)."""
        state.outs += outs
        if state.outs >= 3:
            state.outs = 3
            return
        state.bases = bases
        if runs:
            offense = state.offense
            state.score[offense] += runs
            state.line[offense][-1] += runs
            assert state.rec is not None
            state.rec["runs"] += runs

    def _interrupted(self, state: State, events: Events, result: str) -> bool:
        """After a mid-pitch play: the third out or a walk-off ends the pitch at once."""
        if state.outs >= 3 or self._walk_off(state):
            self._end_pitch(state, events, None, result)
            return True
        return False

    # ----------------------------------------------------------------- rolls

    def _pitch_result(self, state: State, face: str, events: Events) -> None:
        play = state.play
        offense, defense = state.offense, state.defense
        play["phase"] = "pitch"
        play["code"] = face
        play["face"] = face
        play["chain"] = []
        if face == "C":
            play["phase"] = "swing"
            if play.get("rnh"):
                play["hnr"] = True
            state.queue = [[offense, "swing"]]
            return
        queue: list[list[str]] = []
        if face == "B":
            queue.append([defense, "challenge"])
        elif face == "SM":
            queue.append([offense, "challenge"])
        if play.get("rnh"):
            if face == "F":
                # RNH on a foul: runners go back and the card counts as not played (4.2.1).
                state.hands[offense].append(play.pop("held"))
                play["rnh"] = False
                if events is not None:
                    events.append(Event("card_returned", {"side": offense, "code": "RNH"}, {}))
                state.queue = [*queue, [defense, "cards"]]
                return
            stole = state.bases & 0b011
            play["rnh_stole"] = stole
            state.bases = ((stole << 1) | (state.bases & B.THIRD)) & 0b111
            play["chain"] = [{"side": offense, "code": "RNH"}]
            if events is not None:
                events.append(Event("run_and_hit_steal", {"bases": B.as_text(state.bases)}, {}))
            state.queue = [*queue, [defense, "answer"]]
            return
        state.queue = [*queue, [offense, "cards"], [defense, "cards"]]

    def _bat_result(self, state: State, face: str, events: Events) -> None:
        play = state.play
        offense, defense = state.offense, state.defense
        play["face"] = face
        play["chain"] = []
        if face == "HT":
            play["phase"] = "ht"
            play["code"] = "HT"
            state.queue = [[defense, "cards"], [offense, "hit"]]
            return
        if face == "HR":
            play["phase"] = "hr"
            play["code"] = "HR"
            state.queue = [[offense, "cards"], [defense, "challenge"]]
            return
        code = face
        if play.get("hnr"):
            # Hit and run / run and hit (4.2.1): GF, G3 play as GA; FO, PO double up the
            # runner; F2, F3, FA send the runners back.
            if face in ("GF", "G3"):
                code = "GA"
            elif face in ("FO", "PO"):
                play["phase"] = "bat"
                play["code"] = face
                runners = B.runner_bits(state.bases)
                if len(runners) == 1:
                    self._line_drive_double(state, runners[0], face, events)
                else:
                    state.queue = [[defense, "choose"]]
                return
            elif face in ("F2", "F3", "FA"):
                code = "FO"
        play["phase"] = "bat"
        play["code"] = code
        queue: list[list[str]] = []
        if face == "GA":
            queue.append([offense, "challenge"])
        if (
            code == "PO"
            and state.outs < 2
            and state.bases in (3, 7)
            and state.ifl[offense] > 0
        ):
            queue.append([offense, "ifl"])
        state.queue = [*queue, [defense, "cards"], [offense, "cards"]]

    def _hit_result(self, state: State, face: str) -> None:
        state.play["phase"] = "hit"
        state.play["code"] = face
        state.play["chain"] = []
        queue: list[list[str]] = []
        if face == "iH":
            queue.append([state.defense, "challenge"])
        state.queue = [*queue, [state.defense, "cards"], [state.offense, "cards"]]

    # ----------------------------------------------------------------- cards and challenges

    def _on_card(
        self, state: State, side: Side, window: str, action: Action, events: Events
    ) -> None:
        code: str = action["card"]
        hand = state.hands[side]
        hand.remove(code)
        offense = side == state.offense
        deck = "offense" if offense else "defense"
        entry: dict[str, Any] = {"side": side, "code": code}
        if "runner" in action:
            entry["runner"] = action["runner"]
        if self.records:
            assert state.rec is not None
            state.rec["cards"].append(dict(entry))
        if events is not None:
            events.append(Event("card", dict(entry), {}))
        if code == "RNH":
            state.play["held"] = code  # replaced only once the pitch is over (decision D16)
        else:
            state.discards[deck].append(code)
            pile = state.decks[deck]
            if events is None and pile:
                hand.append(pile.pop())  # ``_deal`` of one unread card
            else:
                self._deal(state, side, deck, 1, events)
        play = state.play
        if window == "answer":
            play["chain"].append(entry)
        else:
            play["chain"] = [entry]
            if not offense and play.get("phase") == "bat":
                # Once the defense has played on a batted ball, the offense may only answer
                # that card (decision D15).
                state.queue = [w for w in state.queue if w != [state.offense, "cards"]]
            if code == "HRC":
                state.queue = [w for w in state.queue if w[1] != "challenge"]
        if code in (_ANSWERED_FROM_DEFENSE if offense else _ANSWERED_FROM_OFFENSE):
            state.queue.insert(0, [state.defense if offense else state.offense, "answer"])
        else:
            self._resolve_chain(state, events)

    def _draw_challenge(self, state: State, events: Events) -> str:
        card = self._draw_card(state, "challenge", events)
        assert card is not None  # the deck of 20 is never all out at once
        state.discards["challenge"].append(card)
        return card

    def _on_challenge(self, state: State, side: Side, window: str, events: Events) -> None:
        state.challenges[side] -= 1
        result = self._draw_challenge(state, events)
        play = state.play
        call: str
        if window == "answer":
            entry = play["chain"][-1]
            entry["challenge"] = result
            call = entry["code"]
        else:
            call = play["code"]
            play["call_challenge"] = result
        record = {"side": side, "call": call, "result": result}
        assert state.rec is not None
        state.rec["challenges"].append(record)
        if state.rec["challenge"] is None:
            state.rec["challenge"] = record
        if events is not None:
            events.append(Event("challenge", record, {}))
        if window == "answer":
            self._resolve_chain(state, events)
        elif result == "reverse":
            self._reverse_call(state, call, events)

    def _reverse_call(self, state: State, call: str, events: Events) -> None:
        """A reversed call of a die: B and SM swap; GA, iH and HR are settled at once."""
        play = state.play
        if call == "B":
            play["code"] = "SM"
        elif call == "SM":
            play["code"] = "B"
        elif call == "GA":
            bases, runs = B.move(state.bases, (2, 3, 4, 1))
            self._settle(state, bases, runs, 0)
            self._end_pitch(state, events, "1B", "GA>1B", runs)
        elif call == "iH":
            bases, runs = B.move(state.bases, (2, 3, 4, 0))
            self._settle(state, bases, runs, 1)
            self._end_pitch(state, events, "OUT", "iH>OUT", runs)
        elif call == "HR":
            if state.strikes < 2:
                state.strikes += 1
            self._end_pitch(state, events, None, "HR>F")

    def _on_infield_fly(self, state: State, side: Side, events: Events) -> None:
        state.ifl[side] -= 1
        state.play["ifl"] = True
        assert state.rec is not None
        state.rec["cards"].append({"side": side, "code": "IFL"})
        if events is not None:
            events.append(Event("card", {"side": side, "code": "IFL"}, {}))
        self._settle(state, state.bases, 0, 1)
        self._end_pitch(state, events, "OUT", "IFL")

    def _line_drive_double(
        self, state: State, runner: int, result: str, events: Events
    ) -> None:
        self._settle(state, state.bases & ~runner, 0, 2)
        self._end_pitch(state, events, "DP", result)

    # ----------------------------------------------------------------- chains

    def _resolve_chain(self, state: State, events: Events) -> None:
        play = state.play
        chain: list[dict[str, Any]] = play["chain"]
        play["chain"] = []
        root = chain[0]
        code: str = root["code"]
        answers = {e["code"]: e for e in chain[1:]} if len(chain) > 1 else {}
        reversed_root = root.get("challenge") == "reverse"
        offense = state.offense
        if events is not None:
            events.append(Event("chain_resolved", {"chain": [dict(e) for e in chain]}, {}))
        if code == "BK":
            bases, runs = B.advance_all(state.bases)
            self._settle(state, bases, runs, 0)
            if not self._interrupted(state, events, "BK"):
                state.queue = [[offense, "pre"], [state.defense, "pitch"]]
        elif code == "HNR":
            play["hnr"] = True
            play["phase"] = "swing"
            play["code"] = "C"
            assert state.rec is not None
            state.rec["pitch_by_card"] = "HNR"
            state.queue = [[offense, "swing"]]
        elif code == "RNH" and play["phase"] == "pre":
            play["rnh"] = True
            state.queue = [[state.defense, "pitch"]]
        elif code == "RNH":
            outs = 0
            for cs, bit in (("CS2", B.SECOND), ("CS3", B.THIRD)):
                if cs in answers and answers[cs].get("challenge") != "reverse":
                    state.bases &= ~bit
                    outs += 1
            self._settle(state, state.bases, 0, outs)
            self._interrupted(state, events, "RNH")
        elif code in ("PO1", "PO2", "CO1", "CO3"):
            self._resolve_pickoff(state, code, answers, reversed_root, events)
        elif code in ("SB2", "SB3", "SBH"):
            bit = {"SB2": B.FIRST, "SB3": B.SECOND, "SBH": B.THIRD}[code]
            catch = {"SB2": "CS2", "SB3": "CS3", "SBH": "CSH"}[code]
            caught = reversed_root or (
                catch in answers and answers[catch].get("challenge") != "reverse"
            )
            bases = state.bases & ~bit
            if caught:
                self._settle(state, bases, 0, 1)
            elif bit == B.THIRD:
                self._settle(state, bases, 1, 0)
            else:
                self._settle(state, bases | (bit << 1), 0, 0)
            self._interrupted(state, events, catch if caught else code)
        elif code in ("SB", "SQ1", "SQ2"):
            self._resolve_bunt(state, code, answers, reversed_root, events)
        elif code in ("HBP", "CIB"):
            play["award"] = code
        elif code == "SNO":
            if not reversed_root:
                play["award"] = code
        elif code == "WP":
            bases, runs = B.advance_all(state.bases)
            self._settle(state, bases, runs, 0)
            self._interrupted(state, events, "WP")
        elif code == "FFO":
            self._settle(state, state.bases, 0, 1)
            self._end_pitch(state, events, "OUT", "FFO")
        elif code == "LDP":
            self._line_drive_double(state, B.BASE_BITS[root["runner"]], "LDP", events)
        elif code == "HRC":
            play["hrc"] = True
        elif play.get("phase") == "hit":
            play.setdefault("mods", []).append({"code": code, "reversed": reversed_root})
        else:
            play["resolved"] = chain

    def _resolve_pickoff(
        self,
        state: State,
        code: str,
        answers: dict[str, dict[str, Any]],
        reversed_root: bool,
        events: Events,
    ) -> None:
        bit = {"PO1": B.FIRST, "PO2": B.SECOND, "CO1": B.FIRST, "CO3": B.THIRD}[code]
        if "POE" in answers:
            bases, runs = B.advance_all(state.bases)
            self._settle(state, bases, runs, 0)
            result = "POE"
        elif reversed_root:
            result = code + ">safe"
        else:
            self._settle(state, state.bases & ~bit, 0, 1)
            result = code
        if self._interrupted(state, events, result):
            return
        if state.play.get("phase") == "pre":
            state.queue = [[state.offense, "pre"], [state.defense, "pitch"]]

    def _resolve_bunt(
        self,
        state: State,
        code: str,
        answers: dict[str, dict[str, Any]],
        reversed_root: bool,
        events: Events,
    ) -> None:
        bd = answers.get("BD")
        if bd is not None and bd.get("challenge") != "reverse":
            bases, runs = B.remove_then_force(state.bases, B.lead_runner(state.bases))
            self._settle(state, bases, runs, 1)
            self._end_pitch(state, events, "FC", "BD")
        elif bd is not None or (code == "SQ2" and not reversed_root):
            bases, runs = B.advance_all(state.bases, batter_to_first=True)
            self._settle(state, bases, runs, 0)
            self._end_pitch(state, events, "1B", "BD>safe" if bd else "SQ2", runs)
        elif code == "SQ1":
            self._settle(state, state.bases & ~B.THIRD, 1, 1)
            self._end_pitch(state, events, "SAC", "SQ1", 1 if state.outs < 3 else 0)
        else:
            bases, runs = B.advance_all(state.bases)
            self._settle(state, bases, runs, 1)
            result = "SQ2>OUT" if code == "SQ2" else "SB"
            self._end_pitch(state, events, "SAC", result, runs if state.outs < 3 else 0)

    # ----------------------------------------------------------------- end of a phase

    def _finish_phase(self, state: State, events: Events) -> None:
        phase = state.play.get("phase")
        if phase == "pitch":
            self._finish_count(state, events)
        elif phase == "bat":
            self._resolve_batted(state, events)
        elif phase == "hit":
            self._resolve_hit(state, events)
        elif phase == "hr":
            self._resolve_home_run(state, events)
        else:  # pragma: no cover - every other phase ends in a mandatory decision
            raise AssertionError(f"phase {phase!r} cannot end without a decision")

    def _finish_count(self, state: State, events: Events) -> None:
        play = state.play
        award = play.get("award")
        code: str = play["code"]
        if award == "HBP":
            bases, runs = B.force(state.bases)
            self._settle(state, bases, runs, 0)
            self._end_pitch(state, events, "HBP", "HBP", runs)
        elif award in ("CIB", "SNO"):
            bases, runs = B.advance_all(state.bases, batter_to_first=True)
            self._settle(state, bases, runs, 0)
            self._end_pitch(state, events, "CI" if award == "CIB" else "SNO", award, runs)
        elif code == "B":
            state.balls += 1
            if state.balls == 4:
                bases, runs = B.force(state.bases)
                self._settle(state, bases, runs, 0)
                self._end_pitch(state, events, "BB", "B", runs)
            else:
                self._end_pitch(state, events, None, "B")
        elif code in ("S", "SM"):
            state.strikes += 1
            if state.strikes == 3:
                self._settle(state, state.bases, 0, 1)
                self._end_pitch(state, events, "K", code)
            else:
                self._end_pitch(state, events, None, code)
        else:
            if state.strikes < 2:
                state.strikes += 1
            self._end_pitch(state, events, None, "F")

    def _resolve_batted(self, state: State, events: Events) -> None:
        play = state.play
        code: str = play["code"]
        bases = state.bases
        chain: list[dict[str, Any]] | None = play.get("resolved")
        if not chain:
            # No card on the ball (nine in ten): the out's table (the ``else`` branches below).
            new, runs, outs, pa = _PLAIN_OUTS[code][bases]
            self._settle(state, new, runs, outs)
            if pa == "SF" and state.outs >= 3:
                pa = "OUT"  # the run did not count (decision D7): no sacrifice
            self._end_pitch(state, events, pa, code, runs if state.outs < 3 else 0)
            return
        root = chain[0]["code"] if chain else None
        answered = {e["code"] for e in chain[1:]} if len(chain) > 1 else _NONE
        if root == "E" or "E" in answered:
            new, runs = B.advance_all(bases, batter_to_first=True)
            self._settle(state, new, runs, 0)
            self._end_pitch(state, events, "E", "E", runs)
        elif root == "IOB":
            if chain[0].get("challenge") == "reverse":
                new, runs = B.remove_then_force(bases, B.lead_runner(bases))
                self._settle(state, new, runs, 1)
                self._end_pitch(state, events, "FC", "IOB>INT", runs)
            else:
                new, runs = B.advance_all(bases, batter_to_first=True)
                self._settle(state, new, runs, 0)
                self._end_pitch(state, events, "IOB", "IOB", runs)
        elif root == "GDP":
            lead = B.lead_runner(bases)
            new, runs = B.advance_all(bases & ~lead)
            self._settle(state, new, runs, 2)
            self._end_pitch(state, events, "DP", "GDP")
        elif root == "GTP":
            self._settle(state, 0, 0, 3)
            self._end_pitch(state, events, "TP", "GTP")
        elif root == "GBH":
            self._settle(state, bases, 0, 1)
            self._end_pitch(state, events, "OUT", "GBH")
        elif root == "RHB":
            new, runs = B.remove_then_force(bases, B.BASE_BITS[chain[0]["runner"]])
            self._settle(state, new, runs, 1)
            self._end_pitch(state, events, "1B", "RHB", runs)
        elif root == "IFD":
            self._settle(state, bases & ~B.FIRST, 0, 2)
            self._end_pitch(state, events, "DP", "IFD")
        elif root in ("A3F", "AHF"):
            out = B.SECOND if root == "A3F" else B.THIRD
            new, runs = B.move(bases, B.OUT_TARGETS[code], out_runners=out)
            self._settle(state, new, runs, 2)
            self._end_pitch(state, events, "DP", root, runs if state.outs < 3 else 0)
        elif code == "GF":
            new, runs, outs = B.ground_force(bases)
            safe = bool(bases & B.FIRST)
            self._settle(state, new, runs, outs)
            self._end_pitch(state, events, "FC" if safe else "OUT", "GF")
        else:
            new, runs = B.move(bases, B.OUT_TARGETS[code])
            self._settle(state, new, runs, 1)
            scored = runs if state.outs < 3 else 0
            sacrifice = scored > 0 and code in ("F2", "F3", "FA")
            self._end_pitch(state, events, "SF" if sacrifice else "OUT", code, scored)

    def _resolve_hit(self, state: State, events: Events) -> None:
        play = state.play
        code: str = play["code"]
        if "mods" not in play and "call_challenge" not in play:
            # No card on the hit (most): the hit's table (``B.move`` below, no mods).
            bases, runs = _PLAIN_HITS[code][bool(play.get("hnr"))][state.bases]
            self._settle(state, bases, runs, 0)
            self._end_pitch(
                state, events, PA_HITS[code], "HT:" + code, runs if state.outs < 3 else 0
            )
            return
        mods = {m["code"]: m for m in play["mods"]} if "mods" in play else {}
        if play.get("call_challenge") == "reverse":  # pragma: no cover - settled at once
            return
        out_runners = 0
        outs = 0
        if "A3H" in mods:
            out_runners |= B.FIRST
            outs += 1
        if "AHH" in mods and not mods["AHH"]["reversed"]:
            out_runners |= B.SECOND
            outs += 1
        targets = B.HIT_TARGETS[code]
        if "A2" in mods:
            targets = (targets[0], targets[1], targets[2], 0)
            outs += 1
        extra = 1 if play.get("hnr") else 0
        bases, runs = B.move(state.bases, targets, out_runners=out_runners, extra=extra)
        if "1H1E" in mods:
            bases, more = B.advance_all(bases)
            runs += more
        self._settle(state, bases, runs, outs)
        result = "HT:" + code
        self._end_pitch(
            state, events, "1B" if "A2" in mods else PA_HITS[code], result,
            runs if state.outs < 3 else 0,
        )

    def _resolve_home_run(self, state: State, events: Events) -> None:
        bases, runs = B.move(state.bases, B.HIT_TARGETS["HR"])
        self._settle(state, bases, runs, 0)
        self._end_pitch(state, events, "HR", "HR", runs)
