"""Clubs, their members and invitations: who may do what.

- Any signed-in account that is not a guest may create a club and becomes its owner (a guest's
  account is one device's, and a club outlives a device).
- Only an owner invites (by account name; guests cannot be invited), withdraws an invitation,
  removes a member and promotes a member to owner.
- Only the invitee accepts or declines an invitation; accepting makes it a member.
- A member may leave. The last owner may neither leave nor be removed (409 ``last_owner``):
  promote someone first, so a club always has someone who can run it.
- A club has at most :data:`MAX_MEMBERS` members and :data:`MAX_INVITES` standing
  invitations: every list a club page shows is bounded.

Refusals are :class:`app.errors.ApiError`: 403 for who may not, 404 for what is not there,
409 for what clashes with the club's state; a refused call changes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.clubs.models import Club, ClubInvite, ClubMember
from app.clubs.schemas import ClubCreate
from app.clubs.seating import find_club
from app.db import utcnow
from app.errors import ApiError

MAX_MEMBERS = 50
MAX_INVITES = 50
MAX_CLUBS_PER_ACCOUNT = 20
"""Clubs one account may belong to (and so create): a bound on "my clubs" and on spam."""


@dataclass(frozen=True)
class Membership:
    club: Club
    role: str


async def get_club(db: AsyncSession, ref: str) -> Club:
    club = await find_club(db, ref)
    if club is None:
        raise ApiError("not_found", "no such club", 404)
    return club


async def role_of(db: AsyncSession, club_id: str, account_id: str) -> str | None:
    member = await db.get(ClubMember, (club_id, account_id))
    return None if member is None else member.role


async def _clubs_of_count(db: AsyncSession, account_id: str) -> int:
    return int(await db.scalar(
        select(func.count()).select_from(ClubMember).where(ClubMember.account_id == account_id)
    ) or 0)


def _not_guest(account: Account, what: str) -> None:
    if account.is_guest:
        raise ApiError("guest", f"guests cannot {what}: register, or set a password", 403)


async def _name_clash(db: AsyncSession, name: str, code: str) -> None:
    if await db.scalar(select(Club.id).where(Club.name_key == name.casefold())):
        raise ApiError("name_taken", "a club of that name exists", 409)
    if await db.scalar(select(Club.id).where(Club.code == code)):
        raise ApiError("code_taken", "a club with that code exists", 409)


async def create_club(db: AsyncSession, account: Account, body: ClubCreate) -> Club:
    _not_guest(account, "create clubs")
    if await _clubs_of_count(db, account.id) >= MAX_CLUBS_PER_ACCOUNT:
        raise ApiError("too_many_clubs", f"an account may be in at most "
                       f"{MAX_CLUBS_PER_ACCOUNT} clubs", 409)
    await _name_clash(db, body.name, body.code)
    now = utcnow()
    club = Club(id=secrets.token_hex(8), name=body.name, name_key=body.name.casefold(),
                code=body.code, colors=body.colors.model_dump(), created_by=account.id,
                created_at=now)
    try:
        async with db.begin_nested():
            db.add(club)
            await db.flush()
    except IntegrityError:  # created in parallel a moment ago
        await _name_clash(db, body.name, body.code)
        raise ApiError("name_taken", "a club of that name or code exists", 409) from None
    db.add(ClubMember(club_id=club.id, account_id=account.id, role="owner", joined_at=now))
    await db.flush()
    return club


async def require_owner(db: AsyncSession, club: Club, account: Account) -> None:
    if await role_of(db, club.id, account.id) != "owner":
        raise ApiError("owner_only", "only an owner of the club may do that", 403)


async def invite(db: AsyncSession, club: Club, owner: Account, name: str) -> ClubInvite:
    await require_owner(db, club, owner)
    invitee = await db.scalar(select(Account).where(Account.name_key == name.strip().casefold()))
    if invitee is None:
        raise ApiError("account_not_found", "no account of that name", 404)
    if invitee.is_guest:
        raise ApiError("guest", "guests cannot join clubs: ask them to register", 409)
    if await role_of(db, club.id, invitee.id) is not None:
        raise ApiError("already_member", f"{invitee.name} is already in the club", 409)
    if await db.get(ClubInvite, (club.id, invitee.id)) is not None:
        raise ApiError("already_invited", f"{invitee.name} is already invited", 409)
    pending = int(await db.scalar(
        select(func.count()).select_from(ClubInvite).where(ClubInvite.club_id == club.id)) or 0)
    if pending >= MAX_INVITES:
        raise ApiError("too_many_invites", f"at most {MAX_INVITES} standing invitations", 409)
    row = ClubInvite(club_id=club.id, account_id=invitee.id, invited_by=owner.id,
                     created_at=utcnow())
    try:
        async with db.begin_nested():
            db.add(row)
            await db.flush()
    except IntegrityError:
        raise ApiError("already_invited", f"{invitee.name} is already invited", 409) from None
    return row


async def _invite_of(db: AsyncSession, club: Club, account_id: str) -> ClubInvite:
    row = await db.get(ClubInvite, (club.id, account_id))
    if row is None:
        raise ApiError("no_invite", "no such invitation", 404)
    return row


async def accept(db: AsyncSession, club: Club, account: Account) -> None:
    """The invitee joins; the invitation is used up."""
    row = await _invite_of(db, club, account.id)
    members = int(await db.scalar(
        select(func.count()).select_from(ClubMember).where(ClubMember.club_id == club.id)) or 0)
    if members >= MAX_MEMBERS:
        raise ApiError("club_full", f"a club has at most {MAX_MEMBERS} members", 409)
    if await _clubs_of_count(db, account.id) >= MAX_CLUBS_PER_ACCOUNT:
        raise ApiError("too_many_clubs", f"an account may be in at most "
                       f"{MAX_CLUBS_PER_ACCOUNT} clubs", 409)
    await db.delete(row)
    if await role_of(db, club.id, account.id) is None:
        db.add(ClubMember(club_id=club.id, account_id=account.id, role="member",
                          joined_at=utcnow()))
    await db.flush()


async def decline(db: AsyncSession, club: Club, account: Account) -> None:
    await db.delete(await _invite_of(db, club, account.id))
    await db.flush()


async def withdraw(db: AsyncSession, club: Club, owner: Account, account_id: str) -> None:
    await require_owner(db, club, owner)
    await db.delete(await _invite_of(db, club, account_id))
    await db.flush()


async def _owners(db: AsyncSession, club_id: str) -> int:
    """Counts the owners, locking the club's member rows on PostgreSQL so two owners
    removing each other at once cannot leave none."""
    rows = await db.scalars(
        select(ClubMember.role).where(ClubMember.club_id == club_id).with_for_update())
    return sum(1 for role in rows if role == "owner")


async def remove_member(db: AsyncSession, club: Club, actor: Account, account_id: str) -> None:
    """An owner removes a member (or themself), or a member leaves (``account_id`` is the
    actor's own)."""
    if account_id != actor.id:
        await require_owner(db, club, actor)
    member = await db.get(ClubMember, (club.id, account_id))
    if member is None:
        raise ApiError("not_member", "that account is not in the club", 404)
    if member.role == "owner" and await _owners(db, club.id) <= 1:
        raise ApiError("last_owner", "the club's last owner cannot go: promote another member "
                       "to owner first", 409)
    await db.execute(delete(ClubMember).where(
        ClubMember.club_id == club.id, ClubMember.account_id == account_id))
    await db.flush()


async def promote(db: AsyncSession, club: Club, owner: Account, account_id: str) -> None:
    await require_owner(db, club, owner)
    member = await db.get(ClubMember, (club.id, account_id))
    if member is None:
        raise ApiError("not_member", "that account is not in the club", 404)
    member.role = "owner"
    await db.flush()


async def my_clubs(db: AsyncSession, account_id: str) -> list[Membership]:
    rows = await db.execute(
        select(Club, ClubMember.role).join(ClubMember, ClubMember.club_id == Club.id)
        .where(ClubMember.account_id == account_id).order_by(Club.name_key)
        .limit(MAX_CLUBS_PER_ACCOUNT))
    return [Membership(club, role) for club, role in rows.all()]


async def my_invitations(db: AsyncSession, account_id: str, limit: int = 100
                         ) -> list[tuple[ClubInvite, Club, str]]:
    """Invitations to ``account_id``, newest first, with the club and the account's name."""
    rows = await db.execute(
        select(ClubInvite, Club, Account.name)
        .join(Club, Club.id == ClubInvite.club_id)
        .join(Account, Account.id == ClubInvite.account_id)
        .where(ClubInvite.account_id == account_id)
        .order_by(ClubInvite.created_at.desc()).limit(limit))
    return [(i, c, n) for i, c, n in rows.all()]


async def club_invitations(db: AsyncSession, club: Club, owner: Account
                           ) -> list[tuple[ClubInvite, str]]:
    """The club's standing invitations (at most :data:`MAX_INVITES`): owners only."""
    await require_owner(db, club, owner)
    rows = await db.execute(
        select(ClubInvite, Account.name).join(Account, Account.id == ClubInvite.account_id)
        .where(ClubInvite.club_id == club.id).order_by(ClubInvite.created_at)
        .limit(MAX_INVITES))
    return [(i, n) for i, n in rows.all()]


async def members(db: AsyncSession, club_id: str) -> list[tuple[ClubMember, str]]:
    rows = await db.execute(
        select(ClubMember, Account.name).join(Account, Account.id == ClubMember.account_id)
        .where(ClubMember.club_id == club_id)
        .order_by(ClubMember.role.desc(), ClubMember.joined_at, Account.name_key)
        .limit(MAX_MEMBERS))
    return [(m, n) for m, n in rows.all()]


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def search(db: AsyncSession, q: str | None, limit: int, offset: int
                 ) -> tuple[list[tuple[Club, int]], int]:
    """Clubs whose name or code contains ``q`` (any case), by name, one page; and how many
    match."""
    where = []
    if q:
        pattern = f"%{_escape_like(q.strip().casefold())}%"
        where.append(Club.name_key.like(pattern, escape="\\")
                     | func.lower(Club.code).like(pattern, escape="\\"))
    total = int(await db.scalar(select(func.count()).select_from(Club).where(*where)) or 0)
    counts = (select(ClubMember.club_id, func.count().label("n"))
              .group_by(ClubMember.club_id).subquery())
    rows = await db.execute(
        select(Club, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.club_id == Club.id)
        .where(*where).order_by(Club.name_key).limit(limit).offset(offset))
    return [(club, int(n)) for club, n in rows.all()], total


async def has_invite(db: AsyncSession, club_id: str, account_id: str) -> bool:
    return await db.get(ClubInvite, (club_id, account_id)) is not None
