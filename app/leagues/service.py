"""Leagues: creating one, entering it, starting the season, opening each scheduled game as a
room, recording results, the deadline rule, the knock-out stage (docs/leagues.md).

Several processes share the database, so every change of state that two of them could make at
once is a conditional ``UPDATE`` on the row's status (``... WHERE status = 'forming'``,
``... WHERE status IN ('scheduled', 'live')``): exactly one wins, the other changes nothing.
The stage transitions (season over, semi-finals over) lock the league's row first, so two
games ending at once in two processes cannot both, or neither, see the last game decided.

This module depends on rooms (it opens rooms) and games (it reads them); neither knows it:
results come in through the game-end hook :func:`result_recorder`, registered by ``main.py``.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.clubs.models import Club, ClubMember
from app.db import utcnow
from app.editions.service import require_edition
from app.engine_catalog import EngineCatalog
from app.errors import ApiError
from app.games.hold import held_back
from app.games.hooks import FinishedGame, GameEndHook
from app.games.models import Game, Pitch
from app.leagues.models import League, LeagueEntrant, LeagueGame
from app.leagues.schedule import round_robin
from app.leagues.standings import Decided, standings
from app.rooms.models import Room
from app.rooms.service import check_options, edition_needed, new_invites
from app.seats.models import Seat
from app.settings import Settings

MAX_ENTRANTS = 24
"""A double round robin of 24 is 552 games: beyond that a season never ends."""
OPEN = ("scheduled", "live")
"""A scheduled game's statuses before it is decided."""


@dataclass(frozen=True)
class Entrant:
    id: int
    name: str
    club_id: str | None
    account_id: str | None
    code: str | None


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


async def get_league(db: AsyncSession, league_id: str, for_update: bool = False) -> League:
    league = await db.get(League, league_id, with_for_update=for_update or None)
    if league is None:
        raise ApiError("not_found", "no such league", 404)
    return league


def _signed_up(account: Account, doing: str) -> None:
    if account.is_guest:
        raise ApiError("guest", f"guests cannot {doing}: a league lasts days and a guest "
                       "account ends with its session; register, or set a password", 403)


async def create_league(
    db: AsyncSession, catalog: EngineCatalog, settings: Settings, account: Account,
    name: str, kind: str, options: dict[str, Any], entrant_type: str, rounds: int,
    deadline_hours: int, knockout: int,
) -> League:
    """The options are checked as a room's are (the engine starts a throw-away game with
    them), so every room the league opens later accepts them."""
    _signed_up(account, "create leagues")
    check_options(catalog, kind, options)
    if settings.require_edition_codes:
        edition = edition_needed(kind, options)
        if edition is not None:
            await require_edition(db, account.id, edition)
    display = " ".join(name.split())
    key = name_key(display)
    if await db.scalar(select(League.id).where(League.name_key == key)) is not None:
        raise _name_taken()
    league = League(
        id=secrets.token_urlsafe(9), name=display, name_key=key, kind=kind, options=options,
        entrant_type=entrant_type, rounds=rounds, deadline_hours=deadline_hours,
        knockout=knockout, status="forming", created_by=account.id, created_at=utcnow(),
    )
    db.add(league)
    try:
        await db.flush()
    except IntegrityError:  # the same name created a moment ago in parallel
        raise _name_taken() from None
    return league


def _name_taken() -> ApiError:
    return ApiError("name_taken", "a league of that name exists", 409)


