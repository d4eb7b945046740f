"""The engine's part of one live command, timed in process with no server around it (issue 12).

The command path asks the same of the engine for every applied command
(``app.games.commands``): an engine for the game, the action's check, ``apply``, the result,
each side's legal actions and the deadlines (``_settle``), the new state's JSON for the write, and
for the broadcast the three viewers' views, each encoded once with the commit's events. This plays
``--games`` Base on Board games of random legal moves, the bench's load (three innings by default),
through exactly those calls, and prints the CPU time of each part per applied command.

Profilers could not say how much of a command this is: a deterministic one (cProfile, yappi)
charges a cost to every call, which falls hardest on the engine, the code that makes the most
small calls, and py-spy cannot unwind this stack (docs/benchmarks.md). Timed on its own, the
engine's part is the part of the command path that the bare server has no counterpart for and
that no socket count changes.

    .venv/bin/python bench/engine_commit.py --games 60
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engines.interface import SIDES, Side
from app.engines.registry import make_engine
from app.games import service
from app.games.fair_dice import RecordingDice
from app.realtime.connection import update_text

KIND = "base-on-board"
PARTS = ("engine", "check", "apply", "settle", "state_json", "views", "frames")
"""In the order the command path takes them: making the game's engine, the check of the action
against the legal actions the last commit computed (``CommandPath._legal``), ``apply``,
``_settle`` (result, both sides' legal actions, deadlines), the state's JSON as the write
encodes it, ``per_viewer``, each viewer's frame encoded."""


class Laps:
    """CPU time between marks, added up by part: ``mark()`` before a part, ``lap(part)`` after."""

    def __init__(self) -> None:
        self.spent = dict.fromkeys(PARTS, 0.0)
        self._at = time.process_time()

    def mark(self) -> None:
        self._at = time.process_time()

    def lap(self, part: str) -> None:
        now = time.process_time()
        self.spent[part] += now - self._at
        self._at = now


def play(games: int, innings: int, seed: int) -> tuple[int, dict[str, float]]:
    """Applied commands and CPU seconds of each part over ``games`` whole games."""
    laps = Laps()
    rng = random.Random(seed)
    commands = 0
    now = datetime.now(UTC)
    for number in range(games):
        game_id = f"bench-{seed}-{number}"
        game_seed = hashlib.sha256(game_id.encode()).hexdigest()  # the same games every run
        engine = make_engine(KIND, RecordingDice(game_seed, game_id))
        state, _ = engine.start({"innings": innings})
        legal: dict[str, list[dict[str, Any]]] | None = service.legal_by_side(engine, state)
        seq = 0
        while legal is not None:
            side = next(s for s in SIDES if legal[s])
            action = rng.choice(legal[side])
            laps.mark()
            engine = make_engine(KIND, RecordingDice(game_seed, game_id))
            laps.lap("engine")
            if action not in legal[side]:  # the check, against the last commit's legal actions
                raise AssertionError(action)
            laps.lap("check")
            state, events = engine.apply(state, action)
            laps.lap("apply")
            legal = None
            if engine.outcome(state) is None:
                legal = service.legal_by_side(engine, state)
                service.compute_deadlines(engine, state, {}, now, {}, legal_now=legal)
            laps.lap("settle")
            orjson.dumps(engine.to_json(state))
            laps.lap("state_json")
            views = service.per_viewer(engine, state, finished=legal is None, legal_now=legal)
            laps.lap("views")
            stored = service.stored_events(seq + 1, events)
            seq += len(stored)
            header = {"game_id": game_id, "seq": seq}
            laps.mark()
            for viewer in service.VIEWERS:
                viewer_side: Side | None = None if viewer == "spectator" else viewer  # type: ignore[assignment]
                update_text(game_id, stored, header, views[viewer], viewer_side)
            laps.lap("frames")
            commands += 1
    return commands, laps.spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--innings", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    commands, spent = play(args.games, args.innings, args.seed)
    per = {part: round(seconds / commands * 1e6, 1) for part, seconds in spent.items()}
    print(json.dumps({"games": args.games, "innings": args.innings, "commands": commands,
                      "us_per_command": per,
                      "us_per_command_total": round(sum(spent.values()) / commands * 1e6, 1)}))


if __name__ == "__main__":
    main()
