"""Team ratings with openskill's Plackett-Luce model: one rating per account per rating pool.

A *pool* is a game kind as rated: ``"base-on-board:lite"``, ``"base-on-board:pro"``...
(:func:`pool`) and ``"bottom-of-the-9th"``. Rules:

- A game is rated only when it is ``finished`` or ``abandoned``. A finished game's winner wins
  (``winner=None`` is a tie: both sides share rank 1). An **abandoned** game is a loss for the
  side that left (``left``) and a win for the other; an abandoned game without a leaver, and any
  ``unfinished`` game (still running, cancelled, server-aborted), is not rated.
- **Guests** are left out of their side: only accounts are rated, and a side's strength is that
  of its rated members. A game where either side has no rated member is not rated at all (a
  player cannot farm rating off guests). To leave bots unrated, pass them in ``guests`` too.
- A player listed on both sides (should not happen) counts only on the first side listed.
- Uneven sides are rated as they are (openskill sums the members' ratings).
- **Provisional**: fewer than ``min_games`` rated games (default 10) or sigma above
  ``max_sigma`` (default 6.5; a new player starts at 25/3 ≈ 8.33, and about ten
  one-on-one games bring it near 6.3).
- **Display rating** (what people read): ``1500 + 20 × ordinal``, the ordinal being
  mu − 3·sigma (0 for a new player, so a newcomer shows 1500), rounded to a whole number and
  never below 0; shown with a "?" while provisional. The raw ordinal stays in ``ordinal``.
- **Leaderboard**: established (not provisional) players whose last rated game is at most
  ``active_days`` (default 30) before ``now``, highest ordinal first; ties broken by more
  games, then by player id.
- :func:`rebuild` replays games in the order given, from default ratings; sort them with
  :func:`order_games` (finish time, then game id) so the same history always gives the same
  numbers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
MIN_GAMES = 10
PROVISIONAL_SIGMA = 6.5
ACTIVE_DAYS = 30
DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
"""One openskill point is 20 display points: a newcomer (ordinal 0) shows 1500, and the
ordinals seen between beginners and strong players (about -10 to 35) read 1300-2200, the
range chess players know."""

Status = Literal["finished", "abandoned", "unfinished"]


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    last_played: datetime | None = None

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * self.ordinal))

    def provisional(
        self, min_games: int = MIN_GAMES, max_sigma: float = PROVISIONAL_SIGMA
    ) -> bool:
        return self.games < min_games or self.sigma > max_sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": self.mu, "sigma": self.sigma, "games": self.games,
            "rating": self.display, "ordinal": round(self.ordinal, 2),
            "provisional": self.provisional(),
            "last_played": None if self.last_played is None else self.last_played.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """What rating needs of one game: who sat where and how it ended."""

    game_id: str
    pool: str
    teams: Mapping[str, Sequence[str]]
    """Side name to the accounts (and guests) that played on it."""
    status: Status
    winner: str | None = None
    """The winning side of a finished game; ``None`` for a tie."""
    left: str | None = None
    """The side that abandoned the game."""
    finished_at: datetime | None = None


def pool(kind: str, tier: str | None = None) -> str:
    """The rating pool of a game kind: Base on Board is rated by tier."""
    return f"{kind}:{tier}" if tier else kind


def model() -> PlackettLuce:
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def outcome_ranks(result: GameResult) -> dict[str, int] | None:
    """Rank per side (1 = best, equal ranks tie), or ``None`` when the game is not rated."""
    sides = list(result.teams)
    if len(sides) != 2:
        return None
    if result.status == "finished":
        if result.winner is None:
            return dict.fromkeys(sides, 1)
        if result.winner not in sides:
            return None
        return {side: 1 if side == result.winner else 2 for side in sides}
    if result.status == "abandoned" and result.left in sides:
        return {side: 2 if side == result.left else 1 for side in sides}
    return None


def rated_teams(
    teams: Mapping[str, Sequence[str]], guests: Collection[str] = ()
) -> dict[str, list[str]] | None:
    """Each side's rated members, or ``None`` when a side has none."""
    seen: set[str] = set()
    out: dict[str, list[str]] = {}
    for side, members in teams.items():
        kept = []
        for player in members:
            if player in guests or player in seen:
                continue
            seen.add(player)
            kept.append(player)
        if not kept:
            return None
        out[side] = kept
    return out