async def enter(
    db: AsyncSession, league: League, account: Account, club_id: str | None
) -> LeagueEntrant:
    """A club's owner enters the club (club league); a player enters themself (player
    league); only while the league is forming.

    Entries at once must not overrun the cap nor slip in beside the start: the caller holds
    the league's row lock (PostgreSQL), and the cap and the status are checked again after
    the insert, when on SQLite the insert holds the database's one write lock."""
    _signed_up(account, "enter leagues")
    if league.status != "forming":
        raise ApiError("league_started", "the season has started: entries are closed", 409)
    if league.entrant_type == "club":
        if club_id is None:
            raise ApiError("club_required", "a club league is entered by a club: give club_id",
                           422)
        if await db.get(Club, club_id) is None:
            raise ApiError("not_found", "no such club", 404)
        member = await db.get(ClubMember, (club_id, account.id))
        if member is None or member.role != "owner":
            raise ApiError("not_club_owner", "only the club's owner may enter it", 403)
        taken = LeagueEntrant.club_id == club_id
    else:
        if club_id is not None:
            raise ApiError("not_club_league", "a player league is entered by players: leave "
                           "out club_id", 422)
        taken = LeagueEntrant.account_id == account.id
    if await db.scalar(select(LeagueEntrant.id).where(
            LeagueEntrant.league_id == league.id, taken)) is not None:
        raise ApiError("already_entered", "already in this league", 409)
    entrant = LeagueEntrant(
        league_id=league.id, club_id=club_id if league.entrant_type == "club" else None,
        account_id=account.id if league.entrant_type == "player" else None, joined_at=utcnow())
    db.add(entrant)
    try:
        await db.flush()
    except IntegrityError:
        raise ApiError("already_entered", "already in this league", 409) from None
    if await db.scalar(select(League.status).where(League.id == league.id)) != "forming":
        raise ApiError("league_started", "the season has started: entries are closed", 409)
    count = await db.scalar(
        select(func.count()).where(LeagueEntrant.league_id == league.id))
    if (count or 0) > MAX_ENTRANTS:  # the caller's session rolls the insert back
        raise ApiError("league_full", f"a league has at most {MAX_ENTRANTS} entrants", 409)
    return entrant


async def withdraw(db: AsyncSession, league: League, account: Account, entrant_id: int
                   ) -> None:
    """An entrant leaves while the league is forming: a player takes themself out, a club's
    owner the club. After the start the schedule is fixed, so an absent entrant's games are
    forfeits by the deadline rules instead."""
    entrant = await db.get(LeagueEntrant, entrant_id)
    if entrant is None or entrant.league_id != league.id:
        raise ApiError("not_found", "no such entrant in this league", 404)
    if entrant.club_id is not None:
        member = await db.get(ClubMember, (entrant.club_id, account.id))
        if member is None or member.role != "owner":
            raise ApiError("not_club_owner", "only the club's owner may withdraw it", 403)
    elif entrant.account_id != account.id:
        raise ApiError("not_entrant", "only the player may withdraw themself", 403)
    if league.status != "forming":
        raise ApiError("league_started", "the season has started: the field is fixed", 409)
    await db.delete(entrant)
    await db.flush()


async def entrants(db: AsyncSession, league_id: str) -> list[Entrant]:
    """The league's entrants in entry order, with their display names."""
    rows = (await db.execute(
        select(LeagueEntrant, Club.name, Club.code, Account.name)
        .outerjoin(Club, Club.id == LeagueEntrant.club_id)
        .outerjoin(Account, Account.id == LeagueEntrant.account_id)
        .where(LeagueEntrant.league_id == league_id)
        .order_by(LeagueEntrant.joined_at, LeagueEntrant.id)
    )).all()
    return [Entrant(e.id, club or player or "?", e.club_id, e.account_id, code)
            for e, club, code, player in rows]


async def my_entrants(db: AsyncSession, league_id: str, account: Account | None) -> list[int]:
    """The entrants ``account`` plays for: itself (player league) or its clubs."""
    if account is None:
        return []
    clubs = select(ClubMember.club_id).where(ClubMember.account_id == account.id)
    rows = await db.scalars(select(LeagueEntrant.id).where(
        LeagueEntrant.league_id == league_id,
        (LeagueEntrant.account_id == account.id) | LeagueEntrant.club_id.in_(clubs)))
    return list(rows)


