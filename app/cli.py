"""The ``bob`` command: serve, migrate, simulate, bots, ratings, analysis, games, codes,
leagues."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence


def _simulate(args: argparse.Namespace) -> int:
    if args.home is not None or args.away is not None:
        if args.game != "base-on-board":
            print("--home/--away are for --game base-on-board", file=sys.stderr)
            return 2
        from app.sim.base_on_board import match

        result = match(
            args.home or "normal", args.away or "normal", games=args.games, seed=args.seed,
            tier=args.tier, innings=args.innings, budget=args.budget, think_ms=args.think_ms,
        )
    elif args.game == "base-on-board":
        from app.sim.base_on_board import simulate as simulate_bob

        result = simulate_bob(
            games=args.games, seed=args.seed, tier=args.tier, innings=args.innings
        )
    else:
        from app.sim.bottom_of_the_ninth import simulate as simulate_b9

        result = simulate_b9(games=args.games, seed=args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.logs import config
    from app.settings import get_settings

    settings = get_settings()
    uvicorn.run(
        "app.main:app",
        host=args.host or settings.host,
        port=args.port or settings.port,
        log_config=config(settings.log_level, settings.log_json),
        log_level=settings.log_level,
        ws_max_size=settings.ws_hard_limit_bytes,
        ws_per_message_deflate=settings.ws_compression,
    )
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from app.migrate import upgrade_to_head

    upgrade_to_head()
    return 0


def _bots(args: argparse.Namespace) -> int:
    import asyncio

    from app.bots.run import run_bots

    if args.tune_gc:
        from app import collector

        collector.tune()

    options = json.loads(args.options) if args.options else None
    result = asyncio.run(
        run_bots(args.url, args.game, args.games, args.spectators, args.concurrency,
                 args.seed, options, think=args.think_ms, ramp_seconds=args.ramp,
                 include_samples=args.samples is not None, timeout=args.timeout,
                 duration=args.duration)
    )
    if args.samples is not None:
        samples = {key: result.pop(key) for key in SAMPLE_KEYS}
        with open(args.samples, "w", encoding="utf-8") as out:
            json.dump(samples, out)
    print(json.dumps(result, indent=None if args.json else 2))
    played = result["finished"] + result["stopped"] + result["not_started"]
    return 0 if not result["failures"] and played == args.games else 1


SAMPLE_KEYS = ("latency_samples_ms", "latency_sent_at", "command_times", "tables")
"""What ``bob bots --samples FILE`` writes to FILE (see ``app.bots.run.run_bots``)."""


def parse_think_ms(text: str) -> tuple[float, float]:
    """``MIN:MAX`` milliseconds (or one number for both) as seconds."""
    try:
        low, _, high = text.partition(":")
        low_ms = float(low)
        high_ms = float(high) if high else low_ms
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected MIN:MAX milliseconds, got {text!r}") from None
    if not 0 <= low_ms <= high_ms:
        raise argparse.ArgumentTypeError(f"need 0 <= MIN <= MAX, got {text!r}")
    return low_ms / 1000, high_ms / 1000


def _ratings(args: argparse.Namespace) -> int:
    import asyncio

    from app.clubs.ratings import rebuild as rebuild_clubs
    from app.db import Database
    from app.settings import get_settings
    from app.stats.store import rebuild

    async def run() -> tuple[dict[str, int], dict[str, int]]:
        database = Database(get_settings().database_url)
        try:
            async with database.session() as db:
                pools = await rebuild(db)
            async with database.session() as db:
                clubs = await rebuild_clubs(db)
        finally:
            await database.dispose()
        return ({pool: len(table) for pool, table in sorted(pools.items())},
                {pool: len(table) for pool, table in sorted(clubs.items())})

    players, clubs = asyncio.run(run())
    print(json.dumps({"rebuilt": players, "clubs": clubs}))
    return 0


def _analysis(args: argparse.Namespace) -> int:
    """Computes the analysis tables (``app.stats.baselines``); a batch job, so it yields the
    CPU to the server it runs beside."""
    import asyncio
    import os

    from app.settings import get_settings
    from app.stats.baselines import refresh

    with contextlib.suppress(OSError):
        os.nice(10)
    written = asyncio.run(refresh(get_settings().database_url, simulated=not args.real_only,
                                  real=not args.simulated_only))
    print(json.dumps({"written": written}))
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Rebuilds games from their commands and seed and compares them with what is stored
    (``app.games.verify``). One JSON line per game that is not ``ok`` (all with ``--all``),
    then a summary line; exits 1 if any game does not match."""
    import asyncio

    from app.db import Database
    from app.engine_catalog import default_catalog
    from app.games.verify import verify_games
    from app.settings import get_settings

    async def run() -> int:
        database = Database(get_settings().database_url)
        try:
            async with database.session() as db:
                checks = await verify_games(
                    db, default_catalog(), sample=args.sample, include_live=args.live,
                    game_ids=args.game or (),
                )
        finally:
            await database.dispose()
        verdicts: dict[str, int] = {}
        for check in checks:
            verdicts[check.verdict] = verdicts.get(check.verdict, 0) + 1
            if args.all or check.verdict != "ok":
                print(json.dumps(check.to_json()))
        print(json.dumps({"verified": len(checks), **dict(sorted(verdicts.items()))}))
        return 1 if verdicts.get("mismatch") else 0

    return asyncio.run(run())


