"""``/api/auth``: register, log in, play as a guest, log out, who am I."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header

from app.accounts import service
from app.accounts.models import Account
from app.accounts.schemas import (
    AccountOut,
    AccountSettings,
    Credentials,
    GuestRequest,
    SessionOut,
)
from app.deps import Address, Ctx, CurrentAccount, Db, bearer_token
from app.errors import ApiError

router = APIRouter(prefix="/api/auth", tags=["accounts"])


def account_out(account: Account) -> AccountOut:
    return AccountOut(
        id=account.id, name=account.name, is_guest=account.is_guest, created_at=account.created_at
    )


async def _commit_and_announce(ctx: Ctx, db: Db, ended: list[str]) -> None:
    """Commit first (the sessions are gone for every command from then on), then tell every
    process to close their sockets."""
    await db.commit()
    if ended:
        await ctx.broadcaster.publish_notice(service.ended_notice(ended))


async def _session(ctx: Ctx, db: Db, account: Account) -> SessionOut:
    token, ended = await service.open_session(db, account, ctx.settings.max_device_sessions)
    await _commit_and_announce(ctx, db, ended)
    return SessionOut(token=token, account=account_out(account), ended_sessions=len(ended))


@router.post("/register", response_model=SessionOut, status_code=201)
async def register(body: Credentials, ctx: Ctx, db: Db, address: Address) -> SessionOut:
    """At most ``LIMIT_REGISTER_ADDRESS`` per client address (429 ``rate_limited``)."""
    await ctx.throttle.hit(ctx.settings.limit_register_address, "register-address", address)
    account = await service.register(db, body.name, body.password)
    return await _session(ctx, db, account)


@router.post("/login", response_model=SessionOut)
async def login(body: Credentials, ctx: Ctx, db: Db, address: Address) -> SessionOut:
    """Signs in on one more device; the 4th device ends the oldest session. Throttled: at most
    ``LIMIT_LOGIN_ADDRESS`` attempts per client address and ``LIMIT_LOGIN_ACCOUNT`` failures
    per account name (429 ``rate_limited`` with ``Retry-After``; then nothing is checked)."""
    settings, name = ctx.settings, body.name.casefold()
    await ctx.throttle.hit(settings.limit_login_address, "login-address", address)
    await ctx.throttle.check(settings.limit_login_account, "login-account", name)
    try:
        account = await service.authenticate(db, body.name, body.password)
    except ApiError:
        await ctx.throttle.hit(settings.limit_login_account, "login-account", name)
        raise
    return await _session(ctx, db, account)


@router.post("/guest", response_model=SessionOut, status_code=201)
async def guest(body: GuestRequest, ctx: Ctx, db: Db, address: Address) -> SessionOut:
    """At most ``LIMIT_GUEST_ADDRESS`` new guests per client address (429 ``rate_limited``)."""
    await ctx.throttle.hit(ctx.settings.limit_guest_address, "guest-address", address)
    account = await service.create_guest(db, body.name)
    return await _session(ctx, db, account)


@router.post("/logout", status_code=204)
async def logout(
    ctx: Ctx, db: Db, account: CurrentAccount,
    authorization: Annotated[str | None, Header()] = None,
) -> None:
    """Ends this device's session everywhere: its sockets are closed (4001)."""
    token = bearer_token(authorization)
    if token:
        await _commit_and_announce(ctx, db, await service.close_session(db, token))


@router.get("/me", response_model=AccountOut)
async def me(account: CurrentAccount) -> AccountOut:
    return account_out(account)


@router.patch("/me", response_model=AccountOut)
async def update_me(
    body: AccountSettings, ctx: Ctx, db: Db, account: CurrentAccount,
    authorization: Annotated[str | None, Header()] = None,
) -> AccountOut:
    """Change the display name and/or the password. A new password ends every other session
    of the account (whoever knew the old one is signed out everywhere)."""
    updated = await service.update_account(db, account, body.name, body.password)
    ended: list[str] = []
    token = bearer_token(authorization)
    if body.password is not None and token:
        ended = await service.close_other_sessions(db, account, token)
    await _commit_and_announce(ctx, db, ended)
    return account_out(updated)
