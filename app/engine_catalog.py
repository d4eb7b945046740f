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
    policies: Mapping[str, ComputerPolicy] = field(default_factory=dict)
    """Game kind → its computer player (solo play); a kind without one is played by its
    engine's timeout action."""

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.makers)

    def make(self, kind: str, dice: DiceSource) -> GameEngine[Any]:
        maker = self.makers.get(kind)
        if maker is None:
            raise InvalidOptions(f"unknown game kind {kind!r}; expected one of {self.kinds}")
        return maker(dice)

    def policy(self, kind: str) -> ComputerPolicy | None:
        return self.policies.get(kind)


def default_catalog() -> EngineCatalog:
    from app.engines.registry import GAME_KINDS, computer_policy, make_engine

    def maker_for(kind: str) -> EngineMaker:
        return lambda dice: make_engine(kind, dice)

    policies = {kind: p for kind in GAME_KINDS if (p := computer_policy(kind)) is not None}
    return EngineCatalog({kind: maker_for(kind) for kind in GAME_KINDS}, policies)
