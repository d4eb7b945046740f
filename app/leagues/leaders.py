"""League leaders: per player, over the league's finished games, in SQL (docs/leagues.md).

The lines are the ones :mod:`app.stats.queries` computes for a player page (each account is
credited with its side's whole line, as there), restricted to the league's game ids. To stay
fast over a season of hundreds of games the pitch rows are summed once per game and side, and
only those few hundred sums are joined to ``game_player``: a pitch row is read once however
many accounts sat on its side.

Rate leaders (AVG, OBP, SLG) need ``MIN_PA_PER_GAME`` plate appearances per game of an
average entrant (as baseball's 3.1 per team game); card and challenge success rates need
``MIN_CARDS`` cards and ``MIN_CHALLENGES`` challenges.
"""

from __future__ import annotations

import math
from collections import OrderedDict, defaultdict
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.games.models import Game, GamePlayer, Pitch, PitchPlay
from app.leagues.models import LeagueEntrant, LeagueGame
from app.stats.boxscore import HITS, NOT_AT_BAT, STRIKEOUTS, BattingLine
from app.stats.queries import _n

MIN_PA_PER_GAME = 3
MIN_CARDS = 10
MIN_CHALLENGES = 3
TOP = 10

BATTING = ("pa", "ab", "h", "doubles", "triples", "hr", "bb", "hbp", "k", "r", "rbi", "sf",
           "sac", "ci", "roe")


def _league_games(league_id: str) -> Any:
    return (
        select(LeagueGame.game_id)
        .join(Game, Game.id == LeagueGame.game_id)
        .where(LeagueGame.league_id == league_id, Game.status == "finished")
    )


def _side_lines(league_id: str) -> Any:
    """One row per (game, side at bat): that side's batting counts, which are also the other
    side's pitching against."""
    pa = Pitch.pa_result
    columns = {
        "pa": _n(pa.is_not(None)),
        "ab": _n(and_(pa.is_not(None), pa.not_in(sorted(NOT_AT_BAT)))),
        "h": _n(pa.in_(sorted(HITS))), "doubles": _n(pa == "2B"), "triples": _n(pa == "3B"),
        "hr": _n(pa == "HR"), "bb": _n(pa == "BB"), "hbp": _n(pa == "HBP"),
        "k": _n(pa.in_(sorted(STRIKEOUTS))), "r": func.coalesce(func.sum(Pitch.runs), 0),
        "rbi": func.coalesce(func.sum(Pitch.rbi), 0), "sf": _n(pa == "SF"),
        "sac": _n(pa == "SAC"), "ci": _n(pa == "CI"), "roe": _n(pa == "E"),
    }
    return (
        select(Pitch.game_id, Pitch.offense, Pitch.defense,
               *(c.label(k) for k, c in columns.items()))
        .where(Pitch.game_id.in_(_league_games(league_id)))
        .group_by(Pitch.game_id, Pitch.offense, Pitch.defense)
        .subquery()
    )


async def _players(db: AsyncSession, league_id: str) -> list[tuple[str, str, str]]:
    """(game, side, account) of everyone who sat in the league's finished games."""
    rows = await db.execute(
        select(GamePlayer.game_id, GamePlayer.side, GamePlayer.account_id)
        .where(GamePlayer.game_id.in_(_league_games(league_id))))
    return [(g, side, a) for g, side, a in rows.all()]


def _by_side(players: list[tuple[str, str, str]]) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for game_id, side, account_id in players:
        out[(game_id, side)].append(account_id)
    return out