async def start_season(
    db: AsyncSession, settings: Settings, league: League, account: Account,
    now: datetime | None = None,
) -> list[LeagueGame]:
    """The creator starts the season: the round robin is written, every game gets its room.

    All rounds open at once; round ``r`` must be played within ``r × deadline_hours`` of the
    start (docs/leagues.md, *Schedule*)."""
    if league.created_by != account.id:
        raise ApiError("not_creator", "only the league's creator may start it", 403)
    if league.status != "forming":
        raise ApiError("league_started", "the season has already started", 409)
    now = now or utcnow()
    # The status is set before the field is read: on SQLite this write takes the database's
    # write lock, so an entry is either committed before the read or refused after it
    # (:func:`enter` checks the status again after its insert).
    won = await db.execute(
        update(League).where(League.id == league.id, League.status == "forming")
        .values(status="season", started_at=now).execution_options(synchronize_session=False))
    if won.rowcount != 1:  # type: ignore[attr-defined]
        raise ApiError("league_started", "the season has already started", 409)
    field = await entrants(db, league.id)
    if len(field) < 2:
        raise ApiError("too_few_entrants", "a season needs at least two entrants", 409)
    if league.knockout > len(field):
        raise ApiError("too_few_entrants", f"a knock-out of {league.knockout} needs as many "
                       "entrants", 409)
    league.status, league.started_at = "season", now
    hours = timedelta(hours=league.deadline_hours)
    games = []
    for number, pairs in enumerate(round_robin(len(field), league.rounds), start=1):
        for home, away in pairs:
            games.append(LeagueGame(
                league_id=league.id, stage="season", round=number,
                home_entrant=field[home].id, away_entrant=field[away].id,
                opens_at=now, deadline_at=now + hours * number, status="scheduled"))
    db.add_all(games)
    await db.flush()
    by_id = {e.id: e for e in field}
    for game in games:
        await open_room(db, settings, league, game, by_id)
    await db.flush()
    return games


def league_timers(settings: Settings) -> dict[str, Any]:
    """A league room's timers: the server's defaults (nobody chooses them for a league)."""
    return {"response_seconds": settings.default_response_seconds,
            "roll_seconds": settings.default_roll_seconds,
            "auto_pass_ms": settings.auto_pass_ms,
            "computer_delay_ms": settings.computer_delay_ms}


async def open_room(
    db: AsyncSession, settings: Settings, league: League, game: LeagueGame,
    by_id: dict[int, Entrant],
) -> Room:
    """The private room a scheduled game is played in, for its two sides only: a club
    league's sides play for their clubs (``room.clubs``), a player league's sides are
    reserved for the two players (``room.reserved``); ``rooms.service.admit`` enforces both."""
    home, away = by_id[game.home_entrant], by_id[game.away_entrant]
    teams = {"home_name": home.name[:24], "away_name": away.name[:24]}
    room = Room(
        id=secrets.token_urlsafe(9), kind=league.kind, options=dict(league.options),
        teams=teams, invites=new_invites(), timers=league_timers(settings), private=True,
        status="open", computer=None, created_by=league.created_by, created_at=utcnow(),
        games_played=0,
    )
    if league.entrant_type == "club":
        room.clubs = {"home": home.club_id, "away": away.club_id}
    else:
        room.reserved = {"home": [home.account_id], "away": [away.account_id]}
    db.add(room)
    await db.flush()
    game.room_id = room.id
    return room


def _decided_by(reason: str) -> str:
    return reason if reason in ("resign", "claim") else "play"


async def _runs(db: AsyncSession, game_id: str, through: int | None = None) -> dict[str, int]:
    """Runs of each side in a game so far, from its pitch rows (a resigned or claimed game's
    result has no score; a game in progress has none yet), up to event ``through`` (a game in
    progress: what may be seen of it, ``app.games.hold``)."""
    query = select(Pitch.offense, func.coalesce(func.sum(Pitch.runs), 0)).where(
        Pitch.game_id == game_id)
    if through is not None:
        query = query.where(Pitch.seq <= through)
    rows = (await db.execute(query.group_by(Pitch.offense))).all()
    runs = {"home": 0, "away": 0}
    runs.update({side: int(n) for side, n in rows})
    return runs


