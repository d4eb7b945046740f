"""``/api/leagues``: create, list, details, enter, start the season, schedule, standings,
leaders. Reading is public (a league is a public competition); changing needs the roles in
docs/security.md."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Path, Query
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.context import ServerContext
from app.deps import Ctx, CurrentAccount, Db, MaybeAccount
from app.leagues import leaders as league_leaders
from app.leagues import service
from app.leagues.models import League, LeagueGame
from app.leagues.schemas import (
    EnterRequest,
    EntrantOut,
    LeadersOut,
    LeagueCreate,
    LeagueOut,
    LeagueSummary,
    ScheduledGameOut,
    StandingOut,
)

router = APIRouter(prefix="/api/leagues", tags=["leagues"])


async def league_out(db: AsyncSession, league: League, account: Account | None) -> LeagueOut:
    seeds = await service.knockout_seeds(db, league.id)
    return LeagueOut(
        id=league.id, name=league.name, kind=league.kind, options=league.options,
        entrant_type=league.entrant_type,
        rounds=league.rounds, deadline_hours=league.deadline_hours, knockout=league.knockout,
        status=league.status,
        created_by=league.created_by, created_at=league.created_at,
        started_at=league.started_at,
        entrants=[EntrantOut(id=e.id, name=e.name, club_id=e.club_id, account_id=e.account_id,
                             code=e.code, seed=seeds.get(e.id))
                  for e in await service.entrants(db, league.id)],
        champion=await service.champion(db, league),
        mine=await service.my_entrants(db, league.id, account),
    )


@router.post("", response_model=LeagueOut, status_code=201)
async def create_league(body: LeagueCreate, ctx: Ctx, db: Db, account: CurrentAccount
                        ) -> LeagueOut:
    """Guests may not (403 ``guest``); the name is unique case-insensitively (409
    ``name_taken``); the options are checked by the engine (422 ``invalid_options``)."""
    league = await service.create_league(
        db, ctx.catalog, ctx.settings, account, body.name, body.kind,
        body.options.for_engine(), body.entrant_type, body.rounds, body.deadline_hours,
        body.knockout)
    await db.commit()
    return await league_out(db, league, account)


@router.get("", response_model=list[LeagueSummary])
async def list_leagues(
    db: Db, status: Literal["forming", "season", "knockout", "finished"] | None = None,
    limit: int = Query(50, ge=1, le=100), offset: int = Query(0, ge=0, le=10_000),
) -> list[LeagueSummary]:
    """Newest first."""
    return [
        LeagueSummary(id=lg.id, name=lg.name, kind=lg.kind,
                      entrant_type=lg.entrant_type,
                      status=lg.status,
                      entrants=n, created_at=lg.created_at)
        for lg, n in await service.list_leagues(db, status, limit, offset)
    ]


@router.get("/{league_id}", response_model=LeagueOut)
async def league_details(league_id: str, db: Db, account: MaybeAccount) -> LeagueOut:
    return await league_out(db, await service.get_league(db, league_id), account)


@router.post("/{league_id}/entrants", response_model=LeagueOut, status_code=201)
async def enter(league_id: str, body: EnterRequest, db: Db, account: CurrentAccount
                ) -> LeagueOut:
    """Enter your club (club league, owners only: 403 ``not_club_owner``) or yourself
    (player league), while the league is forming (409 ``league_started``)."""
    league = await service.get_league(db, league_id, for_update=True)
    await service.enter(db, league, account, body.club_id)
    await db.commit()
    return await league_out(db, league, account)


@router.delete("/{league_id}/entrants/{entrant_id}", response_model=LeagueOut)
async def withdraw(
    league_id: str, db: Db, account: CurrentAccount,
    entrant_id: int = Path(ge=1, le=2**31 - 1),
) -> LeagueOut:
    """Withdraw an entrant while the league is forming (409 ``league_started``): yourself
    (403 ``not_entrant`` for another player) or a club you own (403 ``not_club_owner``)."""
    league = await service.get_league(db, league_id, for_update=True)
    await service.withdraw(db, league, account, entrant_id)
    await db.commit()
    return await league_out(db, league, account)


@router.post("/{league_id}/start", response_model=LeagueOut)
async def start(league_id: str, ctx: Ctx, db: Db, account: CurrentAccount) -> LeagueOut:
    """The creator starts the season (403 ``not_creator``): the round robin is scheduled and
    every game gets a private room for its two sides."""
    league = await service.get_league(db, league_id, for_update=True)
    await service.start_season(db, ctx.settings, league, account)
    await db.commit()
    return await league_out(db, league, account)


def _game_out(ctx: ServerContext, game: LeagueGame, current: str | None,
              mine: set[int]) -> ScheduledGameOut:
    base = ctx.settings.public_url.rstrip("/")
    status = game.status
    if status == "scheduled" and current is not None:
        status = "live"
    playable = game.status in service.OPEN and game.room_id is not None and bool(
        mine & {game.home_entrant, game.away_entrant})
    shown = game.game_id or current
    return ScheduledGameOut(
        id=game.id, stage=game.stage,
        round=game.round, home=game.home_entrant, away=game.away_entrant,
        opens_at=game.opens_at, deadline_at=game.deadline_at, room_id=game.room_id,
        game_id=game.game_id, status=status,
        home_runs=game.home_runs, away_runs=game.away_runs, winner=game.winner_entrant,
        decided_by=game.decided_by, finished_at=game.finished_at,
        play_url=f"{base}/rooms/{game.room_id}" if playable else None,
        box_score_url=f"{base}/games/{shown}" if shown else None,
    )


@router.get("/{league_id}/schedule", response_model=list[ScheduledGameOut])
async def schedule(league_id: str, ctx: Ctx, db: Db, account: MaybeAccount
                   ) -> list[ScheduledGameOut]:
    """Every game, season first, by round; ``play_url`` only for the caller's open games."""
    league = await service.get_league(db, league_id)
    mine = set(await service.my_entrants(db, league.id, account))
    return [_game_out(ctx, game, current, mine)
            for game, current in await service.schedule(db, league.id)]


@router.get("/{league_id}/standings", response_model=list[StandingOut])
async def standings(league_id: str, db: Db) -> list[StandingOut]:
    """The season's table, ranked by the rules in docs/leagues.md."""
    league = await service.get_league(db, league_id)
    return [StandingOut(**row) for row in await service.season_standings(db, league.id)]


@router.get("/{league_id}/leaders", response_model=LeadersOut)
async def leaders(league_id: str, db: Db) -> LeadersOut:
    """Per player over the league's finished games: AVG, OBP, SLG (qualified), HR, SB, K,
    pitchers' K, card and challenge success rates."""
    league = await service.get_league(db, league_id)
    return LeadersOut(**await league_leaders.leaders(db, league.id))
