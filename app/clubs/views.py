"""``/api/clubs``: create, search, a club's page, my clubs and invitations, and what owners and
members do. Who may do what is in :mod:`app.clubs.service` and docs/protocol.md (*Clubs*)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Response

from app.clubs import service, summary
from app.clubs.models import Club
from app.clubs.schemas import (
    ClubBrief,
    ClubCreate,
    ClubList,
    ClubListItem,
    ClubOut,
    ClubPage,
    InvitationOut,
    InviteCreate,
    MemberOut,
    MyClub,
)
from app.deps import CurrentAccount, Db, MaybeAccount

router = APIRouter(prefix="/api/clubs", tags=["clubs"])


def brief(club: Club) -> ClubBrief:
    return ClubBrief(id=club.id, name=club.name, code=club.code, colors=club.colors)


async def club_out(db: Db, club: Club, account_id: str | None) -> ClubOut:
    rows = await service.members(db, club.id)
    mine = next((m.role for m, _ in rows if m.account_id == account_id), None)
    invited = (account_id is not None and mine is None
               and await service.has_invite(db, club.id, account_id))
    return ClubOut(
        **brief(club).model_dump(), created_by=club.created_by, created_at=club.created_at,
        members=[MemberOut(account_id=m.account_id, name=name, role=m.role,
                           joined_at=m.joined_at) for m, name in rows],
        my_role=mine, invited=invited,
    )


@router.post("", response_model=ClubOut, status_code=201)
async def create(body: ClubCreate, db: Db, account: CurrentAccount) -> ClubOut:
    """A new club with the caller as its owner. Guests may not (403 ``guest``); a taken name
    (any case) or code is 409 ``name_taken`` / ``code_taken``."""
    club = await service.create_club(db, account, body)
    return await club_out(db, club, account.id)


@router.get("", response_model=ClubList)
async def search(
    db: Db, q: str | None = Query(None, max_length=32, description="Part of a name or code"),
    limit: int = Query(20, ge=1, le=100), offset: int = Query(0, ge=0, le=10_000),
) -> ClubList:
    """Clubs by name, one page at a time."""
    rows, total = await service.search(db, q, limit, offset)
    return ClubList(
        clubs=[ClubListItem(**brief(c).model_dump(), members=n, created_at=c.created_at)
               for c, n in rows],
        total=total, limit=limit, offset=offset)


@router.get("/mine", response_model=list[MyClub])
async def mine(db: Db, account: CurrentAccount) -> list[MyClub]:
    """The caller's clubs and its role in each (for the lobby's club select)."""
    return [MyClub(**brief(m.club).model_dump(), role=m.role)
            for m in await service.my_clubs(db, account.id)]


@router.get("/invitations", response_model=list[InvitationOut])
async def invitations(db: Db, account: CurrentAccount) -> list[InvitationOut]:
    """Standing invitations to the caller, newest first."""
    return [InvitationOut(club=brief(club), account_id=i.account_id, name=name,
                          invited_by=i.invited_by, created_at=i.created_at)
            for i, club, name in await service.my_invitations(db, account.id)]


@router.get("/{ref}", response_model=ClubPage)
async def page(ref: str, db: Db, account: MaybeAccount) -> ClubPage:
    """A club by id or code: roster with roles, record, runs, rating and batting and pitching
    lines per pool, recent games (``clubs.summary``). Anyone may read it."""
    club = await service.get_club(db, ref)
    out = await club_out(db, club, None if account is None else account.id)
    pools = await summary.pool_lines(db, club.id)
    return ClubPage(**out.model_dump(), record=summary.record(pools), pools=pools,
                    recent=await summary.recent_games(db, club.id))


@router.get("/{ref}/invites", response_model=list[InvitationOut])
async def club_invites(ref: str, db: Db, account: CurrentAccount) -> list[InvitationOut]:
    """The club's standing invitations: owners only (403 ``owner_only``)."""
    club = await service.get_club(db, ref)
    return [InvitationOut(club=brief(club), account_id=i.account_id, name=name,
                          invited_by=i.invited_by, created_at=i.created_at)
            for i, name in await service.club_invitations(db, club, account)]


@router.post("/{ref}/invites", response_model=InvitationOut, status_code=201)
async def invite(ref: str, body: InviteCreate, db: Db, account: CurrentAccount
                 ) -> InvitationOut:
    """Invites an account by name: owners only. 404 ``account_not_found``, 409
    ``already_member`` / ``already_invited`` / ``guest`` / ``too_many_invites``."""
    club = await service.get_club(db, ref)
    row = await service.invite(db, club, account, body.name)
    name = next(n for i, n in await service.club_invitations(db, club, account)
                if i.account_id == row.account_id)
    return InvitationOut(club=brief(club), account_id=row.account_id, name=name,
                         invited_by=row.invited_by, created_at=row.created_at)


@router.delete("/{ref}/invites/{account_id}", status_code=204)
async def withdraw(ref: str, account_id: str, db: Db, account: CurrentAccount) -> Response:
    """An owner withdraws a standing invitation (404 ``no_invite``)."""
    club = await service.get_club(db, ref)
    await service.withdraw(db, club, account, account_id)
    return Response(status_code=204)


@router.post("/{ref}/accept", response_model=ClubOut)
async def accept(ref: str, db: Db, account: CurrentAccount) -> ClubOut:
    """The invitee joins the club (404 ``no_invite`` without an invitation)."""
    club = await service.get_club(db, ref)
    await service.accept(db, club, account)
    return await club_out(db, club, account.id)


@router.post("/{ref}/decline", status_code=204)
async def decline(ref: str, db: Db, account: CurrentAccount) -> Response:
    club = await service.get_club(db, ref)
    await service.decline(db, club, account)
    return Response(status_code=204)


@router.post("/{ref}/leave", status_code=204)
async def leave(ref: str, db: Db, account: CurrentAccount) -> Response:
    """The caller leaves (404 ``not_member``; 409 ``last_owner`` for the last owner)."""
    club = await service.get_club(db, ref)
    await service.remove_member(db, club, account, account.id)
    return Response(status_code=204)


@router.delete("/{ref}/members/{account_id}", status_code=204)
async def remove(ref: str, account_id: str, db: Db, account: CurrentAccount) -> Response:
    """An owner removes a member (403 ``owner_only``; 409 ``last_owner``)."""
    club = await service.get_club(db, ref)
    await service.remove_member(db, club, account, account_id)
    return Response(status_code=204)


@router.post("/{ref}/members/{account_id}/promote", response_model=ClubOut)
async def promote(ref: str, account_id: str, db: Db, account: CurrentAccount) -> ClubOut:
    """An owner makes a member an owner too (403 ``owner_only``; 404 ``not_member``)."""
    club = await service.get_club(db, ref)
    await service.promote(db, club, account, account_id)
    return await club_out(db, club, account.id)