async def _write(db: AsyncSession, game: LeagueGame, **values: Any) -> bool:
    """Decides a scheduled game once: the conditional ``UPDATE`` only one writer wins."""
    done = await db.execute(
        update(LeagueGame).where(LeagueGame.id == game.id, LeagueGame.status.in_(OPEN))
        .values(**values).execution_options(synchronize_session=False))
    if done.rowcount == 1:  # type: ignore[attr-defined]
        for key, value in values.items():
            setattr(game, key, value)
        return True
    return False


async def _record(db: AsyncSession, game: LeagueGame, game_id: str, result: dict[str, Any],
                  finished_at: datetime) -> bool:
    score = result.get("score") or {}
    runs = ({"home": int(score["home"]), "away": int(score["away"])}
            if "home" in score and "away" in score else await _runs(db, game_id))
    winner = result.get("winner")
    entrant = {"home": game.home_entrant, "away": game.away_entrant}.get(str(winner))
    return await _write(
        db, game, status="final", game_id=game_id, home_runs=runs["home"],
        away_runs=runs["away"], winner_entrant=entrant,
        decided_by=_decided_by(str(result.get("reason"))), finished_at=finished_at)


def result_recorder(settings: Settings) -> GameEndHook:
    """The game-end hook ``leagues.record_result``: the first game to end in a scheduled
    game's room is its result, written in the game's own transaction; later games there
    (a rematch, a game that went on past its deadline) change nothing."""

    async def record_result(db: AsyncSession, finished: FinishedGame) -> None:
        game = await db.scalar(select(LeagueGame).where(
            LeagueGame.room_id == finished.room_id, LeagueGame.status.in_(OPEN)))
        if game is None:
            return
        if await _record(db, game, finished.game_id, finished.result, finished.finished_at):
            await advance(db, settings, game.league_id, finished.finished_at)

    return record_result


async def decide(db: AsyncSession, settings: Settings, now: datetime | None = None
                 ) -> dict[str, int]:
    """The deadline rule for every game past its deadline (docs/leagues.md, *Deadline*), then
    each running league's stage transitions. Safe to run in several processes at once: each
    game is decided by one conditional ``UPDATE``. The caller commits."""
    now = now or utcnow()
    counts = {"live": 0, "final": 0, "forfeit": 0, "double_forfeit": 0, "tie": 0}
    started = (await db.execute(
        select(LeagueGame, Room.current_game_id)
        .join(Room, Room.id == LeagueGame.room_id)
        .where(LeagueGame.status == "scheduled", Room.games_played > 0))).all()
    for game, current in started:
        first = await _first_game(db, game.room_id) or current
        done = await db.execute(
            update(LeagueGame).where(LeagueGame.id == game.id, LeagueGame.status == "scheduled")
            .values(status="live", game_id=first).execution_options(synchronize_session=False))
        counts["live"] += done.rowcount  # type: ignore[attr-defined]
    due = (await db.scalars(
        select(LeagueGame).where(LeagueGame.status.in_(OPEN), LeagueGame.deadline_at <= now)
        .order_by(LeagueGame.id))).all()
    leagues = set()
    for game in due:
        outcome = await _apply_deadline(db, game, now)
        if outcome is not None:
            counts[outcome] += 1
            leagues.add(game.league_id)
    running = await db.scalars(select(League.id).where(League.status.in_(("season",
                                                                            "knockout"))))
    for league_id in sorted(set(running) | leagues):
        await advance(db, settings, league_id, now)
    return counts


async def _first_game(db: AsyncSession, room_id: str | None) -> str | None:
    if room_id is None:
        return None
    return await db.scalar(select(Game.id).where(Game.room_id == room_id, Game.number == 1))