def _mint(args: argparse.Namespace) -> int:
    """Prints ``--count`` fresh activation codes of ``--edition``, one a line, and stores only
    their hashes (``app.editions.service``): this is the only time they are shown."""
    import asyncio

    from app.db import Database
    from app.editions.service import mint
    from app.settings import get_settings

    async def run() -> list[str]:
        database = Database(get_settings().database_url)
        try:
            async with database.session() as db:
                codes = await mint(db, args.edition, args.count)
                await db.commit()
        finally:
            await database.dispose()
        return codes

    codes = asyncio.run(run())
    print("\n".join(codes))
    print(f"minted {len(codes)} {args.edition} code(s); only their hashes are stored, so keep "
          "these now", file=sys.stderr)
    return 0


def _leagues_decide(args: argparse.Namespace) -> int:
    """Applies the leagues' deadline rule now (or at ``--now``) and moves leagues on to their
    next stage; prints what it decided. Safe beside running servers (app/leagues/service.py)."""
    import asyncio
    from datetime import datetime

    from app.db import Database
    from app.leagues.service import decide
    from app.settings import get_settings

    async def run() -> dict[str, int]:
        settings = get_settings()
        database = Database(settings.database_url)
        try:
            async with database.session() as db:
                now = datetime.fromisoformat(args.now) if args.now else None
                counts = await decide(db, settings, now)
                await db.commit()
        finally:
            await database.dispose()
        return counts

    print(json.dumps({"decided": asyncio.run(run())}))
    return 0


