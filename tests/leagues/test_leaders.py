"""League leaders against a hand count: two finished league games with known plate
appearances and plays, a live league game and a game outside the league that must not count.
The games are of a kind no engine hosts, so the suite's end-of-session rebuild passes them by."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from app.accounts.models import Account
from app.games.models import Game, GamePlayer, Pitch, PitchPlay
from app.leagues.leaders import leaders
from app.leagues.models import League, LeagueEntrant, LeagueGame
from app.rooms.models import Room
from tests.leagues.helpers import unique, with_db

KIND = "hand-count"
T0 = datetime(2026, 11, 1, tzinfo=UTC)


def account() -> Account:
    name = unique("hc")
    return Account(id=secrets.token_hex(8), name=name, name_key=name, is_guest=False)


def game(room: Room, status: str = "finished") -> Game:
    return Game(id=secrets.token_hex(8), room_id=room.id, number=1, kind=KIND, options={},
                state={}, seed="00", seed_hash="00", status=status, result={"winner": None},
                started_at=T0, finished_at=T0 if status == "finished" else None)


def pitches(game_id: str, offense: str, results: list[str | None], start: int) -> list[Pitch]:
    rows = []
    defense = "home" if offense == "away" else "away"
    for i, result in enumerate(results):
        runs = 1 if result in ("HR", "SF") else 0
        rows.append(Pitch(
            game_id=game_id, seq=start + i, number=start + i, kind=KIND, inning=1,
            half="top" if offense == "away" else "bottom", offense=offense, defense=defense,
            batter=i + 1, balls=0, strikes=0, outs=0, bases="000", balls_after=0,
            strikes_after=0, outs_after=0, bases_after="000", dice=[],
            result=result or "ball", pa_result=result, runs=runs, rbi=runs, cards=[],
            extras={}))
    return rows


def plays(game_id: str, side: str, offense: str, kind: str, outcomes: list[bool], seq: int,
          sb: int = 0) -> list[PitchPlay]:
    return [PitchPlay(game_id=game_id, seq=seq, kind=kind, position=i, side=side,
                      offense=offense, code="X" if kind == "card" else "call",
                      succeeded=ok, sb=sb if i == 0 else 0, cs=0)
            for i, ok in enumerate(outcomes)]


async def seed(db: Any) -> dict[str, Any]:
    a, b = account(), account()
    db.add_all([a, b])
    await db.flush()
    league = League(id=secrets.token_hex(6), name=unique("Hand "), name_key=unique("hand"),
                    kind=KIND, options={}, entrant_type="player", status="season",
                    created_by=a.id, started_at=T0)
    db.add(league)
    await db.flush()
    ea = LeagueEntrant(league_id=league.id, account_id=a.id)
    eb = LeagueEntrant(league_id=league.id, account_id=b.id)
    db.add_all([ea, eb])
    rooms = [Room(id=secrets.token_hex(6), kind=KIND, options={}, timers={}, private=True,
                  status="finished", created_by=a.id) for _ in range(4)]
    db.add_all(rooms)
    await db.flush()
    one, two, live, friendly = (game(rooms[0]), game(rooms[1]), game(rooms[2], "live"),
                                game(rooms[3]))
    db.add_all([one, two, live, friendly])
    await db.flush()
    # game one: A home, B away
    db.add_all(pitches(one.id, "away", ["1B", "K", "HR", "BB", "OUT", None], 1))
    db.add_all(pitches(one.id, "home", ["2B", "K", "K", "OUT"], 10))
    db.add_all(plays(one.id, "home", "away", "card", [True, False], 1))
    db.add_all(plays(one.id, "away", "home", "challenge", [True, True, False], 10))
    # game two: B home, A away; A's cards while batting carry a stolen base
    db.add_all(pitches(two.id, "away", ["HR", "SF", "OUT", "OUT"], 1))
    db.add_all(pitches(two.id, "home", ["3B", "OUT", "OUT"], 10))
    db.add_all(plays(two.id, "away", "away", "card", [True] * 6 + [False] * 4, 1, sb=1))
    # a league game still going and a game outside the league: neither counts
    db.add_all(pitches(live.id, "home", ["HR", "HR", "HR"], 1))
    db.add_all(pitches(friendly.id, "home", ["HR"] * 5, 1))
    db.add_all(plays(friendly.id, "home", "home", "card", [True] * 20, 1))
    db.add_all([GamePlayer(game_id=one.id, account_id=a.id, side="home"),
                GamePlayer(game_id=one.id, account_id=b.id, side="away"),
                GamePlayer(game_id=two.id, account_id=a.id, side="away"),
                GamePlayer(game_id=two.id, account_id=b.id, side="home"),
                GamePlayer(game_id=live.id, account_id=a.id, side="home"),
                GamePlayer(game_id=live.id, account_id=b.id, side="away"),
                GamePlayer(game_id=friendly.id, account_id=a.id, side="home")])
    await db.flush()
    deadline = T0 + timedelta(days=365 * 5)
    for g, home, away, status in ((one, ea, eb, "final"), (two, eb, ea, "final"),
                                  (live, ea, eb, "live")):
        db.add(LeagueGame(league_id=league.id, stage="season", round=1, home_entrant=home.id,
                          away_entrant=away.id, room_id=g.room_id, game_id=g.id,
                          status=status, opens_at=T0, deadline_at=deadline))
    await db.commit()
    return {"league": league.id, "a": a.name, "b": b.name}


def test_leaders_match_a_hand_count(database_url: str) -> None:
    ids = with_db(database_url, seed)
    found = with_db(database_url, lambda db: leaders(db, ids["league"]))
    a, b = ids["a"], ids["b"]
    assert found["games"] == 2
    assert found["min_pa"] == 6  # 3 PA a game x 2 games an entrant
    board = {c["key"]: {row["name"]: row["value"] for row in c["leaders"]}
             for c in found["categories"]}
    # A: 2B K K OUT | HR SF OUT OUT -> PA 8, AB 7, H 2, TB 6, SF 1
    # B: 1B K HR BB OUT | 3B OUT OUT -> PA 8, AB 7, H 3, BB 1, TB 8
    assert board["avg"] == {b: round(3 / 7, 3), a: round(2 / 7, 3)}
    assert board["obp"] == {b: round(4 / 8, 3), a: round(2 / 8, 3)}
    assert board["slg"] == {b: round(8 / 7, 3), a: round(6 / 7, 3)}
    assert board["hr"] == {a: 1, b: 1}
    assert board["k"] == {a: 2, b: 1}
    assert board["p_k"] == {b: 2, a: 1}  # the strikeouts each one's side pitched
    assert board["sb"] == {a: 1}
    assert board["cards_rate"] == {a: round(7 / 12, 3)}  # 12 cards >= 10, 7 succeeded
    assert board["challenges_rate"] == {b: round(2 / 3, 3)}
    avg = next(c for c in found["categories"] if c["key"] == "avg")["leaders"]
    assert [(r["rank"], r["name"], r["of"]) for r in avg] == [(1, b, 8), (2, a, 8)]
    assert found["cards"] == [{"code": "X", "played": 12, "succeeded": 7,
                               "rate": round(7 / 12, 3)}]
