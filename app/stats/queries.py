"""Player stats, leaderboard and rating history by SQL, for pages that must answer fast.

The numbers follow :mod:`app.stats.players` and :mod:`app.stats.boxscore` (the tests compare
both on the same games): one aggregate over the ``pitch`` table joined to ``game_player`` for the
account's side, with each pitch counted for its offense's batting line and its defense's
pitching line. ``pitch.thrown`` / ``pitch.strike`` hold :func:`app.records.calls.pitch_thrown`
and :func:`~app.records.calls.is_strike`, computed when the row is written, so strike % needs
no JSON in SQL. Card usage, challenge success and SB / CS are a second aggregate over the
``pitch_play`` table (one row per card played and per challenge made, its outcome and steals
computed by :mod:`app.records.plays` when the pitch row is written; :func:`card_stats_by_pool`):
cards and challenges count for the side that played or made them, SB / CS for the pitch's
offense. The Bottom of the 9th extras (stare-down reads, races, fatigue, relief, benching) are a
third aggregate over typed ``pitch`` columns written with the row
(:func:`app.games.pitches.ninth_columns`); relief and benching, which compare consecutive
stare-downs, use a ``lag`` window over the game's rows (:func:`ninth_stats_sql`).

Only ``finished`` games count (a claimed game is stored as finished, its winner the claimant);
a game's pool is :func:`app.stats.store.game_pool`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, case, func, literal, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.games.models import Game, GamePlayer, Pitch, PitchPlay
from app.stats import ratings
from app.stats.boxscore import HITS, NOT_AT_BAT, STRIKEOUTS, BattingLine, PitchingLine
from app.stats.cards import CardUsage
from app.stats.models import PlayerRating, RatingHistory
from app.stats.players import NinthStats
from app.stats.store import DEFAULT_TIER

GAMES = ("base-on-board", "bottom-of-the-9th")


def parse_pool(pool: str) -> tuple[str, str | None]:
    kind, _, tier = pool.partition(":")
    return kind, tier or None


def _tier_column() -> ColumnElement[str]:
    return func.coalesce(Game.options["tier"].as_string(), literal(DEFAULT_TIER))


def _pool_filter(pool: str) -> ColumnElement[bool]:
    kind, tier = parse_pool(pool)
    if tier is None:
        return Game.kind == kind
    return and_(Game.kind == kind, _tier_column() == tier)


def _n(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _sum(condition: ColumnElement[bool], value: Any) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, value), else_=0)), 0)


async def player_pools(db: AsyncSession, account_id: str) -> list[str]:
    """The pools of the account's finished games."""
    rows = (await db.execute(
        select(Game.kind, _tier_column())
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.account_id == account_id, Game.status == "finished")
        .distinct()
    )).all()
    pools = {f"{kind}:{tier}" if kind == "base-on-board" else kind for kind, tier in rows}
    return sorted(pools)


def _pool_column() -> ColumnElement[str]:
    """The pool of a game in SQL, as :func:`app.stats.store.game_pool` computes it."""
    return case(
        (Game.kind == "base-on-board", Game.kind + ":" + _tier_column()), else_=Game.kind
    )


def _stat_columns() -> dict[str, ColumnElement[int]]:
    bat = Pitch.offense == GamePlayer.side
    pit = Pitch.defense == GamePlayer.side
    pa = Pitch.pa_result
    winner = Game.result["winner"].as_string()
    return {
        "games": func.count(Game.id.distinct()),
        "wins": func.count(case((winner == GamePlayer.side, Game.id)).distinct()),
        "ties": func.count(case((winner.is_(None), Game.id)).distinct()),
        "runs_for": _sum(bat, Pitch.runs), "runs_against": _sum(pit, Pitch.runs),
        # batting (the account's side at bat)
        "pa": _n(and_(bat, pa.is_not(None))),
        "ab": _n(and_(bat, pa.is_not(None), pa.not_in(sorted(NOT_AT_BAT)))),
        "h": _n(and_(bat, pa.in_(sorted(HITS)))),
        "doubles": _n(and_(bat, pa == "2B")), "triples": _n(and_(bat, pa == "3B")),
        "hr": _n(and_(bat, pa == "HR")), "bb": _n(and_(bat, pa == "BB")),
        "hbp": _n(and_(bat, pa == "HBP")), "k": _n(and_(bat, pa.in_(sorted(STRIKEOUTS)))),
        "r": _sum(bat, Pitch.runs), "rbi": _sum(bat, Pitch.rbi),
        "sf": _n(and_(bat, pa == "SF")), "sac": _n(and_(bat, pa == "SAC")),
        "ci": _n(and_(bat, pa == "CI")), "roe": _n(and_(bat, pa == "E")),
        # pitching (the account's side in the field)
        "p_pitches": _n(and_(pit, Pitch.thrown)), "p_strikes": _n(and_(pit, Pitch.strike)),
        "p_bf": _n(and_(pit, pa.is_not(None))),
        "p_outs": _sum(and_(pit, Pitch.outs_after > Pitch.outs), Pitch.outs_after - Pitch.outs),
        "p_k": _n(and_(pit, pa.in_(sorted(STRIKEOUTS)))), "p_bb": _n(and_(pit, pa == "BB")),
        "p_hbp": _n(and_(pit, pa == "HBP")), "p_h": _n(and_(pit, pa.in_(sorted(HITS)))),
        "p_hr": _n(and_(pit, pa == "HR")), "p_r": _sum(pit, Pitch.runs),
    }


