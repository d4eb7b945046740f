"""Games played through the whole public interface, reduced to one digest each.

``game_digest`` plays a game with random legal choices and hashes everything the engine shows
the world at every step: the dice draws asked for (index and ``n``), the legal actions of both
sides (content and order), the events (type, data, private, in order), the views of home, away
and a spectator (hand notes included), ``to_json``, ``outcome`` and ``timeout_action``, the
refusal of an illegal action, and games continued from a ``from_json`` round trip. The digests
in ``test_golden.py`` were computed with the engine before it was made fast (commit 90146ef);
the fast engine must reproduce them byte for byte.

The module only uses the public interface, so the same file runs against any version of the
engine (put that tree first on ``PYTHONPATH``).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from app.engines.base_on_board import Engine
from app.engines.dice import HmacDice, SeededDice
from app.engines.interface import EngineError, Event

POLICIES = ("uniform", "eager", "mixed", "passive")


class LoggedDice:
    """Passes draws through and records each (index, n) asked for."""

    def __init__(self, inner: Any, log: list[tuple[int, int]]) -> None:
        self.inner = inner
        self.log = log

    def below(self, index: int, n: int) -> int:
        self.log.append((index, n))
        value: int = self.inner.below(index, n)
        return value


def _dump(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), default=repr).encode()


def _events(events: list[Event]) -> Any:
    return [[e.type, e.data, e.private] for e in events]


def _choose(rng: random.Random, policy: str, actions: list[Any]) -> Any:
    if policy == "uniform":
        return rng.choice(actions)
    eager = [a for a in actions if a["type"] in ("play", "challenge", "ifl", "choose")]
    if policy == "eager":
        return rng.choice(eager) if eager else actions[0]
    if policy == "passive":
        plain = [a for a in actions if a["type"] in ("pass", "roll")]
        return plain[0] if plain else actions[0]
    if eager and rng.random() < 0.6:
        return rng.choice(eager)
    return rng.choice(actions)


def game_digest(
    seed: int, options: dict[str, Any], policy: str, hmac: bool = False, views: bool = True,
    max_steps: int = 100_000,
) -> str:
    """Plays one game and returns the sha256 of everything it showed."""
    h = hashlib.sha256()
    log: list[tuple[int, int]] = []
    inner: Any = HmacDice(b"golden-%d" % seed, f"g{seed}") if hmac else SeededDice(seed)
    engine = Engine(LoggedDice(inner, log))
    rng = random.Random(seed * 7919 + 1)
    h.update(_dump(engine.rules_version))
    state, events = engine.start(options)
    h.update(_dump(_events(events)))
    steps = 0
    while True:
        h.update(_dump(log))
        log.clear()
        legal = {side: engine.legal_actions(state, side) for side in ("home", "away")}
        h.update(_dump(legal))
        if views:
            for viewer in ("home", "away", None):
                h.update(_dump(engine.view(state, viewer)))  # type: ignore[arg-type]
            for side in ("home", "away"):
                h.update(_dump(engine.hand_notes(state, side, legal[side])))
                h.update(_dump(engine.timeout_action(state, side)))
        h.update(_dump(engine.to_json(state)))
        outcome = engine.outcome(state)
        h.update(_dump(outcome.to_json() if outcome is not None else None))
        if state.result is not None or steps >= max_steps:
            break
        side = state.queue[0][0]
        actions = legal[side]
        action = _choose(rng, policy, actions)
        steps += 1
        if steps % 17 == 0:
            # An illegal action is refused with a typed error and changes nothing.
            before = _dump(engine.to_json(state))
            other = "home" if side == "away" else "away"
            for bad in ({"side": other, "type": "pass"}, {**action, "junk": 1},
                        {"side": side, "type": "play", "card": "XX"}):
                try:
                    engine.apply(state, bad)
                    h.update(b"accepted")
                except EngineError as exc:
                    h.update(_dump([type(exc).__name__, exc.code, str(exc)]))
            assert _dump(engine.to_json(state)) == before
        if steps % 5 == 0:
            state, events = engine.apply(state, action)
        else:
            events = engine.step_in_place(state, action)
        h.update(_dump(action))
        h.update(_dump(_events(events)))
        if steps % 23 == 0:
            state = engine.from_json(json.loads(json.dumps(engine.to_json(state))))
    return h.hexdigest()


def cases(count: int) -> list[tuple[int, dict[str, Any], str, bool]]:
    """``count`` varied games: tiers, innings, options, policies and both dice sources."""
    rng = random.Random(20261201)
    out = []
    for seed in range(count):
        options = {
            "tier": ("lite", "lite-extended", "pro")[seed % 3],
            "innings": rng.choice((3, 5, 7, 9)),
            "challenges": rng.choice((0, 1, 1, 2, 5)),
            "bats_first": rng.choice(("home", "away")),
            "fast_play": rng.random() < 0.5,
            "extra_innings": rng.choice((0, 1, 3, 9)),
        }
        out.append((seed, options, POLICIES[(seed // 3) % len(POLICIES)], seed % 7 == 3))
    return out


def digests(count: int, views: bool = True) -> list[str]:
    return [game_digest(s, o, p, hmac=h, views=views) for s, o, p, h in cases(count)]


if __name__ == "__main__":  # pragma: no cover - used to compare trees by hand
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    for seed, options, policy, hm in cases(start + n)[start:]:
        digest = game_digest(seed, options, policy, hmac=hm)
        print(seed, policy, hm, json.dumps(options, sort_keys=True), digest)
