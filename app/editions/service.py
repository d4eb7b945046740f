"""Minting and redeeming activation codes, and asking what an account holds.

A code is 20 symbols of Crockford's base32 (``0-9`` and ``A-Z`` without ``I L O U``), 100 bits
from :mod:`secrets`, printed in five groups of four (``7K3M-QX9T-4HNW-PD2R-8CVA``). Reading it
back forgives what people do when they type a code from a box: any case, spaces and dashes,
``O`` for ``0``, ``I`` or ``L`` for ``1``.

Only each code's SHA-256 is stored. A plain fast hash is enough here, unlike for passwords
(argon2, :mod:`app.accounts.service`): a password is chosen by a person and can be guessed from
a dictionary, so its hash must be slow; a code has 100 random bits, so even a leaked table
cannot be searched (2^100 hashes is out of reach however fast each one is). A fast hash also
lets a redeem look the code up by its hash with the primary key, and the once-only rule be one
conditional ``UPDATE``.

A code redeems once: ``UPDATE ... WHERE code_hash = :h AND redeemed_by IS NULL``. On
PostgreSQL a second transaction on that row waits for the first's lock and then re-checks the
condition, which no longer holds; SQLite has one writer at a time. Either way exactly one of
two parallel redeems changes the row, and the other is told ``code_used``.

This module knows nothing of rooms or games: :mod:`app.rooms.service` decides which edition a
room needs and calls :func:`require_edition`.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exists, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import utcnow
from app.editions.models import EditionCode
from app.errors import ApiError

EDITIONS = {"pro": "the Pro tier of Base on Board"}
"""Every edition a code may unlock, and what it unlocks."""
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: 32 symbols, none two that look alike."""
SYMBOLS = 20
"""Symbols per code: 20 x 5 = 100 bits."""
GROUP = 4
_READS_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = str.maketrans("", "", " \t\r\n-_.\u2010\u2011\u2012\u2013\u2014\u2212")
"""Spaces, dashes of every kind (a code pasted from a document), underscores and dots."""


@dataclass(frozen=True)
class Held:
    edition: str
    redeemed_at: datetime


def new_code() -> str:
    symbols = "".join(secrets.choice(ALPHABET) for _ in range(SYMBOLS))
    return "-".join(symbols[i:i + GROUP] for i in range(0, SYMBOLS, GROUP))


def normalise(code: str) -> str:
    """The canonical 20 symbols of what someone typed; ``400 bad_code`` when it cannot be a
    code at all (wrong length, a symbol outside the alphabet)."""
    canonical = code.translate(_IGNORED).upper().translate(_READS_AS)
    if len(canonical) != SYMBOLS or any(c not in ALPHABET for c in canonical):
        raise ApiError(
            "bad_code", f"an activation code is {SYMBOLS} letters and digits, like "
            "7K3M-QX9T-4HNW-PD2R-8CVA", 400,
        )
    return canonical


def hash_code(code: str) -> str:
    """SHA-256 of the canonical form (see the module's docstring for why it need not be slow)."""
    return hashlib.sha256(normalise(code).encode()).hexdigest()


def check_edition(edition: str) -> str:
    if edition not in EDITIONS:
        raise ApiError("unknown_edition", f"unknown edition {edition!r}; one of "
                       f"{sorted(EDITIONS)}", 422)
    return edition


async def mint(db: AsyncSession, edition: str, count: int) -> list[str]:
    """``count`` fresh codes of ``edition``; the caller shows them once (only their hashes are
    written) and commits."""
    check_edition(edition)
    now = utcnow()
    codes: list[str] = []
    while len(codes) < count:
        code = new_code()
        if code not in codes:  # 2^-100 a pair; the primary key would refuse it anyway
            codes.append(code)
    db.add_all(EditionCode(code_hash=hash_code(c), edition=edition, minted_at=now) for c in codes)
    await db.flush()
    return codes


async def redeem(db: AsyncSession, account_id: str, code: str) -> Held:
    """Gives ``account_id`` the edition of ``code``, once ever. Refusals: ``400 bad_code`` (not
    a code), ``404 bad_code`` (no such code), ``409 code_used`` (redeemed before, by anyone,
    or by a parallel request a moment ago), ``409 edition_held`` (the account already holds
    that edition: the code stays unused, for someone else)."""
    code_hash = hash_code(code)
    found = await db.get(EditionCode, code_hash)
    if found is None:
        raise ApiError("bad_code", "no such activation code", 404)
    edition = found.edition
    if found.redeemed_by is not None:
        raise _used()
    if await holds(db, account_id, edition):
        raise _held(edition)
    now = utcnow()
    try:
        won = await db.scalar(
            update(EditionCode)
            .where(EditionCode.code_hash == code_hash, EditionCode.redeemed_by.is_(None))
            .values(redeemed_by=account_id, redeemed_at=now)
            .returning(EditionCode.code_hash)
            .execution_options(synchronize_session=False)
        )
    except IntegrityError:  # another code of this edition, redeemed in parallel, won
        await db.rollback()
        raise _held(edition) from None
    if won is None:
        raise _used()
    return Held(edition=edition, redeemed_at=now)


def _used() -> ApiError:
    return ApiError("code_used", "this activation code has already been redeemed", 409)


def _held(edition: str) -> ApiError:
    return ApiError(
        "edition_held", f"you already hold the {edition} edition; keep this code for someone "
        "else", 409,
    )


async def editions_of(db: AsyncSession, account_id: str) -> list[Held]:
    rows = await db.execute(
        select(EditionCode.edition, EditionCode.redeemed_at)
        .where(EditionCode.redeemed_by == account_id)
        .order_by(EditionCode.redeemed_at, EditionCode.edition)
    )
    return [Held(edition=e, redeemed_at=at) for e, at in rows.all() if at is not None]


async def holds(db: AsyncSession, account_id: str, edition: str) -> bool:
    return bool(await db.scalar(select(exists().where(
        EditionCode.redeemed_by == account_id, EditionCode.edition == edition
    ))))


async def require_edition(db: AsyncSession, account_id: str, edition: str) -> None:
    """``403 edition_required`` unless ``account_id`` has redeemed a code of ``edition``."""
    if not await holds(db, account_id, edition):
        raise ApiError(
            "edition_required", f"this needs the {edition} edition: redeem the activation "
            "code from the box (POST /api/editions/redeem)", 403,
        )
