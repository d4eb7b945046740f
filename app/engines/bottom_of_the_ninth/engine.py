"""The Bottom of the 9th rule engine: one pitch at a time, pure and deterministic.

``apply`` copies the state and refuses anything not in ``legal_actions``; the simulator uses
:meth:`Engine.step_in_place` on actions it took from ``legal_actions`` itself, which skips the
copy and the legality check and is what makes thousands of games per second possible.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engines.bottom_of_the_ninth import rules
from app.engines.bottom_of_the_ninth.abilities import (
    Situation,
    abilities_by_ref,
    modified,
    race_threshold,
    rerolls,
    triggered,
    turned,
)
from app.engines.bottom_of_the_ninth.cards import (
    DIRECTIONS,
    LOCATIONS,
    POSITIONS,
    Ability,
    Card,
    CardSet,
    assign_positions,
    default_cards,
)
from app.engines.bottom_of_the_ninth.options import normalise
from app.engines.bottom_of_the_ninth.solo import Challenge, default_challenges
from app.engines.bottom_of_the_ninth.state import State, copy_json, state_from_json
from app.engines.dice import shuffled
from app.engines.interface import (
    JSON,
    PITCH_EVENT,
    Action,
    DiceSource,
    Event,
    IllegalAction,
    InvalidState,
    Outcome,
    Side,
    parse_side,
    views_one_by_one,
)

_TIMEOUT_TYPES = ("setup_random", "stare_random", "pitch_roll", "swing_roll", "race_roll")


class Engine:
    """``GameEngine[State]`` for Bottom of the 9th; home bats (one run wins), away pitches."""

    name = "bottom-of-the-9th"
    rules_version = "1"

    def __init__(self, dice: DiceSource, cards: CardSet | None = None) -> None:
        self.dice = dice
        self.cards = cards if cards is not None else default_cards()
        self.challenges = default_challenges()
        self._card_ids = frozenset(self.cards.cards)

    # ----------------------------------------------------------------- dice

    def _roll(self, state: State, n: int) -> int:
        value = self.dice.below(state.dice_index, n)
        state.dice_index += 1
        return value

    # ------------------------------------------------------------ new game

    def start(self, options: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """Set-up shows nothing the start state does not: no events of its own."""
        return self.new_game(options), []

    def new_game(self, options: Mapping[str, Any]) -> State:
        opts = normalise(options, self.cards, frozenset(self.challenges))
        state = State(opts)
        events: list[Event] = []
        setup = opts["setup"]
        if setup == "challenge":
            self._load_challenge(state, self.challenges[opts["challenge"]])
        elif setup == "given":
            state.lineup = list(opts["lineup"])
            state.positions = self._positions_for(state.lineup)
            state.starter, state.reliever = opts["starter"], opts["reliever"]
        elif setup == "random":
            self._random_lineup(state)
            self._random_pitchers(state)
        if setup != "choose":
            self._start_play(state, events)
        return state

    def _load_challenge(self, state: State, challenge: Challenge) -> None:
        state.lineup = list(challenge.lineup)
        state.positions = ["" for _ in challenge.lineup]
        state.starter = challenge.pitcher
        state.reliever = challenge.reliever
        state.bases = list(challenge.bases)
        state.outs, state.balls, state.strikes = challenge.outs, challenge.balls, challenge.strikes
        state.fatigue = list(challenge.fatigue)

    def _positions_for(self, lineup: list[str]) -> list[str]:
        """A position for each batter in order (first free one that still lets the rest fit)."""
        taken: list[str] = []
        cards = [self.cards[c] for c in lineup]
        for i, card in enumerate(cards):
            for pos in POSITIONS:
                if (
                    pos in card.fills()
                    and pos not in taken
                    and assign_positions(cards[i + 1 :], frozenset([*taken, pos]))
                ):
                    taken.append(pos)
                    break
        return taken

    def _start_play(self, state: State, events: list[Event]) -> None:
        starter = self.cards[str(state.starter)]
        state.pitcher = starter.id
        events.append(
            Event(
                "play_ball",
                {
                    "lineup": list(state.lineup),
                    "positions": list(state.positions),
                    "starter": state.starter,
                    "reliever": state.reliever,
                    "ace": [starter.ace_direction, starter.ace_location],
                },
            )
        )
        self._enter_stare(state, events)

    # -------------------------------------------------------------- set-up

    def _batter_picks(self, state: State) -> list[tuple[str, str]]:
        if len(state.lineup) >= 6:
            return []
        taken = frozenset(state.positions)
        free = [c for c in self.cards.batters if c not in state.lineup]
        picks: list[tuple[str, str]] = []
        need = 6 - len(state.lineup) - 1
        for card_id in free:
            card = self.cards[card_id]
            for pos in POSITIONS:
                if pos in card.fills() and pos not in taken:
                    rest = [self.cards[c] for c in free if c != card_id]
                    if self._can_complete(rest, taken | {pos}, need):
                        picks.append((card_id, pos))
        return picks

    @staticmethod
    def _can_complete(rest: list[Card], taken: frozenset[str], need: int) -> bool:
        if need == 0:
            return True
        for i, card in enumerate(rest):
            for pos in sorted(card.fills() - taken):
                if Engine._can_complete(rest[i + 1 :], taken | {pos}, need - 1):
                    return True
        return False

    def _pitcher_picks(self, state: State) -> list[tuple[str, str]]:
        if state.starter is None:
            return [("starter", p) for p in self.cards.pitchers if self.cards[p].may_start()]
        if state.reliever is None:
            return [
                ("reliever", p)
                for p in self.cards.pitchers
                if p != state.starter and self.cards[p].may_relieve()
            ]
        return []

    def _random_lineup(self, state: State) -> None:
        """Shuffle, then take each card that still lets the picked cards hold distinct
        positions. For a set where every position has a card of its own (ours) this always
        completes; otherwise the exact, slower search of the legal picks finishes the job."""
        remaining = [c for c in self.cards.batters if c not in state.lineup]
        order, state.dice_index = shuffled(remaining, self.dice, state.dice_index)
        picked = [self.cards[c] for c in state.lineup]
        fixed = len(state.lineup)
        for card_id in order:
            if len(picked) >= 6:
                break
            card = self.cards[card_id]
            if assign_positions([*picked, card]):
                picked.append(card)
        if len(picked) == 6:
            ids = [c.id for c in picked]
            state.positions = state.positions[:fixed] + self._positions_for(ids)[fixed:]
            if assign_positions([self.cards[c] for c in ids]) and len(set(state.positions)) == 6:
                state.lineup = ids
                return
            state.positions = state.positions[:fixed]
        for card_id in order:
            if len(state.lineup) >= 6:
                break
            for pick, pos in self._batter_picks(state):
                if pick == card_id:
                    state.lineup.append(card_id)
                    state.positions.append(pos)
                    break

    def _random_pitchers(self, state: State) -> None:
        """One shuffle; the starter is the first card that may start, the reliever the first
        other card that may relieve (two passes, so no second shuffle is ever needed)."""
        order, state.dice_index = shuffled(list(self.cards.pitchers), self.dice, state.dice_index)
        for _ in range(2):
            for card_id in order:
                picks = self._pitcher_picks(state)
                if not picks:
                    return
                for role, pick in picks:
                    if pick == card_id:
                        if role == "starter":
                            state.starter = card_id
                        else:
                            state.reliever = card_id
                        break

    def _setup_done(self, state: State) -> bool:
        return len(state.lineup) == 6 and state.reliever is not None

    # ------------------------------------------------------- legal actions

    def legal_actions(self, state: State, side: Side) -> list[Action]:
        phase = state.phase
        if phase == "stare":
            if (state.home_choice if side == "home" else state.away_choice) is not None:
                return []
            actions: list[Action] = [
                {"side": side, "type": "stare", "direction": d, "location": loc}
                for d, loc in self._stare_options(state, side)
            ]
            actions.append({"side": side, "type": "stare_random"})
            return actions
        if phase == "pitch":
            return [{"side": "away", "type": "pitch_roll"}] if side == "away" else []
        if phase == "swing":
            return [{"side": "home", "type": "swing_roll"}] if side == "home" else []
        if phase == "race":
            return self._race_actions(state, side)
        if phase == "cleanup":
            return self._cleanup_actions(state) if side == "away" else []
        if phase == "setup":
            if side == "home":
                picks = self._batter_picks(state)
                found: list[Action] = [
                    {"side": "home", "type": "pick_batter", "card": c, "position": p}
                    for c, p in picks
                ]
            else:
                found = [
                    {"side": "away", "type": "pick_pitcher", "role": r, "card": c}
                    for r, c in self._pitcher_picks(state)
                ]
            if found:
                found.append({"side": side, "type": "setup_random"})
            return found
        return []

    def pitch_options(self, state: State) -> list[tuple[str, str]]:
        """The pitches the pitcher may throw now (a part whose token is on the bottom is out)."""
        return self._stare_options(state, "away")

    def _stare_options(self, state: State, side: Side) -> list[tuple[str, str]]:
        if side == "home":
            return [(d, loc) for d in DIRECTIONS for loc in LOCATIONS]
        pitcher = self.cards[str(state.pitcher)]
        directions = [
            d for d in DIRECTIONS if not (state.fatigue[0] >= 3 and d == pitcher.ace_direction)
        ]
        locations = [
            loc for loc in LOCATIONS if not (state.fatigue[1] >= 3 and loc == pitcher.ace_location)
        ]
        return [(d, loc) for d in directions for loc in locations]

    def _race_actions(self, state: State, side: Side) -> list[Action]:
        stage = state.race_stage
        if stage == "unopposed_home" or stage == "unopposed_away":
            owner = "home" if stage == "unopposed_home" else "away"
            return [{"side": side, "type": "race_roll"}] if side == owner else []
        if stage == "closing":
            if side == "home":
                return [
                    {"side": "home", "type": "race_roll"},
                    {"side": "home", "type": "close_race"},
                ]
            return []
        if state.options["race"] == "turns" and state.race_turn != side:
            return []
        return [{"side": side, "type": "race_roll"}]

    def _recover_splits(self, state: State) -> list[tuple[int, int]]:
        empty = rules.empty_bases(state.bases)
        room_d = state.fatigue[0] - state.ceiling
        room_l = state.fatigue[1] - state.ceiling
        total = min(empty, room_d + room_l)
        splits = [(a, total - a) for a in range(total + 1) if a <= room_d and total - a <= room_l]
        splits.sort(key=lambda s: (abs(s[0] - s[1]), -s[0]))
        return splits

    def _cleanup_actions(self, state: State) -> list[Action]:
        actions: list[Action] = [
            {"side": "away", "type": "recover", "direction": a, "location": b}
            for a, b in self._recover_splits(state)
        ]
        if state.reliever is not None and not state.benched:
            actions.append({"side": "away", "type": "bench"})
        return actions

    # --------------------------------------------------------------- apply

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        if not isinstance(action, Mapping):
            raise IllegalAction("an action must be an object")
        side = parse_side(action.get("side"))
        wanted = dict(action)
        if wanted not in self.legal_actions(state, side):
            raise IllegalAction(f"not a legal action now: {wanted!r}")
        new = state.copy()
        return new, self.step_in_place(new, wanted)

    def step_in_place(self, state: State, action: Mapping[str, Any]) -> list[Event]:
        """Applies an action already known to be legal, changing ``state`` itself."""
        events: list[Event] = []
        kind = action["type"]
        side: Side = action["side"]
        if kind == "stare":
            self._stare(state, side, action["direction"], action["location"], events)
        elif kind == "stare_random":
            options = self._stare_options(state, side)
            d, loc = options[self._roll(state, len(options))]
            self._stare(state, side, d, loc, events)
        elif kind == "pitch_roll":
            self._pitch_roll(state, events)
        elif kind == "swing_roll":
            self._swing_roll(state, events)
        elif kind == "race_roll":
            self._race_roll(state, side, events)
        elif kind == "close_race":
            events.append(Event("race_closed", {"winner": "away"}))
            self._end_race(state, "away", events)
        elif kind == "recover":
            self._recover(state, action["direction"], action["location"], events)
        elif kind == "bench":
            self._bench(state, events)
        elif kind == "pick_batter":
            state.lineup.append(action["card"])
            state.positions.append(action["position"])
            events.append(
                Event(
                    "pick", {"side": side, "card": action["card"], "position": action["position"]}
                )
            )
            self._maybe_start(state, events)
        elif kind == "pick_pitcher":
            if action["role"] == "starter":
                state.starter = action["card"]
            else:
                state.reliever = action["card"]
            events.append(
                Event("pick", {"side": side, "card": action["card"], "role": action["role"]})
            )
            self._maybe_start(state, events)
        elif kind == "setup_random":
            if side == "home":
                self._random_lineup(state)
            else:
                self._random_pitchers(state)
            events.append(Event("pick_random", {"side": side}))
            self._maybe_start(state, events)
        else:
            raise IllegalAction(f"unknown action type {kind!r}")
        return events

    def _maybe_start(self, state: State, events: list[Event]) -> None:
        if self._setup_done(state):
            self._start_play(state, events)

    # ---------------------------------------------------------- stare-down

    def _enter_stare(self, state: State, events: list[Event]) -> None:
        state.phase = "stare"
        state.home_choice = None
        state.away_choice = None
        state.active = []
        state.record = None
        state.race_stage = ""
        state.race_turn = ""
        forced = self._stare_options(state, "away")
        if len(forced) == 1:
            # Both tokens spent: the pitch is known to all, so it is chosen without a wait.
            self._stare(state, "away", forced[0][0], forced[0][1], events)

    def _stare(self, state: State, side: Side, d: str, loc: str, events: list[Event]) -> None:
        if side == "home":
            state.home_choice = [d, loc]
        else:
            state.away_choice = [d, loc]
        events.append(
            Event("stare_chosen", {"side": side}, {side: {"direction": d, "location": loc}})
        )
        if state.home_choice is not None and state.away_choice is not None:
            self._reveal(state, events)

    def _reveal(self, state: State, events: list[Event]) -> None:
        pitch = (state.away_choice or ["", ""])[0], (state.away_choice or ["", ""])[1]
        guess = (state.home_choice or ["", ""])[0], (state.home_choice or ["", ""])[1]
        batter = self.cards[state.lineup[state.batter_index]]
        pitcher = self.cards[str(state.pitcher)]
        batter_on, pitcher_on, dir_read, loc_read, ace = triggered(batter, pitcher, pitch, guess)
        state.active = [[a.card, a.index] for a in pitcher_on + batter_on]
        if pitch[0] == pitcher.ace_direction:
            state.fatigue[0] = min(rules.FATIGUE_BOTTOM, state.fatigue[0] + 1)
        if pitch[1] == pitcher.ace_location:
            state.fatigue[1] = min(rules.FATIGUE_BOTTOM, state.fatigue[1] + 1)
        reveal = {
            "pitch": {"direction": pitch[0], "location": pitch[1]},
            "guess": {"direction": guess[0], "location": guess[1]},
            "direction_read": dir_read,
            "location_read": loc_read,
            "mvp": dir_read and loc_read,
            "ace": ace,
            "fatigue": list(state.fatigue),
        }
        state.last_reveal = reveal
        state.home_choice = None
        state.away_choice = None
        state.record = {
            "balls": state.balls,
            "strikes": state.strikes,
            "outs": state.outs,
            "bases": rules.bases_code(state.bases),
            "dice": [],
            "abilities": [],
            "stare": reveal,
        }
        state.phase = "pitch"
        events.append(Event("reveal", copy_json(reveal)))

    # ------------------------------------------------------- pitch & swing

    def _situation(self, state: State, swing: int | None) -> Situation:
        return Situation(
            state.pitch_face,
            state.control,
            swing,
            state.balls,
            state.strikes,
            state.outs,
            not (state.bases[0] or state.bases[1] or state.bases[2]),
        )

    def _split_active(self, state: State) -> tuple[list[Ability], list[Ability]]:
        """(pitcher's, batter's) active abilities, in card order."""
        active = abilities_by_ref(self.cards, state.active)
        pitcher_id = state.pitcher
        mine = [a for a in active if a.card == pitcher_id]
        theirs = [a for a in active if a.card != pitcher_id]
        return mine, theirs

    def _fired(self, state: State, fired: list[Ability]) -> None:
        record = state.record
        assert record is not None
        for ability in fired:
            record["abilities"].append(
                {
                    "card": ability.card,
                    "index": ability.index,
                    "kind": ability.kind,
                    "side": "away" if ability.card == state.pitcher else "home",
                }
            )

    def _pitch_roll(self, state: State, events: list[Event]) -> None:
        record = state.record
        assert record is not None
        dice = record["dice"]
        state.control = self._roll(state, 6) + 1
        state.pitch_face = rules.PITCH_DIE[self._roll(state, 6)]
        dice.append({"die": "control", "face": str(state.control)})
        dice.append({"die": "pitch", "face": state.pitch_face})
        pitcher_on, batter_on = self._split_active(state)
        order = pitcher_on + batter_on
        fired: list[Ability] = []
        if any(a.kind == "reroll" for a in order):
            situation = self._situation(state, None)

            def roll_pitch() -> str:
                face = rules.PITCH_DIE[self._roll(state, 6)]
                dice.append({"die": "pitch", "face": face, "reroll": True})
                return face

            def roll_control() -> int:
                face = self._roll(state, 6) + 1
                dice.append({"die": "control", "face": str(face), "reroll": True})
                return face

            face = rerolls("pitch", order, situation, roll_pitch, fired)
            if face is not None:
                state.pitch_face = str(face)
            control = rerolls("control", order, situation, roll_control, fired)
            if control is not None:
                state.control = int(control)
            self._fired(state, fired)
        state.phase = "swing"
        events.append(
            Event(
                "pitch_roll",
                {
                    "control": state.control,
                    "pitch": state.pitch_face,
                    "rerolls": [[a.card, a.index] for a in fired],
                },
            )
        )

    def _swing_roll(self, state: State, events: list[Event]) -> None:
        record = state.record
        assert record is not None
        dice = record["dice"]
        swing = self._roll(state, 6) + 1
        dice.append({"die": "swing", "face": str(swing)})
        pitcher_on, batter_on = self._split_active(state)
        fired: list[Ability] = []
        situation = self._situation(state, swing)
        if pitcher_on or batter_on:

            def roll_swing() -> int:
                face = self._roll(state, 6) + 1
                dice.append({"die": "swing", "face": str(face), "reroll": True})
                return face

            again = rerolls("swing", batter_on + pitcher_on, situation, roll_swing, fired)
            if again is not None:
                swing = int(again)
        record["swing"] = swing
        if swing == 6:
            self._fired(state, fired)
            bonus = self._roll(state, 6) + 1
            dice.append({"die": "crush", "face": str(bonus)})
            record["crush_bonus"] = bonus
            outcome = rules.CRUSH_BONUS[bonus]
            crushed = "CR:X" if outcome == "contact" else "CR:" + outcome
            events.append(Event("swing_roll", {"swing": 6, "crush": bonus, "result": crushed}))
            record["result"] = crushed
            if outcome == "contact":
                self._start_race(state, events)
                return
            bases_to = {"1B": 1, "2B": 2, "HR": 4}[outcome]
            runs = rules.advance(state.bases, bases_to)
            self._finish_pitch(state, outcome, runs, events)
            return
        control = state.control
        order = pitcher_on + batter_on
        if order:
            control = modified("control", state.control, order, situation, fired)
            swing = modified("swing", swing, order, situation, fired)
        result = rules.compare(state.pitch_face, control, swing)
        if order:
            result = turned(result, order, situation, fired)
        self._fired(state, fired)
        record["control_modified"] = control
        record["swing_modified"] = swing
        events.append(
            Event("swing_roll", {"swing": record["swing"], "control": control, "result": result})
        )
        if result == "contact":
            record["result"] = "X"
            self._start_race(state, events)
            return
        pa_result: str | None = None
        runs = 0
        if result == "ball":
            record["result"] = "B"
            state.balls += 1
            if state.balls == 4:
                runs = rules.walk(state.bases)
                pa_result = "BB"
        elif result == "strike":
            record["result"] = "S"
            state.strikes += 1
            if state.strikes == 3:
                state.outs += 1
                state.strikeouts += 1
                pa_result = "K"
        else:
            record["result"] = "F"
            if state.strikes < 2:
                state.strikes += 1
        self._finish_pitch(state, pa_result, runs, events)

    # ----------------------------------------------------------- the race

    def _start_race(self, state: State, events: list[Event]) -> None:
        batter = self.cards[state.lineup[state.batter_index]]
        pitcher = self.cards[str(state.pitcher)]
        state.phase = "race"
        state.race_turn = "home"
        if batter.has_trait("unopposed"):
            state.race_stage = "unopposed_home"
        elif pitcher.has_trait("unopposed"):
            state.race_stage = "unopposed_away"
        else:
            state.race_stage = "open"
        traits = [t for t in (batter.trait("speed"), pitcher.trait("defense")) if t is not None]
        self._fired(state, traits)
        assert state.record is not None
        state.record["race"] = {"rolls": [], "winner": None}
        events.append(
            Event(
                "race_start",
                {
                    "batter_needs": race_threshold(batter, "speed"),
                    "pitcher_needs": race_threshold(pitcher, "defense"),
                    "stage": state.race_stage,
                    "mode": state.options["race"],
                    "window_ms": state.options["race_window_ms"],
                    "max_rolls_per_sec": state.options["race_max_rolls_per_sec"],
                },
            )
        )

    def _race_roll(self, state: State, side: Side, events: list[Event]) -> None:
        batter = self.cards[state.lineup[state.batter_index]]
        pitcher = self.cards[str(state.pitcher)]
        face = self._roll(state, 6) + 1
        stage = state.race_stage
        needs = (
            race_threshold(batter, "speed")
            if side == "home"
            else race_threshold(pitcher, "defense")
        )
        decisive = face >= needs
        record = state.record
        assert record is not None
        record["dice"].append({"die": f"race_{side}", "face": str(face)})
        record["race"]["rolls"].append([side, face, stage])
        events.append(
            Event("race_roll", {"side": side, "face": face, "decisive": decisive, "stage": stage})
        )
        if stage in ("unopposed_home", "unopposed_away"):
            card = batter if side == "home" else pitcher
            unopposed = card.trait("unopposed")
            if unopposed is not None:
                self._fired(state, [unopposed])
            if decisive:
                self._end_race(state, side, events)
            elif stage == "unopposed_home" and pitcher.has_trait("unopposed"):
                state.race_stage = "unopposed_away"
            else:
                state.race_stage = "open"
                state.race_turn = "home"
            return
        if side == "home":
            if decisive:
                self._end_race(state, "home", events)
            else:
                state.race_turn = "away"
            return
        if not decisive:
            state.race_turn = "home"
        elif state.options["race"] == "turns":
            self._end_race(state, "away", events)
        else:
            # A decisive pitcher roll only closes the race: a batter roll arriving inside the
            # fairness window still ties it, and ties are the batter's.
            state.race_stage = "closing"
            events.append(Event("race_closing", {"window_ms": state.options["race_window_ms"]}))

    def _end_race(self, state: State, winner: Side, events: list[Event]) -> None:
        record = state.record
        assert record is not None
        record["race"]["winner"] = winner
        state.race_stage = ""
        state.race_turn = ""
        events.append(Event("race_end", {"winner": winner}))
        if winner == "home":
            runs = rules.advance(state.bases, 1)
            self._finish_pitch(state, "RS", runs, events)
        else:
            state.outs += 1
            self._finish_pitch(state, "RO", 0, events)

    # ------------------------------------------------- end of pitch and PA

    def _finish_pitch(
        self, state: State, pa_result: str | None, runs: int, events: list[Event]
    ) -> None:
        record = state.record
        assert record is not None
        state.runs += runs
        state.pitches += 1
        batter_card = state.lineup[state.batter_index]
        seen: list[dict[str, str]] = []
        for entry in record["abilities"]:
            item = {"side": entry["side"], "code": entry["card"]}
            if item not in seen:
                seen.append(item)
        if pa_result is not None:
            after_balls, after_strikes = 0, 0
        else:
            after_balls, after_strikes = state.balls, state.strikes
        data: JSON = {
            "inning": 9,
            "half": "bottom",
            "offense": "home",
            "defense": "away",
            "batter": state.plate_appearances + 1,
            "batter_card": batter_card,
            "pitcher": state.pitcher,
            "balls": record["balls"],
            "strikes": record["strikes"],
            "outs": record["outs"],
            "bases": record["bases"],
            "balls_after": after_balls,
            "strikes_after": after_strikes,
            "outs_after": state.outs,
            "bases_after": rules.bases_code(state.bases),
            "dice": record["dice"],
            "result": record["result"],
            "pa_result": pa_result,
            "runs": runs,
            "rbi": runs if pa_result in ("BB", "1B", "2B", "HR", "RS") else 0,
            "cards": seen,
            "challenge": None,
            "stare": record["stare"],
            "abilities": record["abilities"],
            "swing": record.get("swing"),
            "control_modified": record.get("control_modified"),
            "swing_modified": record.get("swing_modified"),
            "crush_bonus": record.get("crush_bonus"),
            "race": record.get("race"),
        }
        events.append(Event(PITCH_EVENT, data))
        state.record = None
        if pa_result is None:
            self._enter_stare(state, events)
        else:
            self._end_plate_appearance(state, events)

    def _end_plate_appearance(self, state: State, events: list[Event]) -> None:
        state.plate_appearances += 1
        state.balls = 0
        state.strikes = 0
        state.active = []
        if state.runs > 0:
            self._game_over(state, "home", "walk-off", events)
            return
        if state.outs >= 3:
            self._game_over(state, "away", "three outs", events)
            return
        state.batter_index += 1
        if state.batter_index >= len(state.lineup):
            self._game_over(state, "away", "lineup exhausted", events)
            return
        events.append(
            Event(
                "next_batter",
                {"card": state.lineup[state.batter_index], "number": state.batter_index + 1},
            )
        )
        state.phase = "cleanup"
        actions = self._cleanup_actions(state)
        if len(actions) == 1:
            self._cleanup_auto(state, actions[0], events)

    def _cleanup_auto(self, state: State, action: Action, events: list[Event]) -> None:
        """Clean-up with one possible choice goes on by itself, as at the table."""
        if action["type"] == "bench":
            self._bench(state, events)
        else:
            self._recover(state, action["direction"], action["location"], events)

    def _recover(self, state: State, d: int, loc: int, events: list[Event]) -> None:
        state.fatigue[0] -= d
        state.fatigue[1] -= loc
        events.append(
            Event("relief", {"direction": d, "location": loc, "fatigue": list(state.fatigue)})
        )
        self._enter_stare(state, events)

    def _bench(self, state: State, events: list[Event]) -> None:
        out = state.pitcher
        state.pitcher = state.reliever
        state.benched = True
        state.fatigue = [rules.RELIEF_CEILING, rules.RELIEF_CEILING]
        state.ceiling = rules.RELIEF_CEILING
        reliever = self.cards[str(state.pitcher)]
        events.append(
            Event(
                "bench",
                {
                    "out": out,
                    "in": state.pitcher,
                    "ace": [reliever.ace_direction, reliever.ace_location],
                    "fatigue": list(state.fatigue),
                },
            )
        )
        self._enter_stare(state, events)

    def _game_over(self, state: State, winner: Side, reason: str, events: list[Event]) -> None:
        state.phase = "over"
        state.winner = winner
        state.reason = reason
        events.append(
            Event(
                "game_over",
                {"winner": winner, "reason": reason, "runs": state.runs, "outs": state.outs},
            )
        )

    # ------------------------------------------------------ view & outcome

    def views(
        self, state: State, legal: Mapping[Side, list[Action]] | None = None
    ) -> dict[Side | None, JSON]:
        """Each view is built whole: a side's differs from the others' inside the stare and
        in ``viewer``, and none holds legal actions."""
        return views_one_by_one(self, state)

    def view(self, state: State, side: Side | None) -> JSON:
        stare: JSON = {}
        for s, choice in (("home", state.home_choice), ("away", state.away_choice)):
            entry: JSON = {"chosen": choice is not None}
            if side == s and choice is not None:
                entry["direction"], entry["location"] = choice[0], choice[1]
            stare[s] = entry
        pitcher = self.cards[state.pitcher] if state.pitcher else None
        view: JSON = {
            "game": self.name,
            "viewer": side,
            "options": copy_json(state.options),
            "phase": state.phase,
            "lineup": list(state.lineup),
            "positions": list(state.positions),
            "batter_index": state.batter_index,
            "batter": state.lineup[state.batter_index]
            if state.batter_index < len(state.lineup)
            else None,
            "starter": state.starter,
            "reliever": state.reliever,
            "pitcher": state.pitcher,
            "ace": [pitcher.ace_direction, pitcher.ace_location] if pitcher else None,
            "benched": state.benched,
            "fatigue": list(state.fatigue),
            "fatigue_ceiling": state.ceiling,
            "balls": state.balls,
            "strikes": state.strikes,
            "outs": state.outs,
            "bases": rules.bases_code(state.bases),
            "runs": state.runs,
            "stare": stare,
            "last_reveal": copy_json(state.last_reveal),
            "active": [list(a) for a in state.active],
            "pitch_dice": {"control": state.control, "pitch": state.pitch_face}
            if state.phase in ("swing", "race")
            else None,
            "race": {"stage": state.race_stage, "turn": state.race_turn}
            if state.phase == "race"
            else None,
            "pitches": state.pitches,
            "plate_appearances": state.plate_appearances,
            "winner": state.winner,
            "reason": state.reason,
        }
        if side is not None:
            view["legal_actions"] = self.legal_actions(state, side)
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        winner: Side = "home" if state.winner == "home" else "away"
        return Outcome(winner, {"home": state.runs, "away": state.outs}, state.reason)

    def timeout_action(
        self, state: State, side: Side, legal: list[Action] | None = None
    ) -> Action | None:
        """The default the server applies when ``side``'s timer runs out.

        Hidden or card choices become a dice-drawn pick (``stare_random`` / ``setup_random``),
        so a timeout neither leaks nor favours a choice; rolls are rolled; an open closing
        window is closed; a clean-up takes the most even recovery.
        """
        actions = self.legal_actions(state, side) if legal is None else legal
        if not actions:
            return None
        if state.phase == "race" and state.race_stage == "closing":
            return {"side": "home", "type": "close_race"}
        for action in actions:
            if action["type"] in _TIMEOUT_TYPES:
                return action
        return actions[0]

    # ---------------------------------------------------------------- JSON

    def to_json(self, state: State) -> JSON:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> State:
        try:
            state = state_from_json(data, self._card_ids)
            options = dict(state.options)
            raw = {k: v for k, v in options.items() if v is not None}
            if raw.get("setup") == "challenge":
                raw.pop("setup")
            if raw.get("mode") == "versus":
                raw.pop("solo_side", None)
                raw.pop("challenge", None)
            if normalise(raw, self.cards, frozenset(self.challenges)) != options:
                raise InvalidState("state options are not a normalised option set")
        except InvalidState:
            raise
        except Exception as error:
            raise InvalidState(f"not a Bottom of the 9th state: {error}") from error
        return state
