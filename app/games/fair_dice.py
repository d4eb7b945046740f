"""The game's dice as the server runs them: the HMAC stream, with every draw written down.

Recording lets ``/api/games/{id}/fairness`` list each draw (index, range, value) so that anyone
holding the revealed seed can check them one by one with :func:`app.engines.dice.hmac_below`.
"""

from __future__ import annotations

import hashlib
import secrets

from app.engines.dice import HmacDice


def new_seed() -> tuple[str, str]:
    """A fresh 32-byte secret seed (hex) and its SHA-256 commitment (hex of the raw bytes)."""
    seed = secrets.token_bytes(32)
    return seed.hex(), hashlib.sha256(seed).hexdigest()


class RecordingDice:
    __slots__ = ("_dice", "draws")

    def __init__(self, seed_hex: str, game_id: str) -> None:
        self._dice = HmacDice(bytes.fromhex(seed_hex), game_id)
        self.draws: dict[int, tuple[int, int]] = {}

    def below(self, index: int, n: int) -> int:
        value = self._dice.below(index, n)
        self.draws.setdefault(index, (n, value))
        return value
