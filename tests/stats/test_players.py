"""One account's stats over several games, and Bottom of the 9th extras."""

from __future__ import annotations

from app.stats.players import PlayerGame, ninth_stats, player_stats
from tests.stats.build import card, one_inning_game, pitch


def _short_game() -> list[dict[str, object]]:
    return [
        pitch(1, "top", 1, "pitch:C bat:HR", pa="HR", runs=1, rbi=1),
        pitch(1, "top", 2, "pitch:C bat:PO", pa="OUT", after=(0, 0, 3, "000")),
        pitch(1, "bottom", 1, "pitch:B", cards=[card("home", "HBP")], result="HBP", pa="HBP",
              after=(0, 0, 0, "100")),
    ]


def test_sums_over_games() -> None:
    games = [
        PlayerGame(one_inning_game(), "away", "finished", winner=None),  # 3-3 tie
        # Abandoned while home trailed 0-1: home left, so the away player wins.
        PlayerGame(_short_game(), "away", "abandoned", left="home"),
        PlayerGame(_short_game(), "away", "unfinished"),  # counts for nothing
    ]
    stats = player_stats(games)
    assert (stats.games, stats.wins, stats.losses, stats.ties) == (2, 1, 0, 1)
    assert (stats.runs_for, stats.runs_against) == (4, 3)
    # One-inning game away line (6 PA, 4 AB, 2 H, 1 HR) plus 2 PA, 2 AB, 1 HR.
    assert (stats.batting.pa, stats.batting.ab, stats.batting.h, stats.batting.hr) == (8, 6, 3, 2)
    assert stats.batting.sb == 1
    # Away pitched the bottom halves: 7 batters, then 1 (hit by pitch).
    assert (stats.pitching.bf, stats.pitching.hbp) == (8, 2)
    assert stats.cards.played["SB2"] == 1
    assert stats.ninth is None
    body = stats.to_json()
    assert body["batting"]["AVG"] == 0.5
    assert body["cards"]["SB2"]["success_rate"] == 1.0


def test_home_player_loses_the_abandoned_game() -> None:
    stats = player_stats([PlayerGame(_short_game(), "home", "abandoned", left="home")])
    assert (stats.games, stats.wins, stats.losses) == (1, 0, 1)
    assert stats.cards.played["HBP"] == 1


def _ninth(batter: int, d: bool, loc: bool, fatigue: list[int], pitcher: str = "P1",
           race: str | None = None, pa: str | None = None) -> dict[str, object]:
    stare = {"direction_read": d, "location_read": loc, "fatigue": fatigue}
    return pitch(9, "bottom", batter, "control:2 pitch:S swing:3", result="S", pa=pa,
                 pitcher=pitcher, stare=stare,
                 race=None if race is None else {"rolls": [], "winner": race})


def test_bottom_of_the_ninth_extras() -> None:
    records = [
        _ninth(1, True, True, [1, 0]),
        _ninth(1, True, False, [2, 0], race="home", pa="RS"),
        _ninth(2, False, False, [1, 0]),                    # a token went back up: recovery
        _ninth(2, False, True, [3, 1], race="away", pa="RO"),
        _ninth(3, False, False, [1, 1], pitcher="P2"),      # benched: a new pitcher
    ]
    home = ninth_stats(records, "home")
    assert (home.stares, home.direction_reads, home.location_reads, home.full_reads) == (
        5, 2, 2, 1)
    assert (home.races, home.race_wins) == (2, 1)
    assert (home.max_fatigue, home.recoveries, home.benched) == (0, 0, 0)
    away = ninth_stats(records, "away")
    assert (away.race_wins, away.max_fatigue, away.recoveries, away.benched) == (1, 3, 1, 1)
    assert away.to_json()["full_read_rate"] == 0.2
    stats = player_stats([PlayerGame(records, "home", "finished", winner="away")])
    assert stats.ninth is not None and stats.ninth.races == 2
    assert (stats.batting.pa, stats.batting.h, stats.batting.ab) == (2, 1, 2)
