"""The FastAPI application: REST under ``/api``, the game stream under ``/ws``.

``create_app`` takes its settings and engine catalog as arguments so tests can run several
servers (different databases, a test engine) in one process; ``app`` is the production one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text
from starlette.exceptions import HTTPException

from app import collector, loop_lag
from app.accounts.views import router as accounts_router
from app.clubs.ratings import rate_club_game
from app.clubs.views import router as clubs_router
from app.context import ServerContext
from app.db import Database
from app.deps import Address
from app.editions.views import router as editions_router
from app.engine_catalog import EngineCatalog, default_catalog
from app.errors import (
    DATABASE_ERRORS,
    ApiError,
    api_error_handler,
    http_error_handler,
    unexpected_error_handler,
    validation_error_handler,
)
from app.games.broadcast import Broadcaster, InProcessBroadcaster
from app.games.commands import CommandPath
from app.games.hooks import GameEndHooks
from app.games.ownership import LocalOwnership, Ownership, RedisOwnership
from app.games.timers import TimerRunner
from app.games.views import router as games_router
from app.leagues.job import LeagueJob
from app.leagues.service import result_recorder
from app.leagues.views import router as leagues_router
from app.matchmaking.views import router as play_now_router
from app.metrics import Metrics
from app.middleware import RejectBadText
from app.realtime.headcount import Headcount, LocalHeadcount, RedisHeadcount
from app.realtime.presence import Presence
from app.realtime.sessions import OpenSessions
from app.realtime.views import RoomSockets
from app.realtime.watch import RoomWatch
from app.rooms.service import mark_finished
from app.rooms.views import router as rooms_router
from app.settings import Settings, get_settings
from app.stats.refresher import AnalysisRefresher
from app.stats.store import rate_finished_game
from app.throttle import Throttle


def make_broadcaster(settings: Settings, metrics: Metrics) -> Broadcaster:
    if settings.redis_url:
        from app.games.redis_broadcast import RedisBroadcaster

        return RedisBroadcaster(
            settings.redis_url, settings.redis_channel_prefix, settings.redis_notice_channel,
            metrics,
        )
    return InProcessBroadcaster()


def game_end_hooks(settings: Settings) -> GameEndHooks:
    """What happens in the transaction that ends a game, besides the game's own write."""
    hooks = GameEndHooks()
    hooks.register("rooms.mark_finished", mark_finished)
    hooks.register("stats.rate_finished_game", rate_finished_game)
    hooks.register("leagues.record_result", result_recorder(settings))
    hooks.register("clubs.rate_club_game", rate_club_game)
    return hooks


def make_headcount(settings: Settings, process_id: str) -> Headcount:
    """Spectator counts over every process through Redis, else this process's own."""
    if settings.redis_url:
        return RedisHeadcount(settings.redis_url, settings.redis_lease_prefix, process_id,
                              settings.ws_heartbeat_seconds)
    return LocalHeadcount()


def make_ownership(settings: Settings, metrics: Metrics) -> Ownership:
    """Room leases in Redis when several processes share the rooms, else this one owns all."""
    if settings.redis_url:
        return RedisOwnership(settings.redis_url, settings.redis_lease_prefix,
                              settings.room_lease_seconds, metrics)
    return LocalOwnership()


