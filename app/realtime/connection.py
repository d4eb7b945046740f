"""One WebSocket watching one room: a player of a side, or a spectator.

**One writer** (design note 7). Every frame this socket is sent (the room's broadcasts,
catch-ups read from the database, acks, errors, pongs, heartbeats, the close) goes through one
queue that one task, the writer, empties in order. The writer alone holds the socket's position:
the game it follows, the last event it sent (``seq``) and the last state it sent
(``state_seq``). So nothing can interleave: an event is sent once, in order, and no state older
than one already sent is ever sent, however the broadcasts and the client's ``sync`` requests
arrive.

One shortcut keeps that rule: a broadcast that follows on from what was sent, reaching a writer
that is idle (waiting on an empty queue, no send of its own unfinished), is sent by the
publisher's own call, as if the writer had taken it at once (:meth:`RoomConnection._sent_at_once`).
That is nearly every broadcast, and it spares each frame a wake-up of the writer's task (issue
12). A send that cannot finish at once (the socket's buffer is full) is finished by a task of
its own, and the writer waits for it before anything else, so the order is still the queue's.

Broadcasts carry every event with its private parts; the writer sends each event through
``Event.for_viewer`` for its own side, then the view and legal actions of that side only. A
broadcast that does not follow on from what was sent (a gap, a commit made in another process
whose copy was lost, a slow socket whose queue filled) makes the writer read what is missing
from the database. The room's heartbeat (:mod:`app.realtime.watch`) tells each writer the
room's latest seq every few seconds, so a lost notification is repaired even in a quiet room.

The reader (the connection's own coroutine) only parses what the client sends and hands it on:
a command is submitted to the command path, and its answer goes in the commit's own frame to
this socket when that frame is sent at once (``"ack"`` in the ``update``), else it is queued for
the writer, after that frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Coroutine, Mapping
from typing import Any

import orjson
from sqlalchemy import select
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.accounts.service import session_for_token
from app.context import ServerContext
from app.db import is_unavailable, utcnow
from app.engines.interface import Side
from app.errors import ApiError
from app.games import service
from app.games.commands import ACK, CommandRequest
from app.games.hold import visible_seq
from app.games.models import Game
from app.realtime import chatter, messages
from app.realtime.mailbox import Mailbox
from app.rooms.models import Room
from app.seats.models import Seat
from app.throttle import TokenBucket

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013
SESSION_ENDED = 4001
"""Close code for a socket whose device session ended (logout, a 4th device, a new password)."""
log = logging.getLogger(__name__)
_TEXTS = "_texts"
"""Key under which a broadcast keeps its frames per viewer kind, once encoded."""
_TEXT = "_text"
"""Where a chat broadcast keeps its encoded frame, shared by this process's sockets."""


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def update_text(game_id: str, events: list[dict[str, Any]], header: dict[str, Any],
                mine: dict[str, Any], side: Side | None) -> str:
    """One commit (or a catch-up) as one frame: its events as ``side`` may see them, in order,
    then the state they lead to (``mine``: the viewer's view and legal actions)."""
    return encode({
        "type": "update", "game_id": game_id, "seq": header["seq"],
        "events": [{"seq": e["seq"], "event": service.filter_event(e, side)} for e in events],
        "game": header, **mine,
    })


def with_ack(text: str, ack: dict[str, Any]) -> str:
    """An ``update`` frame's text with the commander's answer in it (``"ack"``): the frame's
    own text with one more key, not a second encoding of the whole commit."""
    return text[:-1] + ',"ack":' + encode(ack) + "}"


def viewer_text(message: dict[str, Any], viewer: str) -> str:
    """The frame one broadcast sends to every socket of ``viewer`` (a side or spectator): its
    events filtered for that viewer and its state, together. It is encoded once per viewer
    kind and kept on the message, which this process's sockets share, so a room's spectators
    cost one encoding, not one each."""
    cache: dict[str, str] = message.setdefault(_TEXTS, {})
    text = cache.get(viewer)
    if text is None:
        side: Side | None = None if viewer == "spectator" else viewer  # type: ignore[assignment]
        header = message["game"]
        text = cache[viewer] = update_text(header["game_id"], message["events"], header,
                                           message["views"][viewer], side)
    return text