def rate_game(
    teams: Mapping[str, Sequence[str]],
    ratings: Mapping[str, Rating | tuple[float, float]],
    winner: str | None,
    *,
    guests: Collection[str] = (),
    when: datetime | None = None,
    ranks: Mapping[str, int] | None = None,
) -> dict[str, Rating]:
    """New ratings of the rated players of one game (others unchanged, not returned).

    ``winner`` is the winning side, ``None`` for a tie; ``ranks`` (1 = best) overrides it.
    Players missing from ``ratings`` start at the default. Returns ``{}`` when the game cannot
    be rated (a side without rated members).
    """
    kept = rated_teams(teams, guests)
    if kept is None or len(kept) < 2:
        return {}
    if ranks is None:
        ranks = {side: 1 if winner is None or side == winner else 2 for side in kept}
    sides = list(kept)
    current = {p: _as_rating(ratings.get(p)) for side in sides for p in kept[side]}
    m = model()
    teams_in = [[m.rating(current[p].mu, current[p].sigma, p) for p in kept[s]] for s in sides]
    rated = m.rate(teams_in, ranks=[float(ranks[s]) for s in sides])
    out: dict[str, Rating] = {}
    for side, team in zip(sides, rated, strict=True):
        for player, new in zip(kept[side], team, strict=True):
            before = current[player]
            out[player] = Rating(
                float(new.mu), float(new.sigma), before.games + 1, when or before.last_played
            )
    return out


def _as_rating(value: Rating | tuple[float, float] | None) -> Rating:
    if value is None:
        return Rating()
    if isinstance(value, Rating):
        return value
    return Rating(float(value[0]), float(value[1]))


def rebuild(
    games: Iterable[GameResult], guests: Collection[str] = ()
) -> dict[str, dict[str, Rating]]:
    """Every pool's ratings from the games in order (oldest first), from scratch."""
    pools: dict[str, dict[str, Rating]] = {}
    for game in games:
        ranks = outcome_ranks(game)
        if ranks is None:
            continue
        table = pools.setdefault(game.pool, {})
        table.update(
            rate_game(game.teams, table, None, guests=guests, when=game.finished_at, ranks=ranks)
        )
    return pools


def order_games(games: Iterable[GameResult]) -> list[GameResult]:
    """Games in rating order: by finish time (unknown first), then by id."""
    return sorted(
        games, key=lambda g: (g.finished_at is not None, g.finished_at or datetime.min, g.game_id)
    )


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    player: str
    rating: Rating

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, **self.rating.to_json()}


def leaderboard(
    ratings: Mapping[str, Rating],
    now: datetime,
    *,
    active_days: int = ACTIVE_DAYS,
    min_games: int = MIN_GAMES,
    max_sigma: float = PROVISIONAL_SIGMA,
    limit: int | None = None,
) -> list[LeaderboardRow]:
    """Established, recently active players, best first."""
    since = now - timedelta(days=active_days)
    rows = [
        (player, r) for player, r in ratings.items()
        if not r.provisional(min_games, max_sigma)
        and r.last_played is not None and r.last_played >= since
    ]
    rows.sort(key=lambda pr: (-pr[1].ordinal, -pr[1].games, pr[0]))
    if limit is not None:
        rows = rows[:limit]
    return [LeaderboardRow(i + 1, p, r) for i, (p, r) in enumerate(rows)]


def predict_win(
    teams: Mapping[str, Sequence[str]],
    ratings: Mapping[str, Rating],
    guests: Collection[str] = (),
) -> dict[str, float] | None:
    """openskill's predicted chance of each side winning, or ``None`` if the game is unrated."""
    kept = rated_teams(teams, guests)
    if kept is None or len(kept) < 2:
        return None
    m = model()
    sides = list(kept)
    teams_in = [
        [m.rating(_as_rating(ratings.get(p)).mu, _as_rating(ratings.get(p)).sigma) for p in kept[s]]
        for s in sides
    ]
    return {s: float(p) for s, p in zip(sides, m.predict_win(teams_in), strict=True)}
