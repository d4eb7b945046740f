"""Registration, sign-in and device sessions.

Tokens are 256-bit random strings; only their SHA-256 is stored, so a leaked database does not
sign anyone in. An account keeps at most ``max_device_sessions`` (3) sessions: signing in on a
fourth device ends the least recently created one. A session that ends (logout, eviction, a new
password) ends everywhere at once: the functions here return the ids they ended, and the caller
announces them after commit so every process closes their sockets
(:mod:`app.realtime.sessions`); commands check the session inside their write
(:mod:`app.games.commands`), so none from an ended session is applied after the end commits.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account, DeviceSession
from app.db import utcnow
from app.errors import ApiError

_hasher = PasswordHasher()
SESSIONS_ENDED = "sessions_ended"
"""Kind of the notice that announces ended sessions to every process."""


def ended_notice(session_ids: list[str]) -> dict[str, object]:
    return {"kind": SESSIONS_ENDED, "ids": session_ids}


def new_id() -> str:
    return secrets.token_hex(8)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def _create_account(
    db: AsyncSession, name: str, password_hash: str | None, is_guest: bool
) -> Account:
    account = Account(
        id=new_id(), name=name, name_key=name.casefold(), password_hash=password_hash,
        is_guest=is_guest,
    )
    db.add(account)
    await _flush_unique_name(db, name)
    return account


async def _flush_unique_name(db: AsyncSession, name: str | None) -> None:
    """Writes the account; the unique index on the case-folded name decides a clash."""
    try:
        await db.flush()
    except IntegrityError:
        await db.rollback()
        raise ApiError("name_taken", f"the name {name!r} is taken", 409) from None


async def _hash(password: str) -> str:
    """Argon2 takes tens of milliseconds of CPU by design; in a worker thread (the library
    releases the GIL) it does not stall every game this process serves."""
    return await asyncio.to_thread(_hasher.hash, password)


async def register(db: AsyncSession, name: str, password: str) -> Account:
    return await _create_account(db, name, await _hash(password), is_guest=False)


async def create_guest(db: AsyncSession, name: str | None) -> Account:
    return await _create_account(
        db, name or f"guest-{secrets.token_hex(4)}", None, is_guest=True
    )


async def update_account(
    db: AsyncSession, account: Account, name: str | None, password: str | None
) -> Account:
    """Renames (names stay unique, without regard to case) and/or sets a new password; a guest
    that sets a password becomes a registered account."""
    if password is not None:
        account.password_hash = await _hash(password)
        account.is_guest = False
    if name is not None and name != account.name:
        account.name, account.name_key = name, name.casefold()
    await _flush_unique_name(db, name)
    return account


async def authenticate(db: AsyncSession, name: str, password: str) -> Account:
    account = await db.scalar(select(Account).where(Account.name_key == name.casefold()))
    stored = account.password_hash if account else None
    try:
        if stored is None:
            # Same work either way, so timing does not tell which names exist.
            await _hash(password)
            raise VerificationError
        await asyncio.to_thread(_hasher.verify, stored, password)
    except (VerificationError, InvalidHashError):
        raise ApiError("bad_credentials", "wrong name or password", 401) from None
    assert account is not None
    return account


async def _lock_account(db: AsyncSession, account_id: str) -> None:
    """Serialises session changes of one account. PostgreSQL: a row lock held to commit, so
    concurrent sign-ins count each other's sessions. SQLite: the first write below takes the
    database's single write lock, which serialises them just as well."""
    if db.get_bind().dialect.name == "postgresql":
        await db.execute(select(Account.id).where(Account.id == account_id).with_for_update())


async def open_session(
    db: AsyncSession, account: Account, max_sessions: int
) -> tuple[str, list[str]]:
    """A new device session; returns its token and the ids of the old sessions it ended (the
    oldest beyond ``max_sessions``), which the caller announces after commit."""
    await _lock_account(db, account.id)
    token = secrets.token_urlsafe(32)
    session_id = new_id()
    db.add(DeviceSession(id=session_id, account_id=account.id, token_hash=hash_token(token)))
    await db.flush()
    keep = (
        select(DeviceSession.id)
        .where(DeviceSession.account_id == account.id, DeviceSession.id != session_id)
        .order_by(DeviceSession.created_at.desc(), DeviceSession.id.desc())
        .limit(max(0, max_sessions - 1))
    )
    ended = await db.scalars(
        delete(DeviceSession)
        .where(
            DeviceSession.account_id == account.id, DeviceSession.id != session_id,
            DeviceSession.id.not_in(keep),
        )
        .returning(DeviceSession.id)
    )
    return token, list(ended)


async def session_for_token(db: AsyncSession, token: str) -> tuple[Account, str] | None:
    """The account a bearer token signs in, and the id of its device session."""
    row = await db.execute(
        select(Account, DeviceSession)
        .join(DeviceSession, DeviceSession.account_id == Account.id)
        .where(DeviceSession.token_hash == hash_token(token))
    )
    found = row.first()
    if found is None:
        return None
    account, session = found
    session.last_used_at = utcnow()
    return account, session.id


async def account_for_token(db: AsyncSession, token: str) -> Account | None:
    found = await session_for_token(db, token)
    return None if found is None else found[0]


async def close_session(db: AsyncSession, token: str) -> list[str]:
    """Ends the session of ``token``; returns its id (empty when it had already ended)."""
    ended = await db.scalars(
        delete(DeviceSession)
        .where(DeviceSession.token_hash == hash_token(token))
        .returning(DeviceSession.id)
    )
    return list(ended)


async def close_other_sessions(db: AsyncSession, account: Account, token: str) -> list[str]:
    """Ends every session of ``account`` but the one of ``token`` (after a password change:
    whoever knew the old password is signed out everywhere)."""
    ended = await db.scalars(
        delete(DeviceSession)
        .where(
            DeviceSession.account_id == account.id,
            DeviceSession.token_hash != hash_token(token),
        )
        .returning(DeviceSession.id)
    )
    return list(ended)
