"""Stored ratings and SQL stats on both databases, from hand-built games.

The games are written straight into the tables (accounts, room, game, seats, pitch rows as the
command path writes them); ratings go through :func:`app.stats.store.record_game` exactly as the
command path calls it when a game ends.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import Account
from app.db import Database
from app.games.models import Game, GamePlayer, PitchPlay
from app.games.pitches import pitch_row, play_rows
from app.rooms.models import Room
from app.stats import queries, store
from app.stats.models import PlayerRating, RatingHistory
from app.stats.players import PlayerGame, player_stats
from app.stats.ratings import Rating
from app.stats.ratings import leaderboard as pure_leaderboard
from tests.stats.build import card, challenge, one_inning_game, pitch
from tests.support.verify import FIXTURE_RULES

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def short_game() -> list[dict[str, Any]]:
    """Away 1-0: a home run, an out that ends the top, a hit-by-pitch (the game stops)."""
    return [
        pitch(1, "top", 1, "pitch:C bat:HR", pa="HR", runs=1, rbi=1),
        pitch(1, "top", 2, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
        pitch(1, "bottom", 1, "pitch:B", cards=[card("home", "HBP")], result="HBP", pa="HBP",
              after=(0, 0, 0, "100")),
    ]


async def account(db: AsyncSession, name: str, guest: bool = False) -> str:
    row = Account(id=secrets.token_hex(8), name=name, name_key=name.casefold(),
                  password_hash=None, is_guest=guest)
    db.add(row)
    await db.flush()
    return row.id


async def finished_game(
    db: AsyncSession, sides: Mapping[str, Sequence[str]], records: list[dict[str, Any]],
    result: dict[str, Any], finished_at: datetime, kind: str = "base-on-board",
    options: dict[str, Any] | None = None, rate: bool = True,
) -> str:
    """A finished game, written and rated as the command path does; returns its id."""
    creator = next(iter(sides["home"] or sides["away"]))
    room = Room(id=secrets.token_hex(8), kind=kind, options=options or {"tier": "pro"},
                timers={}, created_by=creator, status="finished")
    game = Game(id=secrets.token_hex(8), room_id=room.id, kind=kind,
                rules_version=FIXTURE_RULES,  # no engine played it: nothing to rebuild
                options=options or {"tier": "pro"}, state={}, seed="00" * 32,
                seed_hash="11" * 32, status="finished", result=result,
                started_at=finished_at - timedelta(minutes=20), finished_at=finished_at)
    db.add(room)
    await db.flush()
    db.add(game)
    await db.flush()
    for side, members in sides.items():
        db.add_all(GamePlayer(game_id=game.id, account_id=a, side=side) for a in members)
    db.add_all(
        pitch_row(game.id, kind, seq, n, record)
        for n, (seq, record) in enumerate(((10 + i, r) for i, r in enumerate(records)), 1)
    )
    db.add_all(play for i, r in enumerate(records) for play in play_rows(game.id, 10 + i, r))
    await db.flush()
    if rate:
        await store.record_game(db, game.id, kind, game.options, result, finished_at)
    await db.commit()
    return game.id


@pytest.fixture
async def db(database_url: str) -> Any:
    database = Database(database_url)
    async with database.session() as session:
        yield session
    await database.dispose()


def _unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


async def test_sql_stats_match_hand_numbers_and_pure_functions(db: AsyncSession) -> None:
    me, them = await account(db, _unique("me")), await account(db, _unique("them"))
    tie = one_inning_game()
    win = short_game()
    await finished_game(db, {"away": [me], "home": [them]}, tie,
                        {"winner": None, "score": {"away": 3, "home": 3}}, T0)
    await finished_game(db, {"away": [me], "home": [them]}, win,
                        {"winner": "away", "score": {"away": 1, "home": 0}},
                        T0 + timedelta(hours=1))
    got = await queries.player_stats_sql(db, me, "base-on-board:pro")
    # Hand numbers (tests/stats/test_players.py): 8 PA, 6 AB, 3 H, 2 HR; 8 BF, 2 HBP.
    assert (got["games"], got["wins"], got["losses"], got["ties"]) == (2, 1, 0, 1)
    assert (got["runs_for"], got["runs_against"]) == (4, 3)
    bat, pit = got["batting"], got["pitching"]
    assert (bat["PA"], bat["AB"], bat["H"], bat["HR"]) == (8, 6, 3, 2)
    assert (pit["BF"], pit["HBP"]) == (8, 2)
    assert bat["AVG"] == 0.5
    pure = player_stats([PlayerGame(tie, "away", "finished", None),
                         PlayerGame(win, "away", "finished", "away")]).to_json()
    assert pure["batting"] == bat
    assert pure["pitching"] == pit
    assert got["runs_for"] == pure["runs_for"] and got["runs_against"] == pure["runs_against"]
    # The other side's numbers mirror them, and another pool holds nothing.
    theirs = await queries.player_stats_sql(db, them, "base-on-board:pro")
    assert theirs["pitching"]["BF"] == bat["PA"] and theirs["batting"]["PA"] == pit["BF"]
    assert (await queries.player_stats_sql(db, me, "base-on-board:lite"))["games"] == 0
    assert await queries.player_pools(db, me) == ["base-on-board:pro"]
    # Cards, challenges and steals: all-time SQL over pitch_play, the pure functions' numbers.
    assert bat["SB"] == pure["batting"]["SB"] == 1
    assert got["cards"] == pure["cards"] and got["cards"]["SB2"]["played"] == 1
    assert (got["challenges"], got["challenges_won"], got["challenge_success_rate"]) == (
        pure["challenges"], pure["challenges_won"], pure["challenge_success_rate"])


def card_game() -> list[dict[str, Any]]:
    """Cards, challenges and steals with known outcomes (``app.stats.cards``)."""
    a, h = "away", "home"
    return [
        # SB2 answered by CS2: away caught stealing; the CS2 succeeds.
        pitch(1, "top", 1, "pitch:S", bases="100", cards=[card(a, "SB2"), card(h, "CS2")],
              after=(0, 1, 1, "000")),
        # SB2 reversed on home's challenge: caught stealing; home's challenge won.
        pitch(1, "top", 2, "pitch:B", bases="100", cards=[card(a, "SB2")],
              challenges=[challenge(h, "SB2", "reverse")], after=(1, 0, 2, "000")),
        # RNH with runners on first and second, a strike, CS2 answers: 1 SB, 1 CS.
        pitch(1, "top", 3, "pitch:S", outs=1, bases="110",
              cards=[card(a, "RNH"), card(h, "CS2")], after=(0, 1, 2, "001")),
        # RNH on a foul goes back to the hand: no play at all.
        pitch(1, "top", 3, "pitch:F", strikes=1, outs=2, bases="001", cards=[card(a, "RNH")],
              after=(0, 2, 2, "001")),
        # SB3 unanswered: a stolen base.
        pitch(1, "top", 4, "pitch:B", outs=2, bases="010", cards=[card(a, "SB3")],
              after=(1, 0, 2, "001")),
        pitch(1, "top", 4, "pitch:C bat:PO", balls=1, outs=2, bases="001", pa="OUT",
              after=(0, 0, 3, "000")),
        # Away challenges twice in the field: a call that stands, then one reversed.
        pitch(1, "bottom", 1, "pitch:S", challenges=[challenge(a, "S", "stand")],
              after=(0, 1, 0, "000")),
        pitch(1, "bottom", 1, "pitch:B", strikes=1, challenges=[challenge(a, "B", "reverse")],
              after=(0, 2, 0, "000")),
        pitch(1, "bottom", 1, "pitch:SM", strikes=2, pa="K", after=(0, 0, 3, "000")),
    ]


async def test_sql_card_stats_match_hand_numbers(db: AsyncSession) -> None:
    me, them = await account(db, _unique("cme")), await account(db, _unique("cthem"))
    game = card_game()
    game_id = await finished_game(db, {"away": [me], "home": [them]}, game,
                                  {"winner": None, "score": {"away": 0, "home": 0}}, T0)
    mine = await queries.player_stats_sql(db, me, "base-on-board:pro")
    theirs = await queries.player_stats_sql(db, them, "base-on-board:pro")
    # Away: SB2 twice (answered, reversed), RNH once (answered; the foul one is not played),
    # SB3 once; SB = RNH 1 + SB3 1, CS = SB2 2 + RNH 1; challenges 2, one reversed the call.
    assert mine["cards"] == {
        "RNH": {"played": 1, "succeeded": 0, "success_rate": 0.0},
        "SB2": {"played": 2, "succeeded": 0, "success_rate": 0.0},
        "SB3": {"played": 1, "succeeded": 1, "success_rate": 1.0},
    }
    assert (mine["batting"]["SB"], mine["batting"]["CS"]) == (2, 3)
    assert (mine["challenges"], mine["challenges_won"], mine["challenge_success_rate"]) == (
        2, 1, 0.5)
    # Home: two CS2 answers that stood, one challenge won, no steals (it never batted with
    # a card).
    assert theirs["cards"] == {"CS2": {"played": 2, "succeeded": 2, "success_rate": 1.0}}
    assert (theirs["batting"]["SB"], theirs["batting"]["CS"]) == (0, 0)
    assert (theirs["challenges"], theirs["challenges_won"],
            theirs["challenge_success_rate"]) == (1, 1, 1.0)
    # The pure functions agree, and the RNH returned on the foul has no row.
    for who, side, got in ((me, "away", mine), (them, "home", theirs)):
        pure = player_stats([PlayerGame(game, side, "finished", None)]).to_json()
        assert got["batting"] == pure["batting"] and got["cards"] == pure["cards"], who
        assert got["challenges_won"] == pure["challenges_won"], who
    plays = (await db.execute(
        select(PitchPlay.seq, PitchPlay.kind).where(PitchPlay.game_id == game_id)
    )).all()
    assert len(plays) == 6 + 3 and (13, "card") not in plays


async def test_sql_bottom_of_the_ninth_extras_equal_ninth_stats(db: AsyncSession) -> None:
    from tests.stats.test_players import _ninth

    me, them = await account(db, _unique("nme")), await account(db, _unique("nthem"))
    first = [
        _ninth(1, True, True, [1, 0]),
        _ninth(1, True, False, [2, 0], race="home", pa="RS"),
        _ninth(2, False, False, [1, 0]),                    # relief: a row back up the track
        _ninth(2, False, True, [3, 1], race="away", pa="RO"),
        _ninth(3, False, False, [1, 1], pitcher="P2"),      # benched: a new pitcher
    ]
    second = [_ninth(1, True, True, [0, 2]), _ninth(1, False, True, [0, 4], race="away")]
    games = [(first, "home", "away"), (second, "away", "home")]  # (records, my side, winner)
    for records, side, winner in games:
        other = "away" if side == "home" else "home"
        await finished_game(db, {side: [me], other: [them]}, records,
                            {"winner": winner, "score": {"home": 1, "away": 0}}, T0,
                            kind="bottom-of-the-9th", options={}, rate=False)
    for who, mine in ((me, True), (them, False)):
        got = await queries.player_stats_sql(db, who, "bottom-of-the-9th")
        pure = player_stats([
            PlayerGame(records, side if mine else ("away" if side == "home" else "home"),
                       "finished", winner)
            for records, side, winner in games
        ]).to_json()
        assert got["bottom_of_the_9th"] == pure["bottom_of_the_9th"], who
        assert got["batting"] == pure["batting"], who
        assert (got["cards"], got["challenges"], got["batting"]["SB"]) == ({}, 0, 0)
    away = (await queries.player_stats_sql(db, them, "bottom-of-the-9th"))["bottom_of_the_9th"]
    assert (away["stares"], away["max_fatigue"], away["recoveries"], away["benched"]) == (
        7, 3, 1, 1)


async def _stored(db: AsyncSession, ids: Sequence[str]) -> dict[tuple[str, str], tuple]:
    rows = await db.scalars(select(PlayerRating).where(PlayerRating.account_id.in_(ids)))
    return {(r.account_id, r.pool): (r.mu, r.sigma, r.games, r.last_played) for r in rows}


async def _history(db: AsyncSession, ids: Sequence[str]) -> list[tuple]:
    rows = await db.scalars(select(RatingHistory).where(RatingHistory.account_id.in_(ids)))
    return sorted((r.game_id, r.account_id, r.pool, r.mu, r.sigma, r.games) for r in rows)


async def test_ratings_follow_the_rules_and_rebuild_identically(db: AsyncSession) -> None:
    a, b, c = [await account(db, _unique(n)) for n in "abc"]
    guest = await account(db, _unique("guest"), guest=True)
    game = short_game()
    m = PlackettLuce()
    # 1. a (away) beats b: the library's own numbers.
    await finished_game(db, {"away": [a], "home": [b]}, game,
                        {"winner": "away", "score": {}, "reason": "game"}, T0)
    [[ra], [rb]] = m.rate([[m.rating()], [m.rating()]], ranks=[1, 2])
    stored = await _stored(db, [a, b])
    assert stored[(a, "base-on-board:pro")][:3] == pytest.approx((ra.mu, ra.sigma, 1))
    assert stored[(b, "base-on-board:pro")][:3] == pytest.approx((rb.mu, rb.sigma, 1))
    assert stored[(a, "base-on-board:pro")][0] > 25 > stored[(b, "base-on-board:pro")][0]
    # 2. Uneven sides: a and c (home) lose to b alone.
    await finished_game(db, {"away": [b], "home": [a, c]}, game,
                        {"winner": "away", "score": {}}, T0 + timedelta(hours=1))
    [[rb2], [ra2, rc2]] = m.rate(
        [[m.rating(rb.mu, rb.sigma)], [m.rating(ra.mu, ra.sigma), m.rating()]], ranks=[1, 2])
    stored = await _stored(db, [a, b, c])
    assert stored[(b, "base-on-board:pro")][:3] == pytest.approx((rb2.mu, rb2.sigma, 2))
    assert stored[(a, "base-on-board:pro")][:3] == pytest.approx((ra2.mu, ra2.sigma, 2))
    assert stored[(c, "base-on-board:pro")][:3] == pytest.approx((rc2.mu, rc2.sigma, 1))
    # 3. Against a guest only: not rated at all.
    before = await _stored(db, [a, b, c])
    await finished_game(db, {"away": [guest], "home": [a]}, game,
                        {"winner": "home", "score": {}}, T0 + timedelta(hours=2))
    assert await _stored(db, [a, b, c, guest]) == before
    # 4. Abandoned: a (home) left, b claimed the game -> a loss for a, in another pool.
    await finished_game(db, {"away": [b], "home": [a]}, [],
                        {"winner": "away", "score": {}, "reason": "claim"},
                        T0 + timedelta(hours=3), kind="bottom-of-the-9th", options={})
    stored = await _stored(db, [a, b])
    assert stored[(b, "bottom-of-the-9th")][0] > stored[(a, "bottom-of-the-9th")][0]
    assert stored[(a, "bottom-of-the-9th")][2] == 1
    history = await _history(db, [a, b, c, guest])
    assert len(history) == 2 + 3 + 2
    # Rebuild from the history gives the very same numbers.
    await store.rebuild(db)
    assert await _stored(db, [a, b, c, guest]) == stored | {
        k: v for k, v in before.items() if k not in stored}
    assert await _history(db, [a, b, c, guest]) == history
    chart = await queries.rating_history(db, a)
    assert [p["games"] for p in chart["base-on-board:pro"]] == [1, 2]


async def test_sql_leaderboard_matches_the_pure_one(db: AsyncSession) -> None:
    pool = f"test-pool-{secrets.token_hex(3)}"
    now = datetime.now(UTC)
    table = {
        "established": Rating(30.0, 3.0, 20, now - timedelta(days=1)),
        "better": Rating(35.0, 3.0, 20, now - timedelta(days=2)),
        "few-games": Rating(40.0, 3.0, 5, now),
        "unsure": Rating(40.0, 7.0, 40, now),
        "inactive": Rating(40.0, 3.0, 40, now - timedelta(days=45)),
        "tie-more-games": Rating(30.0, 3.0, 25, now),
    }
    names: dict[str, str] = {}
    keys_by_name: dict[str, str] = {}
    for key, rating in table.items():
        name = _unique(key[:10])
        account_id = await account(db, name)
        names[account_id] = key
        keys_by_name[name] = key
        db.add(PlayerRating(account_id=account_id, pool=pool, mu=rating.mu, sigma=rating.sigma,
                            games=rating.games, last_played=rating.last_played))
    await db.commit()
    got = await queries.leaderboard(db, pool, now)
    by_id = {account_id: table[key] for account_id, key in names.items()}
    want = pure_leaderboard(by_id, now)
    assert [names[r.player] for r in want] == ["better", "tie-more-games", "established"]
    assert [keys_by_name[row["name"]] for row in got] == [names[r.player] for r in want]
    assert [row["rating"] for row in got] == [r.rating.display for r in want]
