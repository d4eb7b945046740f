"""``/api/editions``: redeem an activation code, list the editions one holds."""

from __future__ import annotations

from fastapi import APIRouter

from app.deps import Address, Ctx, CurrentAccount, Db
from app.editions import service
from app.editions.schemas import EditionOut, RedeemRequest
from app.errors import ApiError

router = APIRouter(prefix="/api/editions", tags=["editions"])


def edition_out(held: service.Held) -> EditionOut:
    return EditionOut(edition=held.edition, redeemed_at=held.redeemed_at)


@router.post("/redeem", response_model=EditionOut)
async def redeem(body: RedeemRequest, ctx: Ctx, db: Db, account: CurrentAccount,
                 address: Address) -> EditionOut:
    """Redeems the box's activation code (정품 인증번호) for the signed-in account; a code
    redeems once, ever. Guests may not (``403 guest``: register first, or set a password).
    Throttled like sign-in: at most ``LIMIT_REDEEM_ADDRESS`` attempts per client address and
    ``LIMIT_REDEEM_ACCOUNT`` failed ones per account (429 ``rate_limited`` with
    ``Retry-After``; then nothing is checked)."""
    settings = ctx.settings
    await ctx.throttle.hit(settings.limit_redeem_address, "redeem-address", address)
    if account.is_guest:
        raise ApiError("guest", "guests cannot redeem codes: register, or set a password", 403)
    account_id = account.id
    await ctx.throttle.check(settings.limit_redeem_account, "redeem-account", account_id)
    try:
        held = await service.redeem(db, account_id, body.code)
    except ApiError:
        await ctx.throttle.hit(settings.limit_redeem_account, "redeem-account", account_id)
        raise
    await db.commit()
    return edition_out(held)


@router.get("/mine", response_model=list[EditionOut])
async def mine(db: Db, account: CurrentAccount) -> list[EditionOut]:
    """The editions the signed-in account holds, first redeemed first (a guest holds none)."""
    return [edition_out(held) for held in await service.editions_of(db, account.id)]
