"""Base on Board: three twelve-sided dice, offense/defense strategy cards, challenge cards."""

from app.engines.base_on_board.engine import Engine
from app.engines.base_on_board.state import Options, State

__all__ = ["Engine", "Options", "State"]
