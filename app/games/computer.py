"""The computer opponent, and the server's human-like pauses.

A room may seat the computer on one side (``rooms.computer``, copied to each of its games as
``games.computer``: ``{"side", "level", "think_ms"}``): for Base on Board by choosing it and
its level when the room is made; for Bottom of the 9th by the rulebook's solo mode (``"mode":
"solo"``, the computer on the side opposite ``solo_side``, default ``home``, so the computer
pitches). The computer is no account and has no seat row, so it survives a restart, never
counts as a person in presence, and a claim against its side is refused (it never leaves). It
also stands in for a side whose people all left a game (Board Game Arena's "zombie" player):
when the other side, instead of claiming the win, asks it to finish the game (``stand_in``),
``games.stand_in`` names that side from then on, and the game is rated as abandoned by it.

The computer moves through the one command path like anyone else: whenever its side has legal
actions the game gets a deadline ``{"timer": "computer"}`` ``computer_delay_ms`` after the
commit; the timer runner (any process, after a restart too) reads the game at that version,
asks the kind's policy at the seat's level for an action (in a worker thread: a hard level
thinks for a while) and submits it as actor ``computer`` with command id
``computer:<version>:<side>`` and the version it read. Only the process that wins the version
check applies it; the others get a duplicate or a stale version.

A level that thinks for a time (Base on Board's ``hard``, ``EngineCatalog.thinks``) searches
for the seat's ``think_ms`` (default 500, 100-5000; a seat stored without it gets the default),
timed from when its worker thread starts, by a stop check built on ``time.monotonic``. The
pause includes the thinking: its deadline comes ``max(0, computer_delay_ms - think_ms)`` after
the commit, so its move lands about ``max(computer_delay_ms, think_ms)`` after it (a little
more when other games' computers are thinking: one thinks at a time per process). A timed
choice depends on how far the search got, so unlike the pick it cannot be recomputed exactly
from the seed (the record keeps the action, which is what a replay needs).

The policy's random ``pick(n)`` is draw ``16 * version + k`` (k = 0, 1, ... within one move) of
the HMAC stream of game id ``"<game_id>:computer"`` under the game's seed, so the computer's
mixing is as unpredictable as the dice during the game and can be recomputed after the seed is
revealed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from app.engine_catalog import EngineCatalog
from app.engines.dice import HmacDice
from app.engines.interface import (
    Action,
    ComputerPolicy,
    GameEngine,
    Pick,
    Side,
    StopCheck,
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


LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
DEFAULT_THINK_MS = 500
MIN_THINK_MS = 100
MAX_THINK_MS = 5000


def computer_seat(options: Mapping[str, Any] | None, chosen: Mapping[str, Any] | None
                  ) -> dict[str, Any] | None:
    """A room's computer seat: the one its engine options imply (solo mode), at the chosen
    level, or the chosen one; ``None`` for people against people."""
    implied = computer_side(options)
    level = str((chosen or {}).get("level") or DEFAULT_LEVEL)
    think = int((chosen or {}).get("think_ms") or DEFAULT_THINK_MS)
    if implied is not None:
        return {"side": implied, "level": level, "think_ms": think}
    if chosen and chosen.get("side") in ("home", "away"):
        return {"side": chosen["side"], "level": level, "think_ms": think}
    return None


def seat_side(seat: Mapping[str, Any] | None) -> Side | None:
    side = (seat or {}).get("side")
    return parse_side(side) if side in ("home", "away") else None


class WithComputer(Protocol):
    """A game row or a held game: what says who the computer plays."""

    @property
    def computer(self) -> dict[str, Any] | None: ...

    @property
    def stand_in(self) -> str | None: ...


def playing_computer(game: WithComputer) -> Side | None:
    """The side the computer plays in ``game`` now: its seat from the start (solo play), or
    the side it stood in for when that side's people left (``game.stand_in``)."""
    seated = seat_side(game.computer)
    if seated is not None:
        return seated
    return parse_side(game.stand_in) if game.stand_in in ("home", "away") else None


def computer_level(game: WithComputer) -> str:
    level = str((game.computer or {}).get("level") or DEFAULT_LEVEL)
    return level if level in LEVELS else DEFAULT_LEVEL


def seat_think_ms(seat: Mapping[str, Any] | None) -> int:
    """The seat's think time in ms (the default for a seat stored before it had one), kept
    within the bounds whatever the row holds."""
    raw = (seat or {}).get("think_ms")
    think = raw if type(raw) is int else DEFAULT_THINK_MS
    return min(max(think, MIN_THINK_MS), MAX_THINK_MS)


class WithKind(WithComputer, Protocol):
    @property
    def kind(self) -> str: ...


def computer_think_ms(catalog: EngineCatalog, game: WithKind) -> int:
    """How long the computer thinks over each move of ``game`` (0 for a level that does not
    think for a time: a stand-in plays ``normal``)."""
    if playing_computer(game) is None or not catalog.thinks(game.kind, computer_level(game)):
        return 0
    return seat_think_ms(game.computer)


def stop_after(think_ms: int) -> StopCheck:
    """A stop check that says stop ``think_ms`` after it is made (``time.monotonic``)."""
    until = time.monotonic() + think_ms / 1000

    def enough() -> bool:
        return time.monotonic() >= until

    return enough


def think(
    catalog: EngineCatalog, kind: str, level: str, think_ms: int, engine: GameEngine[Any],
    state: Any, side: Side, pick: Pick, past: Sequence[Action] = (),
) -> Action | None:
    """:func:`computer_action` for the level, a thinking one given ``think_ms`` from now (run
    in the worker thread, so the time counts from when the thinking starts) and ``past``,
    the game's actions so far (:func:`game_past`)."""
    enough = stop_after(think_ms) if think_ms > 0 else None
    policy = catalog.policy(kind, level, enough, past)
    return computer_action(policy, engine, state, side, pick)


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
    legal = engine.legal_actions(state, side)
    if not legal:
        return None
    if policy is not None:
        try:
            return policy(engine, state, side, pick)
        except Exception:
            log.exception("the %s computer policy failed; timing out instead", engine.name)
    return engine.timeout_action(state, side, legal)


def pause_fraction(seed_hex: str, game_id: str, version: int, held: bool = False) -> float:
    """A number in [0, 1) for the server's pause after ``version``: draw ``version`` of game id
    ``"<game_id>:pause"``, secret until the seed is revealed and independent of any hand.
    ``held``: the pause of the state after a held pass written at that version
    (``app.games.hold``), a draw of its own so that two pauses in a row are independent."""
    key = f"{game_id}:pause-held" if held else f"{game_id}:pause"
    return HmacDice(bytes.fromhex(seed_hex), key).below(version, 1000) / 1000
