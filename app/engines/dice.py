"""Dice sources: the server's verifiable HMAC stream, a fast seeded one, and a scripted one.

The HMAC source follows docs/rules (design note 6): draw ``n`` of game ``g`` is taken from
HMAC-SHA256(server seed, "g:n") by rejection sampling, so no face is favoured by a modulo and
anyone holding the revealed seed can recompute every roll and shuffle of the game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from app.engines.interface import DiceSource, EngineError


class DiceExhausted(EngineError):
    """A scripted source ran out of values: the test scripted fewer rolls than the game used."""

    code = "dice_exhausted"


_BLOCK_BYTES = 64
"""SHA-256's block size, which HMAC pads its key to (RFC 2104)."""
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


@lru_cache(maxsize=1024)
def _keyed(seed: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """SHA-256 with the seed's inner and outer HMAC pads already hashed in.

    ``hmac.digest`` sets the key up again for every draw; a server command draws several times
    (dice, the pause after it) from one of a few hundred live games' seeds. Copying these two
    states instead makes the HMAC about 2.5 times cheaper and a draw about 1.6 times
    (docs/benchmarks.md), with the same digest: the test checks it against ``hmac.digest``.
    Bounded: the seeds of the games this process plays, and the revealed seeds of finished
    games whose draws the fairness page checks, a few hundred bytes each."""
    key = hashlib.sha256(seed).digest() if len(seed) > _BLOCK_BYTES else seed
    key = key.ljust(_BLOCK_BYTES, b"\0")
    return hashlib.sha256(key.translate(_INNER)), hashlib.sha256(key.translate(_OUTER))


def hmac_sha256(seed: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under ``seed``, as ``hmac.digest(seed, message, "sha256")``."""
    inner_pad, outer_pad = _keyed(seed)
    inner = inner_pad.copy()
    inner.update(message)
    outer = outer_pad.copy()
    outer.update(inner.digest())
    return outer.digest()


def hmac_below(seed: bytes, game_id: str, index: int, n: int) -> int:
    """Unbiased integer in ``[0, n)`` for draw ``index``; the verification page does the same.

    Each 32-byte digest gives eight 4-byte big-endian candidates; a candidate at or above the
    largest multiple of ``n`` below 2**32 is rejected. When all eight are rejected (odds below
    1e-70 for n <= 1000) the message is extended with a counter: "g:n:1", "g:n:2", ...
    """
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 32) - (1 << 32) % n
    block = 0
    while True:
        message = f"{game_id}:{index}" if block == 0 else f"{game_id}:{index}:{block}"
        digest = hmac_sha256(seed, message.encode())
        for offset in range(0, 32, 4):
            candidate = int.from_bytes(digest[offset : offset + 4], "big")
            if candidate < limit:
                return candidate % n
        block += 1


class HmacDice:
    """The server's source: stateless, so a restarted server derives the same rolls."""

    __slots__ = ("game_id", "seed")

    def __init__(self, seed: bytes, game_id: str) -> None:
        self.seed = seed
        self.game_id = game_id

    def below(self, index: int, n: int) -> int:
        return hmac_below(self.seed, self.game_id, index, n)


class SeededDice:
    """Fast deterministic source for simulation and bots: the same seed, the same games.

    It ignores ``index`` and relies on being asked in order, which an engine run from the
    start always does; it is not for resuming a stored state (use :class:`HmacDice`).
    """

    __slots__ = ("_bits", "_random")

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self._bits: Callable[[int], int] = self._random.getrandbits

    def below(self, index: int, n: int) -> int:
        # ``randrange(n)`` checks its argument and returns ``_randbelow(n)``, which draws
        # ``n.bit_length()`` bits until they fall below ``n``; doing that here gives the same
        # values without two calls (the simulator draws hundreds of times a game). A test
        # compares this with ``randrange``.
        if n <= 0:
            return self._random.randrange(n)  # raises ValueError, as it always did
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r


class ScriptedDice:
    """Tests say exactly which values come out, in order, and see when a game asks for more."""

    __slots__ = ("_values", "used")

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._values: list[int] = list(values)
        self.used = 0

    def push(self, *values: int) -> None:
        self._values.extend(values)

    def below(self, index: int, n: int) -> int:
        if self.used >= len(self._values):
            raise DiceExhausted(f"scripted dice ran out at draw {index} (die of {n})")
        value = self._values[self.used]
        self.used += 1
        if not 0 <= value < n:
            raise ValueError(f"scripted value {value} is not below {n} at draw {index}")
        return value


def shuffled(items: Sequence[str], dice: DiceSource, start_index: int) -> tuple[list[str], int]:
    """Fisher-Yates from the dice stream; returns the new order and the next free index."""
    order = list(items)
    index = start_index
    if type(dice) is SeededDice:
        # The same draws as ``SeededDice.below``, without a call per card.
        bits = dice._bits
        lengths = _BIT_LENGTHS
        for i in range(len(order) - 1, 0, -1):
            n = i + 1
            k = lengths[n] if n < 128 else n.bit_length()
            j = bits(k)
            while j >= n:
                j = bits(k)
            order[i], order[j] = order[j], order[i]
        return order, start_index + max(len(order) - 1, 0)
    below = dice.below
    for i in range(len(order) - 1, 0, -1):
        j = below(index, i + 1)
        index += 1
        order[i], order[j] = order[j], order[i]
    return order, index


_BIT_LENGTHS: tuple[int, ...] = tuple(n.bit_length() for n in range(128))
"""``n.bit_length()`` looked up for the sizes of a deck (a shuffle asks once per card)."""
