"""The device sessions this process has sockets open for, so an ended session ends at once.

Logout, a fourth device and a new password delete device sessions and announce their ids
(``sessions_ended`` notice, through every process's broadcaster); each process closes those
sessions' sockets with close code 4001. A notice can be lost (Redis down), so every
``presence_heartbeat_seconds`` each process also asks the database which of its sessions still
exist and closes the sockets of the rest. Commands never rely on either: the command path
checks the session inside its write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any, Protocol

from sqlalchemy import select

from app.accounts.models import DeviceSession
from app.accounts.service import SESSIONS_ENDED
from app.db import Database

log = logging.getLogger(__name__)
CHUNK = 500


class SessionSocket(Protocol):
    def end_session(self) -> None:
        """The session ended: stop sending, close with 4001."""


class OpenSessions:
    def __init__(self, db: Database, sweep_seconds: float) -> None:
        self.db = db
        self.sweep_seconds = sweep_seconds
        self._sockets: defaultdict[str, set[SessionSocket]] = defaultdict(set)

    def add(self, session_id: str, socket: SessionSocket) -> None:
        self._sockets[session_id].add(socket)

    def remove(self, session_id: str, socket: SessionSocket) -> None:
        sockets = self._sockets.get(session_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self._sockets[session_id]

    def end(self, session_ids: list[str]) -> int:
        """Ends this process's sockets of ``session_ids``; returns how many."""
        ended = 0
        for session_id in session_ids:
            for socket in self._sockets.pop(session_id, set()):
                socket.end_session()
                ended += 1
        return ended

    def on_notice(self, notice: dict[str, Any]) -> None:
        if notice.get("kind") == SESSIONS_ENDED:
            ids = notice.get("ids")
            if isinstance(ids, list):
                self.end([str(i) for i in ids])

    async def sweep(self) -> int:
        """Ends the sockets of sessions the database no longer has (a lost notice)."""
        open_ids = list(self._sockets)
        alive: set[str] = set()
        async with self.db.session() as db:
            for start in range(0, len(open_ids), CHUNK):
                chunk = open_ids[start:start + CHUNK]
                alive.update(await db.scalars(
                    select(DeviceSession.id).where(DeviceSession.id.in_(chunk))
                ))
        return self.end([i for i in open_ids if i not in alive])

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            if self._sockets:
                with contextlib.suppress(Exception):
                    await self.sweep()

