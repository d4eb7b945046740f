"""Which game kinds this server hosts and how to build their engines.

The server never imports an engine directly: it asks an :class:`EngineCatalog`. Production uses
:func:`default_catalog` (``app.engines.registry``); tests hand ``create_app`` a catalog holding a
small test engine, so the server is tested without depending on the real rule engines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.engines.interface import DiceSource, GameEngine, InvalidOptions

EngineMaker = Callable[[DiceSource], GameEngine[Any]]


@dataclass(frozen=True)
class EngineCatalog:
    makers: dict[str, EngineMaker]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.makers)

    def make(self, kind: str, dice: DiceSource) -> GameEngine[Any]:
        maker = self.makers.get(kind)
        if maker is None:
            raise InvalidOptions(f"unknown game kind {kind!r}; expected one of {self.kinds}")
        return maker(dice)


def default_catalog() -> EngineCatalog:
    from app.engines.registry import GAME_KINDS, make_engine

    def maker_for(kind: str) -> EngineMaker:
        return lambda dice: make_engine(kind, dice)

    return EngineCatalog({kind: maker_for(kind) for kind in GAME_KINDS})