def _count(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError("the count is 1 to 100000")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bob", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.set_defaults(func=_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations (DATABASE_URL)")
    migrate.set_defaults(func=_migrate)

    bots = commands.add_parser(
        "bots", help="play full games against a running server over REST and WebSocket"
    )
    bots.add_argument("--url", default="http://127.0.0.1:8000")
    bots.add_argument(
        "--game", choices=["base-on-board", "bottom-of-the-9th"], default="base-on-board"
    )
    bots.add_argument("--games", type=int, default=1)
    bots.add_argument("--spectators", type=int, default=1)
    bots.add_argument("--concurrency", type=int, default=50, help="tables at once")
    bots.add_argument("--seed", type=int, default=1)
    bots.add_argument("--options", default=None, help="room options as JSON")
    bots.add_argument("--json", action="store_true", help="one line of JSON")
    bots.add_argument(
        "--no-tune-gc", dest="tune_gc", action="store_false",
        help="leave the garbage collector as it is (see app/collector.py); for in-process use",
    )
    bots.add_argument(
        "--think-ms", type=parse_think_ms, default=(0.0, 0.0), metavar="MIN:MAX",
        help="each bot's think time before acting, uniform in milliseconds (default 0:0: "
        "act at once, a saturation test)",
    )
    bots.add_argument(
        "--ramp", type=float, default=0.0, metavar="SECONDS",
        help="spread the tables' starts evenly over this many seconds",
    )
    bots.add_argument(
        "--timeout", type=float, default=600.0, metavar="SECONDS",
        help="per game, before it counts as failed",
    )
    bots.add_argument(
        "--duration", type=float, default=None, metavar="SECONDS",
        help="stop every table this long after the start, wherever it is (counted as "
        "stopped, not failed; the samples so far are kept)",
    )
    bots.add_argument(
        "--samples", default=None, metavar="FILE",
        help="write the raw samples as JSON to FILE: latency_samples_ms, latency_sent_at, "
        "command_times, tables",
    )
    bots.set_defaults(func=_bots)

    rating = commands.add_parser("ratings", help="player ratings (DATABASE_URL)")
    rating_commands = rating.add_subparsers(dest="ratings_command", required=True)
    rebuild = rating_commands.add_parser(
        "rebuild", help="recompute every rating from the finished games, oldest first"
    )
    rebuild.set_defaults(func=_ratings)

    analysis = commands.add_parser("analysis", help="analysis tables (DATABASE_URL)")
    analysis_commands = analysis.add_subparsers(dest="analysis_command", required=True)
    refresh = analysis_commands.add_parser(
        "refresh", help="compute the missing simulated baselines and, when games finished "
        "since the last run, the real-game tables (the server runs this by itself)",
    )
    only = refresh.add_mutually_exclusive_group()
    only.add_argument("--simulated-only", action="store_true")
    only.add_argument("--real-only", action="store_true")
    refresh.set_defaults(func=_analysis)

    games = commands.add_parser("games", help="stored games (DATABASE_URL)")
    games_commands = games.add_subparsers(dest="games_command", required=True)
    verify = games_commands.add_parser(
        "verify", help="rebuild games from their commands and seed; compare with the stored "
        "state, events and dice (exit 1 on any difference)",
    )
    verify.add_argument("--sample", type=int, default=None, help="a random sample of N games")
    verify.add_argument("--live", action="store_true", help="games in progress too")
    verify.add_argument("--game", action="append", help="this game id (repeatable)")
    verify.add_argument("--all", action="store_true", help="a line for every game, ok or not")
    verify.set_defaults(func=_verify)

    from app.editions.service import EDITIONS

    codes = commands.add_parser("codes", help="activation codes of editions (DATABASE_URL)")
    codes_commands = codes.add_subparsers(dest="codes_command", required=True)
    mint = codes_commands.add_parser(
        "mint", help="print N fresh codes once (one a line); only their hashes are stored",
    )
    mint.add_argument("--edition", choices=sorted(EDITIONS), required=True)
    mint.add_argument("--count", type=_count, default=1)
    mint.set_defaults(func=_mint)

    leagues = commands.add_parser("leagues", help="leagues and seasons (DATABASE_URL)")
    leagues_commands = leagues.add_subparsers(dest="leagues_command", required=True)
    decide = leagues_commands.add_parser(
        "decide", help="apply the deadline rule to every game past its deadline and move "
        "leagues to their next stage (the server does this by itself every "
        "LEAGUE_TICK_SECONDS)",
    )
    decide.add_argument("--now", default=None,
                        help="an ISO time with its offset to decide as of (tests, drills)")
    decide.set_defaults(func=_leagues_decide)

    simulate = commands.add_parser("simulate", help="play games with a random legal policy")
    simulate.add_argument(
        "--game", choices=["base-on-board", "bottom-of-the-9th"], default="base-on-board"
    )
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--tier", choices=["lite", "lite-extended", "pro"], default="pro")
    simulate.add_argument("--innings", type=int, choices=[3, 5, 7, 9], default=9)
    simulate.add_argument("--json", action="store_true", help="one line of JSON")
    levels = ["easy", "normal", "hard", "eager", "passive", "uniform", "seer", "oracle"]
    simulate.add_argument(
        "--home", choices=levels, default=None,
        help="Base on Board: pit this computer level against --away (it plays home in half "
        "the games and away in the other half) and report win rates; eager (every card "
        "whenever legal), passive (never a card), uniform (hard reading nothing from the game "
        "so far), seer (hard that sees the other hand) and "
        "oracle (hard that also sees every deck order) are yardsticks, not levels",
    )
    simulate.add_argument("--away", choices=levels, default=None, help="see --home")
    simulate.add_argument(
        "--budget", type=int, default=200,
        help="play-outs per hard, uniform, seer or oracle decision (with --home); with "
        "--think-ms, hard's cap"
    )
    simulate.add_argument(
        "--think-ms", type=int, default=None,
        help="stop each hard decision by the clock after this many ms, as the server does "
        "(results then depend on the machine)",
    )
    simulate.set_defaults(func=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
