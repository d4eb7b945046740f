"""What rooms ask of clubs: which club a side plays for, who may sit on it, and the record
of it written with each game.

``app.rooms.service`` imports this module, and it imports nothing above the models, so the
club schema sits below rooms the way seats do while the rest of clubs (pages, ratings) sits
above rooms and stats.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clubs.models import Club, ClubMember, GameClub
from app.errors import ApiError

SIDES = ("home", "away")


async def find_club(db: AsyncSession, ref: str) -> Club | None:
    """A club by id or by code (any case): codes are at most 4 characters and ids 16, so the
    two never meet."""
    return await db.scalar(select(Club).where(or_(Club.id == ref, Club.code == ref.upper())))


async def is_member(db: AsyncSession, club_id: str, account_id: str) -> bool:
    return await db.get(ClubMember, (club_id, account_id)) is not None


async def room_clubs(
    db: AsyncSession, account_id: str, wanted: Mapping[str, str | None], solo: bool
) -> tuple[dict[str, str], dict[str, Club]]:
    """Resolves a new room's ``clubs`` (side → club id or code) to club ids.

    Rules (docs/protocol.md, *Clubs*): each named club exists (404 ``club_not_found``); the two
    sides are different clubs (422 ``same_club``); no club in solo play (422 ``club_solo``: a
    club's record is games between people); and the creator belongs to at least one of them
    (403 ``not_member``): a room may put your club against another or against a pick-up
    side, but not two clubs you are in neither of against each other."""
    chosen = {side: ref for side, ref in wanted.items() if side in SIDES and ref}
    if not chosen:
        return {}, {}
    if solo:
        raise ApiError("club_solo", "clubs play people: a solo room has no clubs", 422)
    clubs: dict[str, Club] = {}
    for side, ref in chosen.items():
        club = await find_club(db, ref)
        if club is None:
            raise ApiError("club_not_found", f"no club {ref!r} (for {side})", 404)
        clubs[side] = club
    if len(clubs) == 2 and clubs["home"].id == clubs["away"].id:
        raise ApiError("same_club", "a club cannot play against itself", 422)
    if not any([await is_member(db, club.id, account_id) for club in clubs.values()]):
        raise ApiError("not_member", "you must be a member of one of the clubs you set", 403)
    return {side: club.id for side, club in clubs.items()}, clubs


def team_defaults(clubs: Mapping[str, Club], teams: Mapping[str, Any]) -> dict[str, Any]:
    """A club side's team name and colour default to the club's (names the creator typed
    stay)."""
    out = dict(teams)
    for side, club in clubs.items():
        out.setdefault(f"{side}_name", club.name[:24])
        out.setdefault(f"{side}_color", str(club.colors.get("primary", "")) or None)
    return {k: v for k, v in out.items() if v is not None}


async def check_seat(
    db: AsyncSession, clubs: Mapping[str, Any] | None, side: str, account_id: str
) -> None:
    """Only members of a side's club may sit on it (403 ``not_club_member``)."""
    club_id = (clubs or {}).get(side)
    if club_id and not await is_member(db, str(club_id), account_id):
        raise ApiError("not_club_member", f"the {side} side plays for a club you are not in",
                       403)


def write_game_clubs(db: AsyncSession, game_id: str, clubs: Mapping[str, Any] | None) -> None:
    """The club each side of a starting game plays for: what a club's record counts."""
    db.add_all(GameClub(game_id=game_id, side=side, club_id=str(club_id))
               for side, club_id in (clubs or {}).items() if side in SIDES and club_id)


async def briefs(db: AsyncSession, clubs: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Side → ``{id, name, code, colors}`` of a room's clubs, in one query."""
    ids = {str(v) for k, v in (clubs or {}).items() if k in SIDES and v}
    if not ids:
        return {}
    found = {c.id: c for c in await db.scalars(select(Club).where(Club.id.in_(ids)))}
    return {
        side: {"id": c.id, "name": c.name, "code": c.code, "colors": c.colors}
        for side, club_id in (clubs or {}).items()
        if side in SIDES and (c := found.get(str(club_id))) is not None
    }
