import hashlib
import hmac
from collections import Counter

import pytest

from app.engines.dice import (
    DiceExhausted,
    HmacDice,
    ScriptedDice,
    hmac_below,
    hmac_sha256,
    shuffled,
)


def test_hmac_below_matches_a_hand_computation() -> None:
    seed = b"seed"
    digest = hmac.new(seed, b"game-1:7", hashlib.sha256).digest()
    first = int.from_bytes(digest[:4], "big")
    limit = (1 << 32) - (1 << 32) % 12
    assert first < limit  # true for this seed; otherwise the next candidate would be used
    assert hmac_below(seed, "game-1", 7, 12) == first % 12


@pytest.mark.parametrize("seed_length", [0, 1, 32, 63, 64, 65, 200])
def test_hmac_sha256_is_the_standard_library_s(seed_length: int) -> None:
    # The keyed pads are worked out once per seed; a seed longer than a block is hashed
    # first (RFC 2104), one shorter is padded with zeros: both must give hmac's digest.
    import random

    draw = random.Random(seed_length)
    for _ in range(50):
        seed = draw.randbytes(seed_length)
        message = draw.randbytes(draw.randrange(0, 300))
        assert hmac_sha256(seed, message) == hmac.digest(seed, message, "sha256")
        assert hmac_sha256(seed, message) == hmac.digest(seed, message, "sha256")  # cached


def test_hmac_rejects_candidates_above_the_last_full_multiple() -> None:
    # n = 2**31 + 1: limit is 2**31 + 1, so about half of all candidates are rejected.
    n = (1 << 31) + 1
    seed = b"s"
    for index in range(50):
        digest = hmac.new(seed, f"g:{index}".encode(), hashlib.sha256).digest()
        candidates = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
        accepted = [c for c in candidates if c < n]
        if accepted:
            assert hmac_below(seed, "g", index, n) == accepted[0] % n


def test_hmac_dice_are_uniform_enough() -> None:
    dice = HmacDice(b"uniform", "g")
    counts = Counter(dice.below(i, 12) for i in range(12_000))
    assert set(counts) == set(range(12))
    assert all(850 < c < 1150 for c in counts.values())


def test_scripted_dice_run_out_with_a_clear_error() -> None:
    dice = ScriptedDice([3])
    assert dice.below(0, 12) == 3
    with pytest.raises(DiceExhausted):
        dice.below(1, 12)


def test_shuffle_is_fisher_yates_over_the_stream() -> None:
    order, next_index = shuffled(["a", "b", "c"], ScriptedDice([0, 0]), 5)
    # i=2 swaps with 0 -> c b a; i=1 swaps with 0 -> b c a
    assert order == ["b", "c", "a"]
    assert next_index == 7


def test_seeded_dice_draw_what_randrange_draws() -> None:
    import random

    from app.engines.dice import SeededDice

    for seed in (0, 1, 99):
        dice = SeededDice(seed)
        reference = random.Random(seed)
        for i in range(5000):
            n = 1 + (i * 7919) % 97
            assert dice.below(i, n) == reference.randrange(n)
    with pytest.raises(ValueError):
        SeededDice(1).below(0, 0)


def test_shuffled_with_seeded_dice_matches_the_general_path() -> None:
    from app.engines.dice import SeededDice

    class Wrapped:
        def __init__(self, seed: int) -> None:
            self.inner = SeededDice(seed)

        def below(self, index: int, n: int) -> int:
            return self.inner.below(index, n)

    for size in (0, 1, 2, 20, 40):
        items = [str(i) for i in range(size)]
        assert shuffled(items, SeededDice(5), 3) == shuffled(items, Wrapped(5), 3)
