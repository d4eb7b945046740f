"""Ratings against openskill's own results, and the documented rules around them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from app.stats.ratings import (
    DEFAULT_SIGMA,
    GameResult,
    Rating,
    leaderboard,
    order_games,
    outcome_ranks,
    pool,
    predict_win,
    rate_game,
    rebuild,
)

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def test_uneven_sides_match_the_library() -> None:
    ratings = {"ann": Rating(30.0, 6.0, 12), "bob": Rating(22.0, 7.0, 3)}
    new = rate_game({"home": ["ann"], "away": ["bob", "cy"]}, ratings, "away", when=T0)

    model = PlackettLuce()
    expected = model.rate(
        [[model.rating(30.0, 6.0)], [model.rating(22.0, 7.0), model.rating()]], ranks=[2, 1]
    )
    assert new["ann"].mu == pytest.approx(expected[0][0].mu)
    assert new["ann"].sigma == pytest.approx(expected[0][0].sigma)
    assert new["bob"].mu == pytest.approx(expected[1][0].mu)
    assert new["cy"].mu == pytest.approx(expected[1][1].mu)
    assert new["cy"].sigma == pytest.approx(expected[1][1].sigma)
    assert new["ann"].mu < 30.0 < new["ann"].mu + 5
    assert (new["ann"].games, new["bob"].games, new["cy"].games) == (13, 4, 1)
    assert new["cy"].last_played == T0


def test_tie_uses_equal_ranks() -> None:
    new = rate_game({"home": ["a"], "away": ["b"]}, {}, None)
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    assert new["a"].mu == pytest.approx(expected[0][0].mu) == pytest.approx(25.0)
    assert new["a"].sigma == pytest.approx(expected[0][0].sigma)
    assert new["a"].sigma < DEFAULT_SIGMA


def test_guests_are_left_out() -> None:
    new = rate_game({"home": ["a", "guest1"], "away": ["b"]}, {}, "home", guests={"guest1"})
    assert set(new) == {"a", "b"}
    alone = rate_game({"home": ["a"], "away": ["b"]}, {}, "home")
    assert new["a"] == alone["a"]
    # A side of guests only: the game is not rated.
    assert rate_game({"home": ["a"], "away": ["guest1"]}, {}, "home", guests={"guest1"}) == {}


def test_outcome_rules() -> None:
    teams = {"home": ["a"], "away": ["b"]}
    assert outcome_ranks(GameResult("g", "k", teams, "finished", "home")) == {
        "home": 1, "away": 2}
    assert outcome_ranks(GameResult("g", "k", teams, "finished", None)) == {"home": 1, "away": 1}
    # Abandoned: the side that left loses, whatever the score.
    assert outcome_ranks(GameResult("g", "k", teams, "abandoned", "home", left="home")) == {
        "home": 2, "away": 1}
    assert outcome_ranks(GameResult("g", "k", teams, "abandoned")) is None
    assert outcome_ranks(GameResult("g", "k", teams, "unfinished")) is None


def _history() -> list[GameResult]:
    bob_pro = pool("base-on-board", "pro")
    games = []
    players = ["a", "b", "c", "d"]
    for i in range(30):
        home = [players[i % 4]]
        away = [players[(i + 1) % 4], players[(i + 2) % 4]] if i % 3 == 0 else [
            players[(i + 1) % 4]]
        games.append(GameResult(f"g{i:02d}", bob_pro, {"home": home, "away": away}, "finished",
                                ("home", "away", None)[i % 3 if i % 7 else 2],
                                finished_at=T0 + timedelta(hours=i)))
    games.append(GameResult("x1", bob_pro, {"home": ["a"], "away": ["b"]}, "abandoned",
                            left="away", finished_at=T0 + timedelta(hours=40)))
    games.append(GameResult("x2", bob_pro, {"home": ["a"], "away": ["b"]}, "unfinished"))
    games.append(GameResult("n1", pool("bottom-of-the-9th"), {"home": ["a"], "away": ["b"]},
                            "finished", "away", finished_at=T0))
    return games


def test_rebuild_is_deterministic_and_matches_game_by_game() -> None:
    history = _history()
    first = rebuild(history)
    assert first == rebuild(list(history))
    assert set(first) == {"base-on-board:pro", "bottom-of-the-9th"}
    # Game by game with rate_game gives the same numbers.
    table: dict[str, Rating] = {}
    for game in history[:31]:
        ranks = outcome_ranks(game)
        assert ranks is not None
        table.update(rate_game(game.teams, table, None, when=game.finished_at, ranks=ranks))
    assert table == first["base-on-board:pro"]
    assert first["bottom-of-the-9th"]["b"].mu > 25.0 > first["bottom-of-the-9th"]["a"].mu
    # The abandoned game counted as an away loss; the unfinished one not at all.
    assert sum(r.games for r in first["base-on-board:pro"].values()) == 30 * 2 + 10 + 2


def test_order_games() -> None:
    history = _history()
    shuffled = list(reversed(history))
    ordered = order_games(shuffled)
    assert ordered[0].game_id == "x2"  # no finish time: first
    assert [g.game_id for g in ordered[1:3]] == ["g00", "n1"]  # same time: by id


def test_provisional_and_leaderboard() -> None:
    now = T0 + timedelta(days=10)
    ratings = {
        "veteran": Rating(30.0, 4.0, 50, T0),
        "strong_but_new": Rating(40.0, 4.0, 3, T0),
        "uncertain": Rating(35.0, 7.0, 40, T0),
        "idle": Rating(33.0, 4.0, 50, T0 - timedelta(days=60)),
        "second": Rating(28.0, 3.0, 20, T0),
        "twin": Rating(28.0, 3.0, 10, T0),
    }
    assert ratings["strong_but_new"].provisional()
    assert ratings["uncertain"].provisional()
    assert not ratings["veteran"].provisional()
    board = leaderboard(ratings, now)
    # Ordinals: second and twin 28 - 9 = 19 (more games first), veteran 30 - 12 = 18.
    assert [(row.rank, row.player) for row in board] == [
        (1, "second"), (2, "twin"), (3, "veteran")]
    # Display: 1500 + 20 x ordinal, a whole number; the ordinal is kept beside it.
    assert board[2].rating.display == 1500 + 20 * 18 == 1860
    assert board[2].to_json()["rating"] == 1860
    assert board[2].to_json()["ordinal"] == 18.0
    assert leaderboard(ratings, now, limit=1)[0].player == "second"
    assert Rating().display == 1500  # a newcomer


def test_the_display_rating_is_never_negative_and_keeps_the_order() -> None:
    # The "-1.83?" is a first rating a little under the start: it reads 1463.
    assert Rating(25.0 - 1.83, 25.0 / 3.0).display == 1463
    assert Rating(-100.0, 8.0).display == 0
    ordinals = [Rating(mu, 5.0) for mu in (10.0, 20.0, 25.0, 30.0, 45.0)]
    shown = [r.display for r in ordinals]
    assert shown == sorted(shown) and all(isinstance(v, int) and v >= 0 for v in shown)


def test_win_probability_is_the_library_prediction() -> None:
    ratings = {"a": Rating(30.0, 5.0), "b": Rating(20.0, 5.0)}
    chances = predict_win({"home": ["a"], "away": ["b"]}, ratings)
    assert chances is not None
    model = PlackettLuce()
    expected = model.predict_win([[model.rating(30.0, 5.0)], [model.rating(20.0, 5.0)]])
    assert chances["home"] == pytest.approx(expected[0])
    assert chances["home"] + chances["away"] == pytest.approx(1.0)
    assert chances["home"] > 0.5
