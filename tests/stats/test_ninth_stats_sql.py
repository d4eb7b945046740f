"""All-time SQL Bottom of the 9th extras (stare-down reads, races, fatigue, relief, benching)
against :func:`app.stats.players.ninth_stats`, over real games played through the server by two
accounts that swap sides."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.stats.players import PlayerGame, player_stats
from tests.conftest import real_engines
from tests.stats.test_card_stats_sql import play_game, registered
from tests.support.live import LiveServer

KIND = "bottom-of-the-9th"
MAX_GAMES = 8
pytestmark = pytest.mark.skipif(KIND not in real_engines(),
                                reason="bottom-of-the-9th engine not importable")


async def test_sql_ninth_stats_equal_the_pure_functions_over_real_games(
    live: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        a, b = await registered(http, "na"), await registered(http, "nb")
        games = []  # (game id, a's side)
        records, winners = {}, {}
        # Each game's seed is fresh and secret, so what happens in it cannot be chosen: play
        # at least three, and on until one of them had a run-phase race (at most eight).
        for i in range(MAX_GAMES):
            a_home = i % 2 == 0
            home, away = (a, b) if a_home else (b, a)
            game_id = await play_game(live.url, home, away, {}, 90 + i, kind=KIND)
            games.append((game_id, "home" if a_home else "away"))
            summary = (await http.get(f"/api/games/{game_id}")).json()
            assert summary["status"] == "finished"
            winners[game_id] = summary["result"]["winner"]
            records[game_id] = (await http.get(f"/api/games/{game_id}/pitches")).json()
            if len(games) >= 3 and _both(games, records, winners)["races"] > 0:
                break
        for session, mine in ((a, True), (b, False)):
            name = session["account"]["name"]
            page = (await http.get(f"/api/players/{name}")).json()
            stats = page["stats"][KIND]
            pure = player_stats(
                PlayerGame(records[g], side if mine else ("away" if side == "home" else "home"),
                           "finished", winners[g])
                for g, side in games
            ).to_json()
            assert stats["games"] == len(games)
            assert stats["bottom_of_the_9th"] == pure["bottom_of_the_9th"], name
            assert stats["batting"] == pure["batting"]
            assert stats["pitching"] == pure["pitching"]
        # The games did exercise the extras (both players together).
        ninth = _both(games, records, winners)
        assert ninth["stares"] > 5 and ninth["races"] > 0


def _both(games: list[tuple[str, str]], records: dict[str, Any],
          winners: dict[str, Any]) -> dict[str, Any]:
    """The Bottom of the 9th extras of both players together over ``games``."""
    both = player_stats(PlayerGame(records[g], s, "finished", winners[g])
                        for g, _ in games for s in ("home", "away")).to_json()
    result: dict[str, Any] = both["bottom_of_the_9th"]
    return result
