"""Which game kinds this server hosts and how to build their engines.

The server never imports an engine directly: it asks an :class:`EngineCatalog`. Production uses
:func:`default_catalog` (``app.engines.registry``); tests hand ``create_app`` a catalog holding a
small test engine, so the server is tested without depending on the real rule engines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.engines.interface import ComputerPolicy, DiceSource, GameEngine, InvalidOptions

EngineMaker = Callable[[DiceSource], GameEngine[Any]]


@dataclass(frozen=True)
class EngineCatalog:
    makers: dict[str, EngineMaker]
    policies: Mapping[str, Mapping[str, ComputerPolicy]] = field(default_factory=dict)
    """Game kind → level (``easy``, ``normal``, ``hard``) → its computer player. A level a
    kind lacks plays the nearest one it has; a kind without any is played by its engine's
    timeout action."""

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.makers)

    def make(self, kind: str, dice: DiceSource) -> GameEngine[Any]:
        maker = self.makers.get(kind)
        if maker is None:
            raise InvalidOptions(f"unknown game kind {kind!r}; expected one of {self.kinds}")
        return maker(dice)

    def policy(self, kind: str, level: str = "normal") -> ComputerPolicy | None:
        levels = self.policies.get(kind) or {}
        for name in (level, "normal", "hard", "easy"):
            if name in levels:
                return levels[name]
        return None


def default_catalog() -> EngineCatalog:
    from app.engines.registry import GAME_KINDS, computer_policies, make_engine

    def maker_for(kind: str) -> EngineMaker:
        return lambda dice: make_engine(kind, dice)

    policies = {kind: computer_policies(kind) for kind in GAME_KINDS}
    return EngineCatalog({kind: maker_for(kind) for kind in GAME_KINDS}, policies)