_STAT_KEYS = tuple(_stat_columns())
BATTING_KEYS = ("pa", "ab", "h", "doubles", "triples", "hr", "bb", "hbp", "k", "r", "rbi", "sf",
            "sac", "ci", "roe")
STAT_KEYS = _STAT_KEYS
"""The keys of the counting stats :func:`stat_lines` reads, in order."""


def pool_column() -> ColumnElement[str]:
    """The pool of a game in SQL (:func:`app.stats.store.game_pool`), for other domains'
    aggregates grouped like the player pages'."""
    return _pool_column()


def side_steal_columns(side: Any) -> dict[str, ColumnElement[int]]:
    """SB and CS credited to the side ``side`` names as the offense, over joined
    ``pitch_play`` rows (as :func:`card_stats_by_pool` counts them for an account)."""
    batting = PitchPlay.offense == side
    return {"sb": _sum(batting, PitchPlay.sb), "cs": _sum(batting, PitchPlay.cs)}


def stat_lines(v: Mapping[str, int], sb: int, cs: int) -> dict[str, Any]:
    """Record, runs, batting and pitching lines from the counting stats of :data:`STAT_KEYS`
    (one row of the player query, or the club page's fold; losses are what is neither a win
    nor a tie)."""
    batting = BattingLine(**{k: v[k] for k in BATTING_KEYS}, sb=sb, cs=cs).to_json()
    pitching = PitchingLine(**{k[2:]: v[k] for k in STAT_KEYS if k.startswith("p_")})
    return {
        "games": v["games"], "wins": v["wins"], "ties": v["ties"],
        "losses": v["games"] - v["wins"] - v["ties"],
        "runs_for": v["runs_for"], "runs_against": v["runs_against"],
        "batting": batting, "pitching": pitching.to_json(),
    }


@cache
def _stats_query(pools: tuple[str, ...] | None) -> Any:
    """Built once per pool filter (building it costs more than running it); the account is
    the ``account_id`` parameter."""
    columns = _stat_columns()
    pool_column = _pool_column()
    query = (
        select(pool_column.label("pool"), *(c.label(k) for k, c in columns.items()))
        .select_from(GamePlayer)
        .join(Game, Game.id == GamePlayer.game_id)
        .outerjoin(Pitch, Pitch.game_id == GamePlayer.game_id)
        .where(GamePlayer.account_id == bindparam("account_id"), Game.status == "finished")
        .group_by(pool_column)
    )
    if pools is not None:
        query = query.where(or_(*(_pool_filter(pool) for pool in pools)))
    return query


