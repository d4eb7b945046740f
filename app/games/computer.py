"""The computer opponent of solo play, and the server's human-like pauses.

A room whose options say ``"mode": "solo"`` seats the computer on the side opposite
``solo_side`` (default ``home``, so the computer pitches). The computer is no account and has no
seat row: it is a property of the game's options, so it survives a restart, never counts as a
person in presence, and a claim against its side is refused (it never leaves). It also stands
in for a side whose people all left a game (Board Game Arena's "zombie" player): when the other
side, instead of claiming the win, asks it to finish the game (``stand_in``), ``games.stand_in``
names that side from then on, and the game is rated as abandoned by it.

The computer moves through the one command path like anyone else: whenever its side has legal
actions the game gets a deadline ``{"timer": "computer"}`` ``computer_delay_ms`` after the
commit; the timer runner (any process, after a restart too) reads the game at that version,
asks the kind's policy for an action and submits it as actor ``computer`` with command id
``computer:<version>:<side>`` and the version it read. Only the process that wins the version
check applies it; the others get a duplicate or a stale version.

The policy's random ``pick(n)`` is draw ``16 * version + k`` (k = 0, 1, ... within one move) of
the HMAC stream of game id ``"<game_id>:computer"`` under the game's seed, so the computer's
mixing is as unpredictable as the dice during the game and can be recomputed after the seed is
revealed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from app.engines.dice import HmacDice
from app.engines.interface import (
    Action,
    ComputerPolicy,
    GameEngine,
    Pick,
    Side,
    other_side,
    parse_side,
)

COMPUTER_ACTOR = "computer"
"""The ``actor`` of the computer's commands (account ids are 16 hex digits: no clash)."""

PICKS_PER_MOVE = 16

log = logging.getLogger(__name__)


def computer_side(options: Mapping[str, Any] | None) -> Side | None:
    """The side the computer plays in a game with these options, or ``None`` (no computer)."""
    if not options or options.get("mode") != "solo":
        return None
    return other_side("away" if options.get("solo_side") == "away" else "home")


class WithComputer(Protocol):
    """A game row or a held game: what says who the computer plays."""

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def stand_in(self) -> str | None: ...


def playing_computer(game: WithComputer) -> Side | None:
    """The side the computer plays in ``game`` now: the solo side of its options, or the side
    it stood in for when that side's people left (``game.stand_in``)."""
    solo = computer_side(game.options)
    if solo is not None:
        return solo
    return parse_side(game.stand_in) if game.stand_in in ("home", "away") else None


def computer_pick(seed_hex: str, game_id: str, version: int) -> Pick:
    """The policy's random source for the move made from ``version`` (see the module doc)."""
    dice = HmacDice(bytes.fromhex(seed_hex), f"{game_id}:computer")
    used = 0

    def pick(n: int) -> int:
        nonlocal used
        if used >= PICKS_PER_MOVE:
            raise RuntimeError("the computer's policy asked for too many draws in one move")
        value = dice.below(PICKS_PER_MOVE * version + used, n)
        used += 1
        return value

    return pick


def computer_action(
    policy: ComputerPolicy | None, engine: GameEngine[Any], state: Any, side: Side, pick: Pick
) -> Action | None:
    """The computer's move for ``side``: the kind's policy (from the engine catalog), else the
    engine's timeout action (the same thing the timers would do).

    A policy that fails (a bug) falls back to the timeout action, so the game never stalls.
    """
    if not engine.legal_actions(state, side):
        return None
    if policy is not None:
        try:
            return policy(engine, state, side, pick)
        except Exception:
            log.exception("the %s computer policy failed; timing out instead", engine.name)
    return engine.timeout_action(state, side)


def pause_fraction(seed_hex: str, game_id: str, version: int) -> float:
    """A number in [0, 1) for the server's pause after ``version``: draw ``version`` of game id
    ``"<game_id>:pause"``, secret until the seed is revealed and independent of any hand."""
    return HmacDice(bytes.fromhex(seed_hex), f"{game_id}:pause").below(version, 1000) / 1000
