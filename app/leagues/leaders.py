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
from collections import defaultdict
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.games.models import Game, GamePlayer, Pitch, PitchPlay
from app.leagues.models import LeagueEntrant, LeagueGame
from app.stats.boxscore import HITS, NOT_AT_BAT, STRIKEOUTS, BattingLine
from app.stats.queries import _n, _sum

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


async def _lines(db: AsyncSession, league_id: str) -> dict[str, dict[str, int]]:
    """Per account: games, its sides' batting counts, and the strikeouts its sides pitched."""
    lines = _side_lines(league_id)
    bat = GamePlayer.side == lines.c.offense
    rows = (await db.execute(
        select(
            GamePlayer.account_id,
            func.count(GamePlayer.game_id.distinct()).label("games"),
            *(_sum(bat, lines.c[k]).label(k) for k in BATTING),
            _sum(~bat, lines.c.k).label("p_k"),
        )
        .join(lines, and_(lines.c.game_id == GamePlayer.game_id,
                          (GamePlayer.side == lines.c.offense)
                          | (GamePlayer.side == lines.c.defense)))
        .group_by(GamePlayer.account_id)
    )).all()
    return {row.account_id: {k: int(v or 0) for k, v in row._mapping.items()
                             if k != "account_id"} for row in rows}


async def _plays(db: AsyncSession, league_id: str) -> tuple[
        dict[str, dict[str, int]], list[dict[str, Any]]]:
    """Per account: cards played / succeeded, challenges made / won, SB and CS of its sides;
    and per card code over the whole league."""
    per_side = (
        select(
            PitchPlay.game_id, PitchPlay.side, PitchPlay.offense, PitchPlay.kind, PitchPlay.code,
            func.count().label("played"), _n(PitchPlay.succeeded.is_(True)).label("succeeded"),
            func.coalesce(func.sum(PitchPlay.sb), 0).label("sb"),
            func.coalesce(func.sum(PitchPlay.cs), 0).label("cs"),
        )
        .where(PitchPlay.game_id.in_(_league_games(league_id)))
        .group_by(PitchPlay.game_id, PitchPlay.side, PitchPlay.offense, PitchPlay.kind,
                  PitchPlay.code)
        .subquery()
    )
    rows = (await db.execute(
        select(GamePlayer.account_id, GamePlayer.side.label("seat"),
               per_side.c.side.label("player"), per_side.c.offense, per_side.c.kind,
               per_side.c.played, per_side.c.succeeded, per_side.c.sb, per_side.c.cs)
        .join(per_side, and_(per_side.c.game_id == GamePlayer.game_id,
                             (GamePlayer.side == per_side.c.side)
                             | (GamePlayer.side == per_side.c.offense)))
    )).all()
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        mine = out[row.account_id]
        if row.seat == row.offense:
            mine["sb"] += int(row.sb)
            mine["cs"] += int(row.cs)
        if row.seat == row.player:
            prefix = "challenges" if row.kind == "challenge" else "cards"
            mine[prefix] += int(row.played)
            mine[f"{prefix}_won"] += int(row.succeeded)
    codes = (await db.execute(
        select(PitchPlay.code, func.count().label("played"),
               _n(PitchPlay.succeeded.is_(True)).label("succeeded"))
        .where(PitchPlay.game_id.in_(_league_games(league_id)), PitchPlay.kind == "card")
        .group_by(PitchPlay.code).order_by(PitchPlay.code)
    )).all()
    cards = [{"code": c.code, "played": int(c.played), "succeeded": int(c.succeeded),
              "rate": round(int(c.succeeded) / int(c.played), 3) if c.played else None}
             for c in codes]
    return out, cards


async def leaders(db: AsyncSession, league_id: str) -> dict[str, Any]:
    lines = await _lines(db, league_id)
    plays, cards = await _plays(db, league_id)
    games = int(await db.scalar(
        select(func.count()).select_from(_league_games(league_id).subquery())) or 0)
    entrants = int(await db.scalar(
        select(func.count()).where(LeagueEntrant.league_id == league_id)) or 0)
    per_entrant = 2 * games / entrants if entrants else 0
    min_pa = math.ceil(MIN_PA_PER_GAME * per_entrant)
    accounts = set(lines) | set(plays)
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
