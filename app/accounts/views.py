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
from app.deps import Ctx, CurrentAccount, Db, bearer_token

router = APIRouter(prefix="/api/auth", tags=["accounts"])


def account_out(account: Account) -> AccountOut:
    return AccountOut(
        id=account.id, name=account.name, is_guest=account.is_guest, created_at=account.created_at
    )


async def _session(ctx: Ctx, db: Db, account: Account) -> SessionOut:
    token, ended = await service.open_session(db, account, ctx.settings.max_device_sessions)
    return SessionOut(token=token, account=account_out(account), ended_sessions=ended)


@router.post("/register", response_model=SessionOut, status_code=201)
async def register(body: Credentials, ctx: Ctx, db: Db) -> SessionOut:
    account = await service.register(db, body.name, body.password)
    return await _session(ctx, db, account)


@router.post("/login", response_model=SessionOut)
async def login(body: Credentials, ctx: Ctx, db: Db) -> SessionOut:
    """Signs in on one more device; the 4th device ends the oldest session."""
    account = await service.authenticate(db, body.name, body.password)
    return await _session(ctx, db, account)


@router.post("/guest", response_model=SessionOut, status_code=201)
async def guest(body: GuestRequest, ctx: Ctx, db: Db) -> SessionOut:
    account = await service.create_guest(db, body.name)
    return await _session(ctx, db, account)


@router.post("/logout", status_code=204)
async def logout(
    db: Db, account: CurrentAccount, authorization: Annotated[str | None, Header()] = None
) -> None:
    token = bearer_token(authorization)
    if token:
        await service.close_session(db, token)


@router.get("/me", response_model=AccountOut)
async def me(account: CurrentAccount) -> AccountOut:
    return account_out(account)


@router.patch("/me", response_model=AccountOut)
async def update_me(body: AccountSettings, db: Db, account: CurrentAccount) -> AccountOut:
    """Change the display name and/or the password."""
    return account_out(await service.update_account(db, account, body.name, body.password))
