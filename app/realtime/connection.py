"""One WebSocket watching one room: a player of a side, or a spectator.

Each connection remembers the game and the last sequence number it sent. Broadcasts carry every
event with its private parts; the connection sends each event through ``Event.for_viewer`` for
its own side, then the view and legal actions of that side only. When a broadcast does not
follow on from what was sent (a gap, another process, a slow socket) the connection reads the
missing events from the database instead, so a socket never skips or repeats an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from sqlalchemy import select
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.accounts.service import session_for_token
from app.context import ServerContext
from app.db import is_unavailable
from app.engines.interface import Side
from app.errors import ApiError
from app.games import service
from app.games.commands import CommandRequest
from app.games.models import Game
from app.realtime import messages
from app.realtime.ratelimit import TokenBucket
from app.rooms.models import Room, Seat

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013
SESSION_ENDED = 4001
"""Close code for a socket whose device session ended (logout, a 4th device, a new password)."""
log = logging.getLogger(__name__)
_TEXTS = "_texts"
"""Key under which a broadcast keeps its frames per viewer kind, once encoded."""


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def _event_text(game_id: str, stored: dict[str, Any], side: Side | None) -> str:
    return encode({
        "type": "event", "game_id": game_id, "seq": stored["seq"],
        "event": service.filter_event(stored, side),
    })


def _state_text(message: dict[str, Any], viewer: str) -> str:
    header = message["game"]
    return encode({"type": "state", "seq": header["seq"], "game": header,
                   **message["views"][viewer]})


def viewer_texts(message: dict[str, Any], viewer: str) -> list[str]:
    """The frames one broadcast sends to every socket of ``viewer`` (a side or spectator):
    its events filtered for that viewer, then its state. They are encoded once per viewer kind
    and kept on the message, which this process's sockets share, so a room's spectators cost
    one encoding, not one each."""
    cache: dict[str, list[str]] = message.setdefault(_TEXTS, {})
    texts = cache.get(viewer)
    if texts is None:
        side: Side | None = None if viewer == "spectator" else viewer  # type: ignore[assignment]
        game_id = message["game"]["game_id"]
        texts = [_event_text(game_id, stored, side) for stored in message["events"]]
        texts.append(_state_text(message, viewer))
        cache[viewer] = texts
    return texts


class RoomConnection:
    def __init__(self, ctx: ServerContext, ws: WebSocket, room_id: str) -> None:
        self.ctx = ctx
        self.ws = ws
        self.room_id = room_id
        self.account_id: str | None = None
        self.session_id: str | None = None
        self.ended = False
        """The device session ended: nothing more is sent, the socket is being closed."""
        self._closing: asyncio.Task[None] | None = None
        self.side: Side | None = None
        self.game_id: str | None = None
        self.seq = 0
        self._send_lock = asyncio.Lock()
        settings = ctx.settings
        self.bucket = TokenBucket(settings.ws_rate_per_second, settings.ws_rate_burst)

    @property
    def viewer(self) -> str:
        return self.side or "spectator"

    async def run(self) -> None:
        origin = self.ws.headers.get("origin")
        if origin is not None and origin.lower() not in self.ctx.settings.allowed_origins():
            await self.ws.close(POLICY_VIOLATION, "origin not allowed")
            return
        await self.ws.accept()
        try:
            hello = await self._hello()
        except ApiError as exc:
            await self.send_error(exc)
            await self.ws.close(POLICY_VIOLATION, exc.code)
            return
        except (WebSocketDisconnect, TimeoutError):
            with contextlib.suppress(Exception):
                await self.ws.close(POLICY_VIOLATION, "hello expected")
            return
        except Exception as exc:
            await self._close_for(exc)
            return
        subscription = self.ctx.broadcaster.subscribe(self.room_id)
        if self.session_id is not None:
            self.ctx.sessions.add(self.session_id, self)
        tasks: list[asyncio.Task[None]] = []
        try:
            if self.account_id is not None:
                await self.ctx.presence.connected(self.room_id, self.account_id)
            await self.send(self._welcome())
            await self.catch_up(hello["last_seq"], hello.get("game_id"))
            tasks.append(asyncio.create_task(self._pump(subscription)))
            await self._read_loop()
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as exc:
            await self._close_for(exc)
        finally:
            if self.session_id is not None:
                self.ctx.sessions.remove(self.session_id, self)
            subscription.close()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
            if self.account_id is not None:
                with contextlib.suppress(Exception):
                    await self.ctx.presence.disconnected(self.room_id, self.account_id)

    async def _close_for(self, exc: Exception) -> None:
        """Closes after a failure outside any one message: 1013 when the database does not
        answer (the client reconnects later), else 1011."""
        if is_unavailable(exc):
            code, reason = TRY_AGAIN_LATER, "database unavailable; try again later"
        else:
            log.exception("socket in room %s failed", self.room_id, exc_info=exc)
            code, reason = 1011, "server error"
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    def end_session(self) -> None:
        """The device session behind this socket ended: send nothing more, close with 4001."""
        if self.ended:
            return
        self.ended = True

        async def close() -> None:
            with contextlib.suppress(Exception):
                await self.ws.close(SESSION_ENDED, "session_ended")

        self._closing = asyncio.create_task(close())

    # --- the first message -------------------------------------------------------------------

    async def _hello(self) -> dict[str, Any]:
        frame = await asyncio.wait_for(
            self.ws.receive(), self.ctx.settings.ws_hello_timeout_seconds
        )
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        text = frame.get("text")
        if text is None:
            raise ApiError("bad_message", "send JSON text frames, not binary")
        hello = messages.parse(text, self.ctx.settings.ws_max_message_bytes)
        if hello["type"] != "hello":
            raise ApiError("hello_required", "the first message must be a hello")
        hello["last_seq"] = messages.optional_seq(hello, "last_seq")
        token = hello.get("token")
        async with self.ctx.db.session() as db:
            room = await db.get(Room, self.room_id)
            if room is None:
                raise ApiError("not_found", "no such room", 404)
            if token is not None:
                if not isinstance(token, str):
                    raise ApiError("bad_token", "token must be a string", 401)
                found = await session_for_token(db, token)
                if found is None:
                    raise ApiError("bad_token", "unknown or ended session", 401)
                self.account_id, self.session_id = found[0].id, found[1]
                await db.commit()
            await self._load_side(db)
        return hello

    async def _load_side(self, db: Any) -> None:
        if self.account_id is None:
            self.side = None
            return
        side = await db.scalar(
            select(Seat.side).where(
                Seat.room_id == self.room_id,
                Seat.account_id == self.account_id,
                Seat.left_at.is_(None),
            )
        )
        self.side = side

    def _welcome(self) -> dict[str, Any]:
        return {
            "type": "welcome", "room_id": self.room_id, "account_id": self.account_id,
            "side": self.side, "limits": {
                "max_message_bytes": self.ctx.settings.ws_max_message_bytes,
                "rate_per_second": self.ctx.settings.ws_rate_per_second,
                "burst": self.ctx.settings.ws_rate_burst,
            },
        }

    # --- sending -----------------------------------------------------------------------------

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_texts([encode(message)])

    async def send_texts(self, texts: list[str]) -> None:
        async with self._send_lock:
            for text in texts:
                if self.ended or self.ws.application_state != WebSocketState.CONNECTED:
                    return
                await self.ws.send_text(text)

    async def send_error(self, exc: ApiError, command: str | None = None) -> None:
        body: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
        if command is not None:
            body["id"] = command
        await self.send(body)

    async def catch_up(self, last_seq: int | None, game_id: object = None) -> None:
        """Replays what this viewer missed after ``last_seq``, or sends a snapshot."""
        async with self.ctx.db.session() as db:
            room = await db.get(Room, self.room_id)
            game_key = room.current_game_id if room else None
            game = await db.get(Game, game_key) if game_key else None
            if game is None:
                return
            header = service.game_header(game)
            same_game = game_id is None or game_id == game.id
            if last_seq is not None and same_game and last_seq > game.seq:
                await self.send_error(
                    ApiError("stale_seq", f"no event {last_seq} yet; here is a snapshot")
                )
                last_seq = None
            replay = (
                last_seq is not None and same_game
                and game.seq - last_seq <= self.ctx.settings.ws_replay_limit
            )
            views = await service.snapshot_views(self.ctx.catalog, game)
            mine = views[self.viewer]
            if not replay:
                self.game_id, self.seq = game.id, game.seq
                await self.send({"type": "snapshot", "seq": game.seq, "game": header, **mine})
                return
            assert last_seq is not None
            rows = await service.events_after(db, game.id, last_seq, game.seq - last_seq)
        self.game_id = game.id
        for row in rows:
            await self._send_event(game.id, service.stored_event(row))
        self.seq = game.seq
        await self.send({"type": "state", "seq": game.seq, "game": header, **mine})

    async def _send_event(self, game_id: str, stored: dict[str, Any]) -> None:
        await self.send_texts([_event_text(game_id, stored, self.side)])

    async def _on_game(self, message: dict[str, Any]) -> None:
        header = message["game"]
        events = message["events"]
        if header["game_id"] != self.game_id:
            if not (events and events[0]["seq"] == 1):
                await self.catch_up(None)
                return
            self.game_id, self.seq = header["game_id"], 0
        fresh = [e for e in events if e["seq"] > self.seq]
        if header["seq"] <= self.seq:
            return
        if not fresh or fresh[0]["seq"] != self.seq + 1:
            await self.catch_up(self.seq, self.game_id)
            return
        if len(fresh) == len(events):  # the usual case: the same frames as its viewer kind
            texts = viewer_texts(message, self.viewer)
        else:
            texts = [_event_text(header["game_id"], stored, self.side) for stored in fresh]
            texts.append(_state_text(message, self.viewer))
        self.seq = header["seq"]
        await self.send_texts(texts)

    async def _pump(self, subscription: Any) -> None:
        try:
            while True:
                message = await subscription.get()
                if subscription.overflowed:
                    subscription.overflowed = False
                    await self.catch_up(self.seq, self.game_id)
                    continue
                if message.get("kind") == "seats":
                    before = self.side
                    async with self.ctx.db.session() as db:
                        await self._load_side(db)
                    if self.side != before:
                        await self.send({"type": "seat", "side": self.side})
                        await self.catch_up(None)
                elif message.get("kind") == "game":
                    await self._on_game(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            with contextlib.suppress(Exception):
                await self.ws.close(1011, "send failed")

    # --- receiving ---------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        while True:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            if not self.bucket.take():
                await self.ws.close(POLICY_VIOLATION, "rate limit")
                return
            text = frame.get("text")
            command: str | None = None
            try:
                if text is None:
                    raise ApiError("bad_message", "send JSON text frames, not binary")
                message = messages.parse(text, self.ctx.settings.ws_max_message_bytes)
                raw_id = message.get("id")
                command = raw_id if isinstance(raw_id, str) else None
                await self._handle(message)
            except ApiError as exc:
                await self.send_error(exc, command)
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception as exc:
                # A bug or a database hiccup must not take the socket down: nothing was
                # committed (the command path commits last), so the client may try again.
                if is_unavailable(exc):
                    error = ApiError("unavailable", "the database is not answering; nothing "
                                     "was applied, try again shortly", 503)
                else:
                    log.exception("message from %s in room %s failed", self.viewer,
                                  self.room_id)
                    error = ApiError("internal", "the server could not handle that; try again",
                                     500)
                await self.send_error(error, command)

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send({"type": "pong"})
        elif kind == "hello":
            raise ApiError("bad_message", "already greeted; send sync to catch up")
        elif kind == "sync":
            await self.catch_up(messages.optional_seq(message, "last_seq"), message.get("game_id"))
        elif kind in ("action", "claim"):
            await self._command(message, kind)

    async def _current_game_id(self) -> str:
        async with self.ctx.db.session() as db:
            room = await db.get(Room, self.room_id)
            game_id = room.current_game_id if room else None
        if game_id is None:
            raise ApiError("no_game", "no game has started in this room", 409)
        return game_id

    async def _command(self, message: dict[str, Any], kind: str) -> None:
        command = messages.command_id(message)
        if self.ended:
            raise ApiError("session_ended", "this device's session has ended; sign in again", 401)
        if self.side is None or self.account_id is None:
            raise ApiError("spectator", "spectators cannot act; join a side first", 403)
        action = messages.action_body(message) if kind == "action" else None
        expected = messages.optional_seq(message, "seq")
        game_id = self.game_id or await self._current_game_id()

        def request(game: str) -> CommandRequest:
            assert self.side is not None and self.account_id is not None
            return CommandRequest(
                game_id=game, actor=self.account_id, side=self.side,
                command_id=command, kind="action" if kind == "action" else "claim",
                action=action, expected_seq=expected, session_id=self.session_id,
            )

        try:
            response = await self.ctx.commands.submit(request(game_id))
        except ApiError as exc:
            # This socket may not have heard of a rematch yet (another process started it).
            current = await self._current_game_id() if exc.code == "game_over" else game_id
            if current == game_id:
                raise
            game_id = current
            response = await self.ctx.commands.submit(request(game_id))
        await self.send({"type": "ack", "id": command, "game_id": game_id, **response})
