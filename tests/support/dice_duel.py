"""Dice Duel: a tiny but complete game behind the engine interface, for testing the server.

Per pitch: the defense secretly picks "high" or "low" (a hidden choice: only the defense sees
it until the reveal event), the offense guesses, then the offense rolls a d6. A right guess and
a roll of 3+ scores a run, anything else is an out. ``outs`` outs end a half; ``innings``
innings end the game (a tie stays a tie). Each side's view holds a secret string only that
side may ever see, so tests can scan every socket for leaks. Pick and guess time out to "low",
the roll times out to a roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engines.interface import (
    PITCH_EVENT,
    Action,
    DiceSource,
    Event,
    IllegalAction,
    InvalidOptions,
    InvalidState,
    Outcome,
    Side,
    other_side,
    views_one_by_one,
)

KIND = "dice-duel"
CHOICES = ("high", "low")


def secret_of(game_seed: str, side: str) -> str:
    return f"SECRET-{side}-{game_seed}"


class DiceDuel:
    name = KIND
    rules_version = "1"

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice

    def start(self, options: Mapping[str, Any]) -> tuple[dict[str, Any], list[Event]]:
        return self.new_game(options), []

    def new_game(self, options: Mapping[str, Any]) -> dict[str, Any]:
        innings = options.get("innings", 3)
        outs = options.get("outs", 2)
        if innings not in (3, 5, 7, 9):
            raise InvalidOptions("innings must be 3, 5, 7 or 9")
        if not isinstance(outs, int) or not 1 <= outs <= 3:
            raise InvalidOptions("outs must be 1, 2 or 3")
        tag = self.dice.below(0, 1_000_000)
        return {
            "innings": innings, "outs_per_half": outs, "inning": 1, "half": "top",
            "outs": 0, "runs": {"home": 0, "away": 0}, "phase": "pick", "pick": None,
            "guess": None, "batter": {"home": 0, "away": 0}, "next_draw": 1, "tag": tag,
            "over": False,
        }

    def _offense(self, state: Mapping[str, Any]) -> Side:
        return "away" if state["half"] == "top" else "home"

    def legal_actions(self, state: dict[str, Any], side: Side) -> list[Action]:
        if state["over"]:
            return []
        offense = self._offense(state)
        phase = state["phase"]
        if phase == "pick" and side == other_side(offense):
            return [{"side": side, "type": "pick", "choice": c} for c in CHOICES]
        if phase == "guess" and side == offense:
            return [{"side": side, "type": "guess", "choice": c} for c in CHOICES]
        if phase == "roll" and side == offense:
            return [{"side": side, "type": "roll"}]
        return []

    def apply(
        self, state: dict[str, Any], action: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[Event]]:
        side = action.get("side")
        if side not in ("home", "away") or dict(action) not in self.legal_actions(state, side):
            raise IllegalAction(f"{dict(action)!r} is not legal now")
        new = {**state, "runs": dict(state["runs"]), "batter": dict(state["batter"])}
        kind = action["type"]
        if kind == "pick":
            new["pick"], new["phase"] = action["choice"], "guess"
            return new, [Event("picked", {"side": side}, {side: {"choice": action["choice"]}})]
        if kind == "guess":
            new["guess"], new["phase"] = action["choice"], "roll"
            return new, [
                Event("guessed", {"side": side, "choice": action["choice"]}),
                Event("reveal", {"side": other_side(side), "choice": state["pick"]}),
            ]
        return self._roll(new)

    def _roll(self, new: dict[str, Any]) -> tuple[dict[str, Any], list[Event]]:
        offense = self._offense(new)
        face = self.dice.below(new["next_draw"], 6) + 1
        new["next_draw"] += 1
        scored = new["guess"] == new["pick"] and face >= 3
        new["batter"][offense] += 1
        record = {
            "inning": new["inning"], "half": new["half"], "offense": offense,
            "defense": other_side(offense), "batter": new["batter"][offense],
            "batter_card": None, "pitcher": None,
            "balls": 0, "strikes": 0, "outs": new["outs"], "bases": "000",
            "balls_after": 0, "strikes_after": 0,
            "outs_after": new["outs"] + (0 if scored else 1), "bases_after": "000",
            "dice": [{"die": "d6", "face": str(face)}],
            "result": "HR" if scored else "OUT", "pa_result": "HR" if scored else "OUT",
            "runs": 1 if scored else 0, "rbi": 1 if scored else 0, "cards": [],
            "challenge": None, "guess": new["guess"],
        }
        events = [Event("roll", {"side": offense, "face": face}), Event(PITCH_EVENT, record)]
        new["runs"][offense] += record["runs"]
        new["outs"] = record["outs_after"]
        new["pick"] = new["guess"] = None
        new["phase"] = "pick"
        if new["outs"] >= new["outs_per_half"]:
            new["outs"] = 0
            if new["half"] == "top":
                new["half"] = "bottom"
            elif new["inning"] >= new["innings"]:
                new["over"] = True
                events.append(Event("final", {"runs": dict(new["runs"])}))
            else:
                new["inning"] += 1
                new["half"] = "top"
        return new, events

    def views(
        self, state: dict[str, Any], legal: Mapping[Side, list[Action]] | None = None
    ) -> dict[Side | None, dict[str, Any]]:
        return views_one_by_one(self, state)

    def view(self, state: dict[str, Any], side: Side | None) -> dict[str, Any]:
        public = {k: v for k, v in state.items() if k not in ("pick", "tag")}
        public["picked"] = state["pick"] is not None
        if side is not None:
            public["secret"] = secret_of(str(state["tag"]), side)
            if side != self._offense(state):
                public["pick"] = state["pick"]
        return public

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if not state["over"]:
            return None
        runs = state["runs"]
        winner: Side | None = None
        if runs["home"] != runs["away"]:
            winner = "home" if runs["home"] > runs["away"] else "away"
        return Outcome(winner, dict(runs), "innings")

    def timeout_action(
        self, state: dict[str, Any], side: Side, legal: list[Action] | None = None
    ) -> Action | None:
        legal = self.legal_actions(state, side) if legal is None else legal
        if not legal:
            return None
        return legal[-1]  # "low" for pick and guess, the roll itself for a roll

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def from_json(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if "phase" not in data or "runs" not in data:
            raise InvalidState("not a dice duel state")
        return dict(data)