async def _apply_deadline(db: AsyncSession, game: LeagueGame, now: datetime) -> str | None:
    """One game past its deadline: its finished game's result if it has one (a result the
    hook missed), else the score at the deadline of a game in progress, else the forfeit rule
    on who ever sat down in its room."""
    game_id = await _first_game(db, game.room_id)
    if game_id is not None:
        found = await db.get(Game, game_id)
        if found is not None and found.status == "finished" and found.result is not None:
            ok = await _record(db, game, game_id, found.result, found.finished_at or now)
            return "final" if ok else None
        runs = await _runs(db, game_id, None if found is None else held_back(found))
        winner = None
        if runs["home"] != runs["away"]:
            winner = game.home_entrant if runs["home"] > runs["away"] else game.away_entrant
        ok = await _write(db, game, status="final", game_id=game_id, home_runs=runs["home"],
                          away_runs=runs["away"], winner_entrant=winner, decided_by="deadline",
                          finished_at=now)
        return "final" if ok else None
    sat = set(await db.scalars(select(Seat.side).where(Seat.room_id == game.room_id)
                               .distinct())) if game.room_id else set()
    if sat == {"home"} or sat == {"away"}:
        (side,) = sat
        entrant = game.home_entrant if side == "home" else game.away_entrant
        values: dict[str, Any] = {"winner_entrant": entrant, "decided_by": "deadline"}
        outcome = "forfeit"
    elif sat:
        values = {"winner_entrant": None, "decided_by": "deadline"}
        outcome = "tie"
    else:
        values = {"winner_entrant": None, "decided_by": "no-show"}
        outcome = "double_forfeit"
    ok = await _write(db, game, status="forfeit", finished_at=now, **values)
    if ok and game.room_id is not None:  # nobody should start a game that no longer counts
        await db.execute(update(Room).where(Room.id == game.room_id, Room.status == "open")
                         .values(status="finished"))
    return outcome if ok else None


_STANDINGS: OrderedDict[str, tuple[Any, list[dict[str, Any]]]] = OrderedDict()
CACHED_STANDINGS = 64


async def season_standings(db: AsyncSession, league_id: str, cache: bool = True
                           ) -> list[dict[str, Any]]:
    """The season's table. The ranked rows are kept per process while the league's decided
    games are unchanged (how many, the newest decision, the entrants): a decision changes
    that, so no process serves a stale table; names are read fresh every time. ``cache``
    false: inside a transaction that may still roll back (seeding the knock-out)."""
    field = await entrants(db, league_id)
    decided = (LeagueGame.league_id == league_id, LeagueGame.stage == "season",
               LeagueGame.status.in_(("final", "forfeit")))
    version = (tuple((await db.execute(
        select(func.count(), func.max(LeagueGame.finished_at), func.max(LeagueGame.id))
        .where(*decided))).one()), tuple(e.id for e in field))
    cached = _STANDINGS.get(league_id)
    if cache and cached is not None and cached[0] == version:
        rows = cached[1]
    else:
        games = (await db.execute(select(
            LeagueGame.id, LeagueGame.home_entrant, LeagueGame.away_entrant,
            LeagueGame.winner_entrant, LeagueGame.home_runs, LeagueGame.away_runs,
            LeagueGame.decided_by, LeagueGame.status, LeagueGame.finished_at)
            .where(*decided))).all()
        rows = standings([e.id for e in field], [
            Decided(id=g.id, home=g.home_entrant, away=g.away_entrant, winner=g.winner_entrant,
                    home_runs=g.home_runs, away_runs=g.away_runs,
                    decided_by=g.decided_by or "", status=g.status, finished_at=g.finished_at)
            for g in games])
        if cache:
            _STANDINGS[league_id] = (version, rows)
        while len(_STANDINGS) > CACHED_STANDINGS:
            _STANDINGS.popitem(last=False)
    names = {e.id: e.name for e in field}
    return [{**row, "name": names[row["entrant_id"]]} for row in rows]


def advances(game: LeagueGame) -> int:
    """Who goes on from a knock-out game: the winner; on a tie or a double forfeit the higher
    seed, who is always at home (docs/leagues.md, *Knock-out*)."""
    return game.winner_entrant if game.winner_entrant is not None else game.home_entrant