async def player_stats_by_pool(
    db: AsyncSession, account_id: str, pools: Sequence[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Games, W/L/T, runs, batting and pitching lines of one account, per pool (every pool it
    played, or the given ones), in one grouped aggregate over its games' pitch rows."""
    query = _stats_query(None if pools is None else tuple(pools))
    columns = _STAT_KEYS
    found = {
        row.pool: row for row in (await db.execute(query, {"account_id": account_id})).all()
    }
    cards = await card_stats_by_pool(db, account_id, pools)
    out = {}
    for pool in sorted(found) if pools is None else pools:
        row = found.get(pool)
        v = {k: int(row._mapping[k]) if row is not None else 0 for k in columns}
        usage, sb, cs = cards.get(pool, (CardUsage.empty(), 0, 0))
        out[pool] = {
            "pool": pool, **stat_lines(v, sb, cs), **usage.to_json(),
            "bottom_of_the_9th": (await ninth_stats_sql(db, account_id)).to_json()
            if pool == NINTH else None,
        }
    return out


@cache
def _cards_query(pools: tuple[str, ...] | None) -> Any:
    """Plays of the account's finished games, per pool, kind and code: the account's side's
    plays and successes, and the steals credited to it as the offense."""
    mine = PitchPlay.side == GamePlayer.side
    steals = side_steal_columns(GamePlayer.side)
    pool_column = _pool_column()
    query = (
        select(
            pool_column.label("pool"), PitchPlay.kind, PitchPlay.code,
            _n(mine).label("played"), _n(and_(mine, PitchPlay.succeeded)).label("succeeded"),
            steals["sb"].label("sb"), steals["cs"].label("cs"),
        )
        .select_from(GamePlayer)
        .join(Game, Game.id == GamePlayer.game_id)
        .join(PitchPlay, PitchPlay.game_id == GamePlayer.game_id)
        .where(GamePlayer.account_id == bindparam("account_id"), Game.status == "finished")
        .group_by(pool_column, PitchPlay.kind, PitchPlay.code)
    )
    if pools is not None:
        query = query.where(or_(*(_pool_filter(pool) for pool in pools)))
    return query


async def card_stats_by_pool(
    db: AsyncSession, account_id: str, pools: Sequence[str] | None = None
) -> dict[str, tuple[CardUsage, int, int]]:
    """All-time card usage and challenges of the account's side, and its SB / CS, per pool
    (only pools with plays), from ``pitch_play``: the numbers of :mod:`app.records.plays`."""
    query = _cards_query(None if pools is None else tuple(pools))
    out: dict[str, tuple[CardUsage, int, int]] = {}
    for row in (await db.execute(query, {"account_id": account_id})).all():
        usage, sb, cs = out.get(row.pool, (CardUsage.empty(), 0, 0))
        played, succeeded = int(row.played), int(row.succeeded)
        if row.kind == "challenge":
            usage.challenges += played
            usage.challenges_won += succeeded
        elif played:
            usage.played[row.code] += played
            usage.succeeded[row.code] += succeeded
        out[row.pool] = (usage, sb + int(row.sb), cs + int(row.cs))
    return out


NINTH = "bottom-of-the-9th"


@cache
def _ninth_query() -> Any:
    """Bottom of the 9th extras of the account's finished games, as
    :func:`app.stats.players.ninth_stats` counts them for its side. Relief and benching compare a
    stare-down's fatigue rows and pitcher with the previous stare-down that had fatigue rows for
    the same defense in the game: ``lag`` over the rows partitioned by game, defense and whether
    the row has fatigue, so only rows with fatigue see each other."""
    tired = Pitch.fatigue_direction.is_not(None)
    partition = (Pitch.game_id, Pitch.defense, tired)

    def lag(column: Any) -> Any:
        return func.lag(column).over(partition_by=partition, order_by=Pitch.seq)

    mine = select(GamePlayer.game_id).where(GamePlayer.account_id == bindparam("account_id"))
    rows = (
        select(
            Pitch.game_id, Pitch.defense, Pitch.direction_read, Pitch.location_read,
            Pitch.race_winner, Pitch.fatigue_direction, Pitch.fatigue_location,
            tired.label("tired"),
            func.row_number().over(partition_by=partition, order_by=Pitch.seq).label("n"),
            Pitch.pitcher.is_distinct_from(lag(Pitch.pitcher)).label("changed"),
            or_(Pitch.fatigue_direction < lag(Pitch.fatigue_direction),
                Pitch.fatigue_location < lag(Pitch.fatigue_location)).label("recovered"),
        )
        .where(Pitch.kind == NINTH, Pitch.game_id.in_(mine))
        .subquery()
    )
    stare = rows.c.direction_read.is_not(None)
    pitching = and_(rows.c.tired, rows.c.defense == GamePlayer.side)
    relieved = and_(pitching, rows.c.n > 1)
    top = case((rows.c.fatigue_direction >= rows.c.fatigue_location, rows.c.fatigue_direction),
               else_=rows.c.fatigue_location)
    return (
        select(
            _n(stare).label("stares"),
            _n(and_(stare, rows.c.direction_read)).label("direction_reads"),
            _n(and_(stare, rows.c.location_read)).label("location_reads"),
            _n(and_(stare, rows.c.direction_read, rows.c.location_read)).label("full_reads"),
            _n(rows.c.race_winner.is_not(None)).label("races"),
            _n(rows.c.race_winner == GamePlayer.side).label("race_wins"),
            func.coalesce(func.max(case((pitching, top))), 0).label("max_fatigue"),
            _n(and_(relieved, rows.c.changed)).label("benched"),
            _n(and_(relieved, ~rows.c.changed, rows.c.recovered)).label("recoveries"),
        )
        .select_from(GamePlayer)
        .join(Game, Game.id == GamePlayer.game_id)
        .join(rows, rows.c.game_id == GamePlayer.game_id)
        .where(GamePlayer.account_id == bindparam("account_id"), Game.status == "finished",
               Game.kind == NINTH)
    )


async def ninth_stats_sql(db: AsyncSession, account_id: str) -> NinthStats:
    """All-time Bottom of the 9th extras of the account's side (stare-downs and reads, races,
    max fatigue, relief, benching): :func:`app.stats.players.ninth_stats` summed over its
    finished games, in SQL over the ``pitch`` columns ``pitch_row`` writes."""
    row = (await db.execute(_ninth_query(), {"account_id": account_id})).one()
    return NinthStats(**{f.name: int(row._mapping[f.name] or 0) for f in fields(NinthStats)})


async def player_stats_sql(db: AsyncSession, account_id: str, pool: str) -> dict[str, Any]:
    """:func:`player_stats_by_pool` of one pool."""
    return (await player_stats_by_pool(db, account_id, [pool]))[pool]


async def leaderboard(
    db: AsyncSession, pool: str, now: datetime, limit: int = 50,
    active_days: int = ratings.ACTIVE_DAYS,
) -> list[dict[str, Any]]:
    """:func:`app.stats.ratings.leaderboard` over the stored ratings, in SQL."""
    ordinal = PlayerRating.mu - 3.0 * PlayerRating.sigma
    rows = (await db.execute(
        select(PlayerRating, Account.name)
        .join(Account, Account.id == PlayerRating.account_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.last_played >= now - timedelta(days=active_days),
            PlayerRating.games >= ratings.MIN_GAMES,
            PlayerRating.sigma <= ratings.PROVISIONAL_SIGMA,
        )
        .order_by(ordinal.desc(), PlayerRating.games.desc(), PlayerRating.account_id)
        .limit(limit)
    )).all()
    return [
        {"rank": i + 1, "name": name, **_rating(row).to_json()}
        for i, (row, name) in enumerate(rows)
    ]


def _rating(row: PlayerRating) -> ratings.Rating:
    return ratings.Rating(row.mu, row.sigma, row.games, row.last_played)


async def player_ratings(db: AsyncSession, account_id: str) -> dict[str, dict[str, Any]]:
    rows = await db.scalars(select(PlayerRating).where(PlayerRating.account_id == account_id))
    return {row.pool: _rating(row).to_json() for row in rows}


async def rating_history(
    db: AsyncSession, account_id: str, limit: int = 500
) -> dict[str, list[dict[str, Any]]]:
    """The rating after each rated game, per pool, oldest first (the last ``limit``)."""
    rows = (await db.execute(
        select(RatingHistory)
        .where(RatingHistory.account_id == account_id)
        .order_by(RatingHistory.id.desc())
        .limit(limit)
    )).scalars().all()
    out: dict[str, list[dict[str, Any]]] = {}
    for row in reversed(rows):
        rating = ratings.Rating(row.mu, row.sigma, row.games, row.played_at)
        out.setdefault(row.pool, []).append({"game_id": row.game_id, **rating.to_json()})
    return out


async def recent_games(
    db: AsyncSession, account_id: str, limit: int = 20
) -> list[dict[str, Any]]:
    rows = (await db.execute(
        select(Game.id, Game.kind, Game.options, Game.result, Game.finished_at, GamePlayer.side)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.account_id == account_id, Game.status == "finished")
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(limit)
    )).all()
    out = []
    for game_id, kind, options, result, finished, side in rows:
        winner = (result or {}).get("winner")
        out.append({
            "game_id": game_id, "kind": kind, "tier": (options or {}).get("tier"),
            "side": side, "result": result,
            "outcome": "tie" if winner is None else ("win" if winner == side else "loss"),
            "finished_at": finished.isoformat() if finished else None,
        })
    return out


def pools_of(game: str | None, tier: str | None) -> Sequence[str] | None:
    if game is None:
        return None
    if game == "base-on-board":
        return [ratings.pool(game, tier or DEFAULT_TIER)]
    return [ratings.pool(game)]


_DICE_COUNTS = {
    "postgresql": (
        "SELECT d ->> 'die', d ->> 'face', count(*) FROM pitch p"
        " CROSS JOIN LATERAL jsonb_array_elements(p.dice) AS d"
        " WHERE p.game_id IN :ids GROUP BY 1, 2"
    ),
    "sqlite": (
        "SELECT json_extract(d.value, '$.die'), json_extract(d.value, '$.face'), count(*)"
        " FROM pitch p, json_each(p.dice) AS d WHERE p.game_id IN :ids GROUP BY 1, 2"
    ),
}


async def dice_counts(db: AsyncSession, game_ids: Sequence[str]) -> dict[str, dict[str, int]]:
    """How often each face of each die came up in these games, counted by the database: the
    pitch rows themselves never come into Python (a player's page may cover a thousand
    games)."""
    if not game_ids:
        return {}
    statement = text(_DICE_COUNTS[db.get_bind().dialect.name]).bindparams(
        bindparam("ids", expanding=True))
    counts: dict[str, dict[str, int]] = {}
    for start in range(0, len(game_ids), 500):
        rows = await db.execute(statement, {"ids": list(game_ids[start:start + 500])})
        for die, face, n in rows:
            faces = counts.setdefault(str(die), {})
            faces[str(face)] = faces.get(str(face), 0) + int(n)
    return counts
