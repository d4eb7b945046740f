"""Which game kinds this server hosts and how to build their engines.

The server never imports an engine directly: it asks an :class:`EngineCatalog`. Production uses
:func:`default_catalog` (``app.engines.registry``); tests hand ``create_app`` a catalog holding a
small test engine, so the server is tested without depending on the real rule engines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engines.interface import (
    Action,
    ComputerPolicy,
    DiceSource,
    GameEngine,
    InvalidOptions,
    StopCheck,
    TimedPolicy,
)

EngineMaker = Callable[[DiceSource], GameEngine[Any]]


@dataclass(frozen=True)
class EngineCatalog:
    makers: dict[str, EngineMaker]
    policies: Mapping[str, Mapping[str, ComputerPolicy]] = field(default_factory=dict)
    """Game kind → level (``easy``, ``normal``, ``hard``) → its computer player. A level a
    kind lacks plays the nearest one it has; a kind without any is played by its engine's
    timeout action."""
    timed: Mapping[str, Mapping[str, TimedPolicy]] = field(default_factory=dict)
    """Game kind → the levels that think for as long as the server gives them (``hard``)."""

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.makers)

    def make(self, kind: str, dice: DiceSource) -> GameEngine[Any]:
        maker = self.makers.get(kind)
        if maker is None:
            raise InvalidOptions(f"unknown game kind {kind!r}; expected one of {self.kinds}")
        return maker(dice)

    def thinks(self, kind: str, level: str) -> bool:
        """Whether ``kind``'s player at ``level`` thinks for a time (its room's ``think_ms``)."""
        return level in (self.timed.get(kind) or {})

    def policy(
        self, kind: str, level: str = "normal", enough: StopCheck | None = None,
        past: Sequence[Action] = (),
    ) -> ComputerPolicy | None:
        """The player at ``level`` (or the nearest level the kind has); a level that thinks
        for a time stops when ``enough()`` says so, when given, and reads ``past`` (every
        action applied in the game so far)."""
        timed = (self.timed.get(kind) or {}).get(level)
        if timed is not None and enough is not None:
            return timed(enough, past)
        levels = self.policies.get(kind) or {}
        for name in (level, "normal", "hard", "easy"):
            if name in levels:
                return levels[name]
        return None


def default_catalog() -> EngineCatalog:
    from app.engines.registry import GAME_KINDS, computer_policies, make_engine, timed_policies

    def maker_for(kind: str) -> EngineMaker:
        return lambda dice: make_engine(kind, dice)

    policies = {kind: computer_policies(kind) for kind in GAME_KINDS}
    timed = {kind: timed_policies(kind) for kind in GAME_KINDS}
    return EngineCatalog({kind: maker_for(kind) for kind in GAME_KINDS}, policies, timed)