async def _lines(db: AsyncSession, league_id: str, seats: dict[tuple[str, str], list[str]]
                 ) -> dict[str, dict[str, int]]:
    """Per account: games, its sides' batting counts, and the strikeouts its sides pitched.
    The few hundred (game, side) sums are credited to the accounts here rather than by a
    join in SQL: a join on "the side at bat or in the field" would read each sum twice."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    games: dict[str, set[str]] = defaultdict(set)
    for row in (await db.execute(select(_side_lines(league_id)))).all():
        for account_id in seats.get((row.game_id, row.offense), ()):
            mine = out[account_id]
            for key in BATTING:
                mine[key] += int(row._mapping[key])
            games[account_id].add(row.game_id)
        for account_id in seats.get((row.game_id, row.defense), ()):
            out[account_id]["p_k"] += int(row.k)
            games[account_id].add(row.game_id)
    for account_id, played in games.items():
        out[account_id]["games"] = len(played)
    return out


async def _plays(db: AsyncSession, league_id: str, seats: dict[tuple[str, str], list[str]]
                 ) -> tuple[dict[str, dict[str, int]], list[dict[str, Any]]]:
    """Per account: cards played / succeeded, challenges made / won, SB and CS of its sides;
    and per card code over the whole league."""
    rows = (await db.execute(
        select(
            PitchPlay.game_id, PitchPlay.side, PitchPlay.offense, PitchPlay.kind, PitchPlay.code,
            func.count().label("played"),
            _n(PitchPlay.succeeded.is_(True)).label("succeeded"),
            func.coalesce(func.sum(PitchPlay.sb), 0).label("sb"),
            func.coalesce(func.sum(PitchPlay.cs), 0).label("cs"),
        )
        .where(PitchPlay.game_id.in_(_league_games(league_id)))
        .group_by(PitchPlay.game_id, PitchPlay.side, PitchPlay.offense, PitchPlay.kind,
                  PitchPlay.code)
    )).all()
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    codes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        for account_id in seats.get((row.game_id, row.offense), ()):
            out[account_id]["sb"] += int(row.sb)
            out[account_id]["cs"] += int(row.cs)
        prefix = "challenges" if row.kind == "challenge" else "cards"
        for account_id in seats.get((row.game_id, row.side), ()):
            out[account_id][prefix] += int(row.played)
            out[account_id][f"{prefix}_won"] += int(row.succeeded)
        if row.kind == "card":
            codes[row.code][0] += int(row.played)
            codes[row.code][1] += int(row.succeeded)
    cards = [{"code": code, "played": played, "succeeded": won,
              "rate": round(won / played, 3) if played else None}
             for code, (played, won) in sorted(codes.items())]
    return out, cards


_CACHE: OrderedDict[str, tuple[Any, dict[str, Any]]] = OrderedDict()
CACHED_LEAGUES = 64


async def _version(db: AsyncSession, league_id: str) -> Any:
    """What the leaders depend on: the league's finished games (how many, the last to end)
    and its entrants. A game that ends changes it, so a cached answer is never stale, in any
    process: each process keeps its own copy and checks this first."""
    games = (await db.execute(
        select(func.count(Game.id), func.max(Game.finished_at))
        .select_from(LeagueGame).join(Game, Game.id == LeagueGame.game_id)
        .where(LeagueGame.league_id == league_id, Game.status == "finished"))).one()
    entrants = await db.scalar(select(func.count()).where(LeagueEntrant.league_id == league_id))
    return (tuple(games), entrants)


async def leaders(db: AsyncSession, league_id: str) -> dict[str, Any]:
    """The leaders, from this process's cache while the league's games are unchanged
    (:func:`_version`), else computed: summing a season's pitch rows is the one costly part."""
    version = await _version(db, league_id)
    cached = _CACHE.get(league_id)
    if cached is not None and cached[0] == version:
        _CACHE.move_to_end(league_id)
        return cached[1]
    found = await _compute(db, league_id, int(version[0][0] or 0), int(version[1] or 0))
    _CACHE[league_id] = (version, found)
    while len(_CACHE) > CACHED_LEAGUES:
        _CACHE.popitem(last=False)
    return found


async def _compute(db: AsyncSession, league_id: str, games: int, entrants: int
                   ) -> dict[str, Any]:
    seats = _by_side(await _players(db, league_id))
    lines = await _lines(db, league_id, seats)
    plays, cards = await _plays(db, league_id, seats)
    per_entrant = 2 * games / entrants if entrants else 0
    min_pa = math.ceil(MIN_PA_PER_GAME * per_entrant)
    accounts = sorted(set(lines) | set(plays))
    names = dict((await db.execute(
        select(Account.id, Account.name).where(Account.id.in_(accounts)))).all()) if accounts \
        else {}
    table: dict[str, list[tuple[str, float, int]]] = defaultdict(list)
    for account_id, v in lines.items():
        p = plays.get(account_id, {})
        line = BattingLine(**{k: v[k] for k in BATTING}, sb=p.get("sb", 0), cs=p.get("cs", 0))
        if line.pa >= min_pa and line.pa:
            for key in ("avg", "obp", "slg"):
                value = getattr(line, key)
                if value is not None:
                    table[key].append((account_id, round(value, 3), line.pa))
        for key, value in (("hr", line.hr), ("sb", line.sb), ("k", line.k),
                           ("p_k", v["p_k"])):
            if value:
                table[key].append((account_id, value, v["games"]))
    for account_id, p in plays.items():
        for key, minimum in (("cards", MIN_CARDS), ("challenges", MIN_CHALLENGES)):
            made = p.get(key, 0)
            if made >= minimum:
                table[f"{key}_rate"].append(
                    (account_id, round(p.get(f"{key}_won", 0) / made, 3), made))
    groups = {"avg": "batting", "obp": "batting", "slg": "batting", "hr": "batting",
              "sb": "batting", "k": "batting", "p_k": "pitching", "cards_rate": "cards",
              "challenges_rate": "cards"}
    categories = []
    for key, group in groups.items():
        ranked = sorted(table[key], key=lambda e: (-e[1], names.get(e[0], ""), e[0]))[:TOP]
        categories.append({"key": key, "group": group, "leaders": [
            {"rank": i, "account_id": a, "name": names.get(a, "?"), "value": value, "of": of}
            for i, (a, value, of) in enumerate(ranked, start=1)]})
    return {"games": games, "min_pa": min_pa, "min_cards": MIN_CARDS,
            "min_challenges": MIN_CHALLENGES, "categories": categories, "cards": cards}