async def _finish(sending: Coroutine[Any, Any, None], waited: Any) -> None:
    """Drives ``sending``, a send that stopped to wait (for ``waited``, the future it awaits,
    or ``None`` for a bare yield) when it was begun outside any task, to its end: it waits
    for what the send waits for and resumes it, as the task running it would have. The send
    reads the outcome of what it waited for itself."""
    while True:
        try:
            if waited is None:
                await asyncio.sleep(0)
            else:
                # Taken from the send as a task takes it (asyncio's future protocol): the
                # flag says the future is awaited, and a future is awaited once at a time.
                waited._asyncio_future_blocking = False
                await waited
        except asyncio.CancelledError:
            if not (isinstance(waited, asyncio.Future) and waited.cancelled()):
                sending.close()  # cancelled while not waiting on the send's own future
                raise
            # else: resumed below, the send raises the cancellation itself
        except Exception:
            pass  # the send reads its future's failure when resumed
        try:
            waited = sending.send(None)
        except StopIteration:
            return


def handshake_origin(scope: Mapping[str, Any]) -> str | None:
    """The handshake's ``Origin``, read from the scope as it is: Starlette's ``headers`` would
    build and keep a copy of every header for as long as the socket lives."""
    for name, value in scope["headers"]:
        if name == b"origin":
            return value.decode("latin-1")  # type: ignore[no-any-return]
    return None


