"""Bottom of the 9th: a one-pitch-at-a-time duel; home bats for one run, away pitches for three
outs. The engine is pure (no clock, no I/O, dice injected) so the server, bots and the
simulator all drive the same rules."""

from app.engines.bottom_of_the_ninth.engine import Engine
from app.engines.bottom_of_the_ninth.state import State

__all__ = ["Engine", "State"]