def create_app(
    settings: Settings | None = None,
    catalog: EngineCatalog | None = None,
    broadcaster: Broadcaster | None = None,
    run_timers: bool = True,
    tune_gc: bool = False,
) -> FastAPI:
    """``tune_gc``: tune the garbage collector (:mod:`app.collector`); only for the server's
    own process (tests start many apps in one process)."""
    settings = settings or get_settings()

    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx = ServerContext(
            settings=settings,
            db=Database(settings.database_url, settings.db_pool_size),
            catalog=catalog or default_catalog(),
            broadcaster=broadcaster or make_broadcaster(settings, metrics),
            throttle=Throttle(settings.redis_url),
            metrics=metrics,
            ownership=make_ownership(settings, metrics),
        )
        ctx.commands = CommandPath(
            settings=settings, db=ctx.db, catalog=ctx.catalog, broadcaster=ctx.broadcaster,
            metrics=metrics, wake_timers=ctx.wake_timers, on_game_end=game_end_hooks(settings),
        )
        ctx.presence = Presence(ctx.db, settings.presence_heartbeat_seconds)
        ctx.sessions = OpenSessions(ctx.db, settings.presence_heartbeat_seconds)
        ctx.watch = RoomWatch(ctx.db, ctx.ownership, metrics, settings.ws_heartbeat_seconds,
                              make_headcount(settings, ctx.ownership.process_id),
                              presence_seconds=settings.presence_heartbeat_seconds)
        ctx.broadcaster.on_notice(ctx.sessions.on_notice)
        await ctx.broadcaster.start()
        app.state.ctx = ctx
        tasks = [asyncio.create_task(ctx.presence.run_forever()),
                 asyncio.create_task(ctx.sessions.run_forever()),
                 asyncio.create_task(ctx.watch.run_forever()),
                 asyncio.create_task(ctx.ownership.run_forever()),
                 asyncio.create_task(
                     AnalysisRefresher(ctx.db, settings.analysis_refresh_seconds).run_forever()
                 ),
                 asyncio.create_task(LeagueJob(ctx.db, settings).run_forever()),
                 asyncio.create_task(loop_lag.watch(metrics.loop_lag_seconds.observe))]
        if run_timers:
            tasks.append(asyncio.create_task(TimerRunner(ctx).run_forever()))
        if tune_gc:
            collector.tune()
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await ctx.ownership.close()
            await ctx.broadcaster.close()
            await ctx.db.dispose()

    app = FastAPI(
        title="Base on Board / Bottom of the 9th server",
        version="0.1.0",
        lifespan=lifespan,
        description="REST API; the live game protocol over WebSocket is in docs/protocol.md.",
    )
    app.add_exception_handler(ApiError, api_error_handler)
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    app.add_exception_handler(HTTPException, http_error_handler)
    for database_error in DATABASE_ERRORS:
        app.add_exception_handler(database_error, unexpected_error_handler)
    app.add_exception_handler(Exception, unexpected_error_handler)
    app.add_middleware(RoomSockets)
    app.add_middleware(RejectBadText)  # added last, so it runs first: before RoomSockets

    @app.get("/metrics", tags=["ops"], include_in_schema=False)
    async def prometheus_metrics(address: Address) -> Response:
        """Prometheus text format: commands, latency, conflicts, resyncs, sockets, publish
        failures, timer lateness, room leases (``app/metrics.py``). Only for the addresses in
        ``METRICS_FROM`` (the scraper's; loopback by default)."""
        if address not in settings.metrics_from:
            raise ApiError("forbidden", "metrics are for the operator's scraper", 403)
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> JSONResponse:
        """200 when the database answers, 503 when it does not."""
        try:
            async with app.state.ctx.db.session() as db:
                await db.execute(text("SELECT 1"))
        except Exception as exc:
            return JSONResponse(
                {"status": "unavailable", "database": type(exc).__name__}, status_code=503
            )
        return JSONResponse({"status": "ok", "database": "ok",
                             "process": app.state.ctx.ownership.process_id})

    app.include_router(accounts_router)
    app.include_router(editions_router)
    app.include_router(rooms_router)
    app.include_router(clubs_router)
    app.include_router(play_now_router)
    app.include_router(games_router)
    app.include_router(leagues_router)
    from app.stats.lobby import router as lobby_router  # ratings before a game, the lobby
    from app.stats.views import router as stats_router  # leaderboard, players, records, analysis

    app.include_router(stats_router)
    app.include_router(lobby_router)
    from app.web import router as web_router  # the browser client (static/, docs/client.md)

    app.include_router(web_router)
    return app


app = create_app(tune_gc=True)