async def advance(db: AsyncSession, settings: Settings, league_id: str, now: datetime) -> None:
    """Moves a league on when its stage is over: season → knock-out (or finished), semi-finals
    → final, final → finished. Locks the league's row first (see the module's docstring)."""
    league = await db.scalar(select(League).where(League.id == league_id).with_for_update()
                             .execution_options(populate_existing=True))
    if league is None or league.status not in ("season", "knockout"):
        return
    stage = "season" if league.status == "season" else "knockout"
    games = list(await db.scalars(select(LeagueGame).where(
        LeagueGame.league_id == league_id, LeagueGame.stage == stage)
        .execution_options(populate_existing=True)))
    if any(g.status in OPEN for g in games):
        return
    by_id = {e.id: e for e in await entrants(db, league_id)}
    hours = timedelta(hours=league.deadline_hours)
    if stage == "season":
        if league.knockout == 0:
            league.status = "finished"
            return
        table = await season_standings(db, league_id, cache=False)
        seeds = [int(row["entrant_id"]) for row in table[:league.knockout]]
        pairs = [(seeds[0], seeds[3]), (seeds[1], seeds[2])] if league.knockout == 4 \
            else [(seeds[0], seeds[1])]
        league.status = "knockout"
        await _knockout_round(db, settings, league, 1, pairs, now, hours, by_id)
        return
    last = max(g.round for g in games)
    final_round = [g for g in games if g.round == last]
    if len(final_round) == 1:
        league.status = "finished"
        return
    seeded = await knockout_seeds(db, league_id)
    winners = sorted((advances(g) for g in final_round), key=lambda e: seeded.get(e, 99))
    await _knockout_round(db, settings, league, last + 1, [(winners[0], winners[1])], now,
                          hours, by_id)


async def _knockout_round(
    db: AsyncSession, settings: Settings, league: League, number: int,
    pairs: Sequence[tuple[int, int]], now: datetime, hours: timedelta,
    by_id: dict[int, Entrant],
) -> None:
    for home, away in pairs:
        game = LeagueGame(league_id=league.id, stage="knockout", round=number,
                          home_entrant=home, away_entrant=away, opens_at=now,
                          deadline_at=now + hours, status="scheduled")
        db.add(game)
        await db.flush()
        await open_room(db, settings, league, game, by_id)
    await db.flush()


async def knockout_seeds(db: AsyncSession, league_id: str) -> dict[int, int]:
    """Seed of each entrant in the knock-out (1 best), read from its first round: home of
    the first game is seed 1, away of the last is the lowest."""
    first = list(await db.scalars(select(LeagueGame).where(
        LeagueGame.league_id == league_id, LeagueGame.stage == "knockout",
        LeagueGame.round == 1).order_by(LeagueGame.id)))
    seeds: dict[int, int] = {}
    for i, game in enumerate(first):
        seeds[game.home_entrant] = i + 1
        seeds[game.away_entrant] = 2 * len(first) - i
    return seeds


async def champion(db: AsyncSession, league: League) -> int | None:
    if league.status != "finished":
        return None
    if league.knockout:
        final = await db.scalar(select(LeagueGame).where(
            LeagueGame.league_id == league.id, LeagueGame.stage == "knockout")
            .order_by(LeagueGame.round.desc(), LeagueGame.id.desc()).limit(1))
        return advances(final) if final is not None else None
    table = await season_standings(db, league.id)
    return int(table[0]["entrant_id"]) if table else None


async def schedule(db: AsyncSession, league_id: str) -> list[tuple[LeagueGame, str | None]]:
    """Every scheduled game in order, with its room's status (a game whose room has a game
    on is shown live before the deadline job has noticed)."""
    rows = (await db.execute(
        select(LeagueGame, Room.status, Room.current_game_id)
        .outerjoin(Room, Room.id == LeagueGame.room_id)
        .where(LeagueGame.league_id == league_id)
        .order_by(LeagueGame.stage.desc(), LeagueGame.round, LeagueGame.id))).all()
    return [(game, current if status in ("live", "finished") else None)
            for game, status, current in rows]


async def list_leagues(db: AsyncSession, status: str | None, limit: int, offset: int
                       ) -> list[tuple[League, int]]:
    count = (select(func.count()).where(LeagueEntrant.league_id == League.id)
             .correlate(League).scalar_subquery())
    query = select(League, count).order_by(League.created_at.desc(), League.id)
    if status is not None:
        query = query.where(League.status == status)
    return [(league, int(n)) for league, n in
            (await db.execute(query.limit(limit).offset(offset))).all()]
