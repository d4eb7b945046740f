"""``/api/play-now``: enter the queue, read your state (polling it is how a waiting player
learns of its pairing), leave. The rules are in docs/protocol.md (*Play now*)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.context import ServerContext
from app.db import utcnow
from app.deps import Address, Ctx, CurrentAccount, Db
from app.matchmaking import service
from app.rooms.schemas import GameOptions, RoomOut
from app.rooms.views import commit_and_publish, room_out
from app.validation import ApiModel

router = APIRouter(prefix="/api/play-now", tags=["play now"])


class PlayNowRequest(ApiModel):
    model_config = ConfigDict(extra="forbid")

    kind: str = Field(max_length=32, description="base-on-board or bottom-of-the-9th")
    options: GameOptions = Field(
        default_factory=GameOptions,
        description="Only ``tier`` (Base on Board; default pro): the rating pool to play in",
    )


class PlayNowOut(BaseModel):
    status: Literal["waiting", "paired", "none"]
    kind: str | None = None
    pool: str | None = Field(None, description="The rating pool the entry waits in")
    rating: int | None = Field(None, description="Your display rating in that pool")
    since: datetime | None = Field(None, description="When you entered the queue")
    window: int | None = Field(
        None, description="While waiting: the rating difference a pairing allows now"
    )
    room: RoomOut | None = Field(None, description="Once paired: the room, its game started")


async def _answer(
    ctx: ServerContext, db: AsyncSession, outcome: service.Outcome
) -> PlayNowOut:
    entry = outcome.entry
    if outcome.room is not None:
        await commit_and_publish(ctx, db, outcome.room.id, outcome.message)
    else:
        await db.commit()
    if entry is None:
        return PlayNowOut(status="none")
    common = {"kind": entry.kind, "pool": entry.pool, "rating": entry.rating,
              "since": entry.since}
    if outcome.room is not None:
        return PlayNowOut(status="paired", room=await room_out(ctx, db, outcome.room), **common)
    waited = service.waited(entry, utcnow())
    return PlayNowOut(status="waiting", window=service.window(waited), **common)


@router.post("", response_model=PlayNowOut)
async def play_now(
    body: PlayNowRequest, ctx: Ctx, db: Db, account: CurrentAccount, address: Address
) -> PlayNowOut:
    """Enters the queue of ``kind`` (and tier) and pairs you with the waiting player of
    nearest rating within the window, if any: ``paired`` with the room, its game started;
    else ``waiting``. Entering again while waiting in the same pool keeps your place; in
    another pool, or after a pairing, it starts a new entry. At most
    ``LIMIT_PLAY_NOW_ADDRESS`` entries per client address (429 ``rate_limited``)."""
    await ctx.throttle.hit(ctx.settings.limit_play_now_address, "play-now-address", address)
    outcome = await service.enter(db, ctx.catalog, ctx.settings, account, body.kind,
                                  body.options, utcnow())
    return await _answer(ctx, db, outcome)


@router.get("", response_model=PlayNowOut)
async def play_now_state(ctx: Ctx, db: Db, account: CurrentAccount) -> PlayNowOut:
    """Your entry: ``waiting`` (tried for a pairing again by this call), ``paired`` (the room)
    or ``none``. Poll it while waiting; every 2 s is plenty."""
    outcome = await service.state(db, ctx.catalog, ctx.settings, account, utcnow())
    return await _answer(ctx, db, outcome)


@router.delete("", status_code=204)
async def leave_play_now(db: Db, account: CurrentAccount) -> Response:
    """Leaves the queue (forgets a pairing too: the room itself stays). 204 also when you
    had no entry."""
    await service.leave(db, account)
    return Response(status_code=204)