class _Close(Exception):
    """The writer closes the socket with this code and reason."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


class RoomConnection:
    def __init__(self, ctx: ServerContext, ws: WebSocket, room_id: str) -> None:
        self.ctx = ctx
        self.ws = ws
        self.room_id = room_id
        self.account_id: str | None = None
        self.name: str | None = None
        """The account's name, which its chat lines and reactions carry."""
        self.session_id: str | None = None
        self.side: Side | None = None
        self.ended = False
        """The device session ended: nothing more is sent, the socket is being closed."""
        # The writer's own: the socket's position in the room's stream.
        self.game_id: str | None = None
        self.seq = 0
        """The last event sent of ``game_id``."""
        self.state_seq = 0
        """The seq of the last state or snapshot sent of ``game_id``."""
        self._queue: Mailbox[tuple[Any, ...]] = Mailbox()
        self._games_queued = 0
        self._behind = False
        """Broadcasts were dropped (a slow socket): catch up once the queue has drained."""
        self._room_told: dict[str, Any] | None = None
        """The room part (spectators, seats) of the last heartbeat sent."""
        self._sending: asyncio.Task[None] | None = None
        """A send begun for the idle writer that could not finish at once: the writer waits
        for it before its next item."""
        self._asking: tuple[str, str] | None = None
        """While this socket's command is being submitted: the token its commit's broadcast
        names (``reply_to``) and the command's id. ``None`` again once its answer went out
        in the commit's own frame."""
        settings = ctx.settings
        self.bucket = TokenBucket(settings.ws_rate_per_second, settings.ws_rate_burst)
        self.chat_bucket = TokenBucket(settings.ws_chat_per_second, settings.ws_chat_burst)

    @property
    def viewer(self) -> str:
        return self.side or "spectator"

    # --- the life of the socket --------------------------------------------------------------

    async def run(self) -> None:
        origin = handshake_origin(self.ws.scope)
        if origin is not None and origin.lower() not in self.ctx.settings.allowed_origins():
            await self.ws.close(POLICY_VIOLATION, "origin not allowed")
            return
        await self.ws.accept()
        try:
            last_seq, game_id = await self._hello()
        except ApiError as exc:
            await self._send_now(self._error_text(exc))
            await self.ws.close(POLICY_VIOLATION, exc.code)
            return
        except (WebSocketDisconnect, TimeoutError):
            with contextlib.suppress(Exception):
                await self.ws.close(POLICY_VIOLATION, "hello expected")
            return
        except Exception as exc:
            await self._close_for(exc)
            return
        await self._serve(last_seq, game_id)

    async def _serve(self, last_seq: int | None, game_id: object) -> None:
        ctx = self.ctx
        # The welcome and the first sync are queued before the socket subscribes: a broadcast
        # that lands while it subscribes must queue behind them, never reach the client first.
        self._put("send", encode(self._welcome()))
        self._put("sync", last_seq, game_id, "hello")
        await ctx.broadcaster.subscribe(self.room_id, self)
        await ctx.watch.add(self.room_id, self)
        if self.session_id is not None:
            ctx.sessions.add(self.session_id, self)
        writer = asyncio.create_task(self._write_loop())
        try:
            if self.account_id is not None:
                await ctx.presence.connected(self.room_id, self.account_id)
            # The reader is this coroutine, not a task of its own beside the writer: a task
            # and the wait on the pair cost every idle socket about 2 KiB (docs/benchmarks.md).
            # It still ends when the writer ends first: every way out of the writer closes
            # the socket or finds it gone, and then the read is a disconnect.
            if await self._read_loop():
                # The reader asked for a close (the rate limit): the writer sends it.
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(writer, 5)
        except WebSocketDisconnect:
            pass
        except Exception as exc:
            writer.cancel()
            await self._close_for(exc)
        finally:
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
            if self._sending is not None:
                self._sending.cancel()
            if self.session_id is not None:
                ctx.sessions.remove(self.session_id, self)
            ctx.watch.remove(self.room_id, self)
            with contextlib.suppress(Exception):
                await ctx.broadcaster.unsubscribe(self.room_id, self)
            if self.account_id is not None:
                with contextlib.suppress(Exception):
                    await ctx.presence.disconnected(self.room_id, self.account_id)

    async def _close_for(self, exc: BaseException) -> None:
        """Closes after a failure outside any one message: 1013 when the database does not
        answer (the client reconnects later), else 1011."""
        if is_unavailable(exc):
            code, reason = TRY_AGAIN_LATER, "database unavailable; try again later"
        else:
            log.error("socket in room %s failed", self.room_id, exc_info=exc,
                      extra={"room_id": self.room_id})
            code, reason = 1011, "server error"
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    # --- what other parts of the server hand this socket -------------------------------------

    def on_room_message(self, message: dict[str, Any]) -> None:
        """A broadcast of the room (this process's commit or another's): sent at once when the
        writer is idle and it follows on (:meth:`_sent_at_once`), else queued for the writer."""
        if message.get("kind") == "seats":
            self._put("seats")
            return
        if message.get("kind") == "chat":
            # Best effort: a socket already this far behind misses what was said.
            if chatter.heard_by(message["channel"], self.side) \
                    and self._queue.qsize() < self.ctx.settings.ws_send_queue:
                self._put("send", message.setdefault(_TEXT, encode(message["said"])))
            return
        header = message.get("game") or {}
        self.ctx.watch.saw(self.room_id, header.get("game_id", ""), int(header.get("seq", 0)))
        if self._games_queued >= self.ctx.settings.ws_send_queue:
            self._behind = True  # dropped: the writer reads it from the database instead
            return
        if self._sent_at_once(message):
            return
        self._games_queued += 1
        self._put("game", message)

    def _sent_at_once(self, message: dict[str, Any]) -> bool:
        """Sends ``message`` now, from the publisher's call, when the writer has nothing under
        way and the broadcast follows on from what was sent: what the writer would do with it
        (its usual case), without waking it. Anything else (a queue not empty, a gap, another
        game, an ended session) is the writer's. Whether it was sent."""
        if self.ended or self._sending is not None or not self._queue.reader_waiting():
            return False
        if not self._follows_on(message["game"], message["events"]):
            return False
        try:
            text = viewer_text(message, self.viewer)
        except Exception:  # the writer meets it too, and fails this socket alone, not the publisher
            return False
        ack = message.get(ACK)
        if ack is not None and self._asking is not None and ack["to"] == self._asking[0]:
            # This socket's own command: its answer rides in the frame (one send, not two).
            text = with_ack(text, {"id": self._asking[1], "game_id": message["game"]["game_id"],
                                   **ack["answer"]})
            self._asking = None
        self.seq = self.state_seq = message["game"]["seq"]
        self._begin_send(text)
        return True

    def _follows_on(self, header: dict[str, Any], events: list[dict[str, Any]]) -> bool:
        """The usual broadcast: of this socket's game, every event new, the first of them the
        next one (its viewer kind's shared frame is then exactly what this socket needs)."""
        return (header["game_id"] == self.game_id and header["seq"] > self.seq
                and bool(events) and events[0]["seq"] == self.seq + 1)

    def _begin_send(self, text: str) -> None:
        """Runs the send of ``text`` as far as it goes without waiting, which is to its end
        unless the socket's buffer is full. A send that must wait is finished by a task, which
        the writer waits for; a send that fails is handed to the writer to fail with, as its
        own send would have."""
        if self.ws.application_state != WebSocketState.CONNECTED:
            return
        sending = self.ws.send_text(text)
        try:
            waited = sending.send(None)
        except StopIteration:
            return
        except Exception as exc:
            self._put("failed", exc)
            return
        task = asyncio.get_running_loop().create_task(_finish(sending, waited))
        self._sending = task
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled():
            task.exception()  # seen here, raised by the writer (which awaits the task)
        self._put("sent")

    def heartbeat(self, game_id: str, seq: int, room: dict[str, Any] | None = None,
                  tell_anyway: bool = True) -> None:
        room = room or {}
        if not tell_anyway and game_id == self.game_id and seq <= self.seq \
                and room == self._room_told:
            # Its stream is there and its client was told this room: no frame, no wake-up.
            return
        self._put("heartbeat", game_id, seq, room)

    def end_session(self) -> None:
        """The device session behind this socket ended: send nothing more, close with 4001."""
        if not self.ended:
            self.ended = True
            self._put("close", SESSION_ENDED, "session_ended")

    def _put(self, *item: Any) -> None:
        self._queue.put_nowait(item)

    # --- the writer ---------------------------------------------------------------------------

    async def _write_loop(self) -> None:
        try:
            while True:
                await self._write(await self._queue.get())
        except _Close as close:
            with contextlib.suppress(Exception):
                await self.ws.close(close.code, close.reason)
        except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
            raise
        except Exception as exc:
            await self._close_for(exc)

    async def _write(self, item: tuple[Any, ...]) -> None:
        """One item of the queue. A method of its own so that nothing of the item outlives
        it: the loop waits for the next one holding no reference to this one. A broadcast
        carries every viewer's view of its commit; were each writer to keep its last one
        while it waits, every game's latest broadcast would stay alive, one more tree of
        dicts and lists for each collection to walk (docs/benchmarks.md)."""
        if self._sending is not None:  # a send begun for this writer goes out first
            sending, self._sending = self._sending, None
            await sending  # its failure is this writer's, as if it had sent it itself
        kind = item[0]
        if kind == "sent":
            return
        if kind == "failed":
            raise item[1]
        if kind == "close":
            raise _Close(item[1], item[2])
        if self.ended:
            return
        if kind == "send":
            await self._send_now(item[1])
        elif kind == "game":
            self._games_queued -= 1
            await self._on_game(item[1])
            if self._behind and self._games_queued == 0:
                self._behind = False
                await self._catch_up(self.seq, self.game_id, "overflow")
        elif kind == "sync":
            await self._catch_up(item[1], item[2], item[3])
        elif kind == "heartbeat":
            await self._on_heartbeat(item[1], item[2], item[3])
        elif kind == "pong":
            latest = self.ctx.watch.latest(self.room_id)
            game_id, seq = latest or (self.game_id, self.seq)
            pong: dict[str, Any] = {"type": "pong", "game_id": game_id, "seq": seq}
            if item[1] is not None:
                pong["id"] = item[1]
            await self._send_now(encode(pong))
        elif kind == "seats":
            await self._on_seats()

    async def _send_now(self, text: str) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            await self.ws.send_text(text)

    async def _on_game(self, message: dict[str, Any]) -> None:
        header = message["game"]
        events = message["events"]
        if header["game_id"] != self.game_id:
            if not (events and events[0]["seq"] == 1):
                await self._catch_up(None, None, "game")
                return
            self.game_id, self.seq, self.state_seq = header["game_id"], 0, 0
        if header["seq"] <= self.seq:
            return  # already sent (a catch-up got there first)
        if self._follows_on(header, events):
            text = viewer_text(message, self.viewer)
        else:
            fresh = [e for e in events if e["seq"] > self.seq]
            if not fresh or fresh[0]["seq"] != self.seq + 1:
                await self._catch_up(self.seq, self.game_id, "gap")
                return
            text = update_text(header["game_id"], fresh, header, message["views"][self.viewer],
                               self.side)
        self.seq = self.state_seq = header["seq"]
        await self._send_now(text)

    async def _on_heartbeat(self, game_id: str, seq: int, room: dict[str, Any]) -> None:
        """Repairs this socket's stream if the room moved on without it, then tells the
        client the room's seq (so a client missing something asks for it)."""
        if game_id != self.game_id:
            await self._catch_up(None, None, "heartbeat")
        elif seq > self.seq:
            await self._catch_up(self.seq, self.game_id, "heartbeat")
        await self._send_now(encode({"type": "heartbeat", "game_id": game_id, "seq": seq,
                                     **room}))
        self._room_told = room

    async def _on_seats(self) -> None:
        """The room changed (seats, a rematch offer): say so, so the client reads the room
        again, and if this socket's side changed, give it the new side's snapshot."""
        before = self.side
        async with self.ctx.db.session() as db:
            await self._load_side(db)
        await self._send_now(encode({"type": "room", "room_id": self.room_id}))
        if self.side != before:
            await self._send_now(encode({"type": "seat", "side": self.side}))
            await self._catch_up(None, None, "seat")

    async def _catch_up(self, last_seq: int | None, game_id: object, reason: str) -> None:
        """Sends what this viewer misses after ``last_seq`` (the client's word, or the writer's
        own position), or a snapshot. Never anything already sent, never an older state: the
        replay starts after the later of ``last_seq`` and what was sent, and what the database
        holds is at least as new as any broadcast."""
        self.ctx.metrics.resyncs.labels(reason).inc()
        async with self.ctx.db.session() as db:
            room = await db.get(Room, self.room_id)
            game_key = room.current_game_id if room else None
            game = await db.get(Game, game_key) if game_key else None
            if game is None:
                return
            # One moment for all of it: a pass held until then is not part of it.
            now = utcnow()
            seen = visible_seq(game, now)
            header = service.game_header(game, now)
            same_game = game_id is None or game_id == game.id
            if last_seq is not None and same_game and last_seq > seen:
                await self._send_now(self._error_text(
                    ApiError("stale_seq", f"no event {last_seq} yet; here is a snapshot")))
                last_seq = None
            start = last_seq if same_game else None
            if start is not None and self.game_id == game.id:
                start = max(start, self.seq)
            replay = start is not None and seen - start <= self.ctx.settings.ws_replay_limit
            rows = await service.events_after(db, game.id, start, seen, seen - start) if (
                replay and start is not None) else []
        mine = (await service.snapshot_views(self.ctx.catalog, game, now))[self.viewer]
        if not replay:
            self.game_id, self.seq, self.state_seq = game.id, seen, seen
            self.ctx.metrics.snapshots.inc()
            await self._send_now(encode({"type": "snapshot", "seq": seen, "game": header,
                                         **mine}))
            return
        if self.game_id != game.id:
            self.game_id, self.seq, self.state_seq = game.id, start or 0, 0
        missed = [service.stored_event(r) for r in rows if r.seq > self.seq]
        self.seq = max(self.seq, seen)
        if seen >= self.state_seq:
            self.state_seq = seen
            await self._send_now(update_text(game.id, missed, header, mine, self.side))

    def _error_text(self, exc: ApiError, command: str | None = None) -> str:
        body: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
        if command is not None:
            body["id"] = command
        return encode(body)

    # --- the first message -------------------------------------------------------------------

    async def _hello(self) -> tuple[int | None, object]:
        """Reads the hello and signs the socket in; what to replay first (``last_seq`` and
        ``game_id``), and nothing else of the hello, which would live as long as the socket."""
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
        last_seq = messages.optional_seq(hello, "last_seq")
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
                self.name = found[0].name
                await db.commit()
            await self._load_side(db)
        return last_seq, hello.get("game_id")

    async def _load_side(self, db: Any) -> None:
        if self.account_id is None:
            self.side = None
            return
        self.side = await db.scalar(
            select(Seat.side).where(
                Seat.room_id == self.room_id,
                Seat.account_id == self.account_id,
                Seat.left_at.is_(None),
            )
        )

    def _welcome(self) -> dict[str, Any]:
        settings = self.ctx.settings
        return {
            "type": "welcome", "room_id": self.room_id, "account_id": self.account_id,
            "side": self.side, "limits": {
                "max_message_bytes": settings.ws_max_message_bytes,
                "rate_per_second": settings.ws_rate_per_second,
                "burst": settings.ws_rate_burst,
            },
            "heartbeat_seconds": settings.ws_heartbeat_seconds,
        }

    # --- the reader ----------------------------------------------------------------------------

    async def _read_loop(self) -> bool:
        """Reads until the client goes (False) or must be closed by the writer (True)."""
        while True:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return False
            if not self.bucket.take():
                self._put("close", POLICY_VIOLATION, "rate limit")
                return True
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
                self._put("send", self._error_text(exc, command))
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
                                  self.room_id, extra={"room_id": self.room_id})
                    error = ApiError("internal", "the server could not handle that; try again",
                                     500)
                self._put("send", self._error_text(error, command))

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            raw_id = message.get("id")
            self._put("pong", raw_id if isinstance(raw_id, str) and len(raw_id) <= 64 else None)
        elif kind == "hello":
            raise ApiError("bad_message", "already greeted; send sync to catch up")
        elif kind == "sync":
            self._put("sync", messages.optional_seq(message, "last_seq"), message.get("game_id"),
                      "sync")
        elif kind in ("action", "claim", "resign", "stand_in"):
            await self._command(message, kind)
        elif kind in ("react", "chat"):
            await self._say(message)

    async def _say(self, message: dict[str, Any]) -> None:
        """A reaction or a chat line, to the room's channel of this socket's kind."""
        if self.ended:
            raise ApiError("session_ended", "this device's session has ended; sign in again", 401)
        words = chatter.said(message, self.account_id is not None)
        if not self.chat_bucket.take():
            raise ApiError("chat_rate", "slow down: reactions and chat are limited", 429)
        channel = chatter.PLAYERS if self.side is not None else chatter.SPECTATORS
        await self.ctx.broadcaster.publish(self.room_id, {
            "kind": "chat", "room_id": self.room_id, "channel": channel,
            "said": {**words, "from": {"name": self.name, "side": self.side}},
        })

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
        started = time.perf_counter()

        def request(game: str) -> CommandRequest:
            assert self.side is not None and self.account_id is not None
            return CommandRequest(
                game_id=game, actor=self.account_id, side=self.side,
                command_id=command, kind=kind,  # type: ignore[arg-type]  # checked by _handle
                action=action, expected_seq=expected, session_id=self.session_id,
                reply_to=reply_to,
            )

        reply_to = secrets.token_hex(8)
        self._asking = (reply_to, command)
        try:
            response = await self.ctx.commands.submit(request(game_id))
        except ApiError as exc:
            # This socket may not have heard of a rematch yet (another process started it).
            current = await self._current_game_id() if exc.code == "game_over" else game_id
            if current == game_id:
                raise
            game_id = current
            response = await self.ctx.commands.submit(request(game_id))
        finally:
            answered, self._asking = self._asking is None, None
            metrics = self.ctx.metrics
            metrics.labelled(metrics.command_seconds, kind).observe(time.perf_counter() - started)
        if not answered:  # no frame of its commit took it (none, or one the writer sends)
            self._put("send", encode({"type": "ack", "id": command, "game_id": game_id,
                                      **response}))
