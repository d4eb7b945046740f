"""FastAPI dependencies: the server context, a database session, the signed-in account."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.accounts.service import account_for_token
from app.context import ServerContext
from app.errors import ApiError


def get_context(request: Request) -> ServerContext:
    ctx: ServerContext = request.app.state.ctx
    return ctx


Ctx = Annotated[ServerContext, Depends(get_context)]


async def get_db(ctx: Ctx) -> AsyncIterator[AsyncSession]:
    """A session committed when the handler returns normally, rolled back otherwise.

    ``scope="function"`` makes the commit happen before the response is sent: a client that
    got its token back may use it at once."""
    async with ctx.db.session() as session:
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise


Db = Annotated[AsyncSession, Depends(get_db, scope="function")]


def client_address(request: Request) -> str:
    """The caller's address: the peer, or what a trusted proxy says it is (uvicorn applies
    ``X-Forwarded-For`` only from ``FORWARDED_ALLOW_IPS``, default 127.0.0.1)."""
    return request.client.host if request.client else "unknown"


Address = Annotated[str, Depends(client_address)]


def bearer_token(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


async def optional_account(
    db: Db, authorization: Annotated[str | None, Header()] = None
) -> Account | None:
    token = bearer_token(authorization)
    if token is None:
        return None
    account = await account_for_token(db, token)
    if account is None:
        raise ApiError("bad_token", "unknown or ended session", 401)
    return account


async def current_account(
    account: Annotated[Account | None, Depends(optional_account)],
) -> Account:
    if account is None:
        raise ApiError("auth_required", "sign in (Authorization: Bearer <token>)", 401)
    return account


CurrentAccount = Annotated[Account, Depends(current_account)]
MaybeAccount = Annotated[Account | None, Depends(optional_account)]
