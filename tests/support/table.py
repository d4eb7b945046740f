"""A hand-driven table for tests: two guests seated, sockets with message logs, helpers to act."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection

from app.bots.client import expand, guest, open_socket

Message = dict[str, Any]


class Client:
    """A socket and everything it received, in order."""

    def __init__(self, ws: ClientConnection, welcome: Message) -> None:
        self.ws = ws
        self.log: list[Message] = [welcome]
        self._read = 1
        self.welcome = welcome

    async def send(self, message: Message) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, match: Any = None, timeout: float = 10.0) -> Message:
        """The next unread message (satisfying ``match`` if given), reading from the socket."""
        async with asyncio.timeout(timeout):
            while True:
                while self._read < len(self.log):
                    message = self.log[self._read]
                    self._read += 1
                    if match is None or match(message):
                        return message
                self.log.extend(expand(json.loads(await self.ws.recv())))

    async def error(self, timeout: float = 10.0) -> Message:
        return await self.next(lambda m: m["type"] == "error", timeout)

    async def state_at(self, seq: int, timeout: float = 10.0) -> Message:
        """The newest state or snapshot at ``seq`` or later, read or already received."""
        for message in reversed(self.log[: self._read]):
            if message["type"] in ("state", "snapshot"):
                if message["seq"] >= seq:
                    return message
                break
        return await self.next(
            lambda m: m["type"] in ("state", "snapshot") and m["seq"] >= seq, timeout
        )

    def events(self) -> list[tuple[int, Message]]:
        return [(m["seq"], m["event"]) for m in self.log if m["type"] == "event"]

    def raw(self) -> str:
        return json.dumps(self.log)

    async def close(self) -> None:
        await self.ws.close()


@dataclass
class Table:
    url: str
    http: httpx.AsyncClient
    home_session: Message
    away_session: Message
    room_id: str = ""
    game_id: str = ""
    home: Client | None = None
    away: Client | None = None
    seq: int = 1
    spectators: list[Client] = field(default_factory=list)

    def token(self, side: str) -> str:
        session = self.home_session if side == "home" else self.away_session
        return str(session["token"])

    def auth(self, side: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(side)}"}

    def client(self, side: str) -> Client:
        client = self.home if side == "home" else self.away
        assert client is not None
        return client

    async def connect(self, side: str | None, last_seq: int | None = None) -> Client:
        token = None if side is None else self.token(side)
        ws, welcome = await open_socket(self.url, self.room_id, token, last_seq)
        return Client(ws, welcome)

    async def invite(self, side: str) -> str:
        """The invitation token of ``side``, as one of its members asks for it."""
        response = await self.http.get(f"/api/rooms/{self.room_id}/invite",
                                       headers=self.auth(side))
        assert response.status_code == 200, response.text
        return str(response.json()["token"])

    async def join_teammate(self, side: str) -> Message:
        """A new guest joins ``side`` of the started game, invited by a member; its session."""
        mate = await guest(self.http)
        joined = await self.http.post(
            f"/api/rooms/{self.room_id}/join",
            json={"side": side, "invite": await self.invite(side)},
            headers={"Authorization": f"Bearer {mate['token']}"},
        )
        assert joined.status_code == 200, joined.text
        return mate

    async def latest_states(self) -> dict[str, Message]:
        return {side: await self.client(side).state_at(self.seq) for side in ("home", "away")}

    async def act(self, side: str, action: Message, command: str | None = None,
                  seq: int | None = None) -> Message:
        """Sends an action and returns its ack or error (matched by command id)."""
        command = command or uuid.uuid4().hex
        body: Message = {"type": "action", "id": command, "action": action}
        if seq is not None:
            body["seq"] = seq
        client = self.client(side)
        await client.send(body)
        reply = await client.next(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == command
        )
        if reply["type"] == "ack":
            self.seq = max(self.seq, reply["seq"])
        return reply

    async def step(self) -> Message | None:
        """The side to move plays its first legal action; None when the game is over."""
        states = await self.latest_states()
        for side, state in states.items():
            if state["game"]["status"] != "live":
                return None
            if state["legal_actions"]:
                reply = await self.act(side, state["legal_actions"][0])
                while reply.get("code") == "roll_rate":  # race rolls are capped per second
                    await asyncio.sleep(0.3)
                    reply = await self.act(side, state["legal_actions"][0])
                assert reply["type"] == "ack", reply
                if reply["result"] == "scheduled":  # a pass held until the window's pause
                    self.seq = max(self.seq, await self._applied_after(side, reply["seq"]))
                return reply
        raise AssertionError(f"nobody may act at seq {self.seq}")

    async def _applied_after(self, side: str, seq: int) -> int:
        """The seq of the state after a held pass. Another server on the same database (the
        suite's shared one) may apply it, and without Redis this server's sockets would only
        hear of it on a sync: ask for one if it does not come."""
        client = self.client(side)
        try:
            return int((await client.state_at(seq + 1, timeout=5))["seq"])
        except TimeoutError:
            await client.send({"type": "sync", "last_seq": seq, "game_id": self.game_id})
            return int((await client.state_at(seq + 1))["seq"])

    async def play_out(self, limit: int = 2000) -> None:
        for _ in range(limit):
            if await self.step() is None:
                return
        raise AssertionError("game did not end")

    async def close(self) -> None:
        for client in (self.home, self.away, *self.spectators):
            if client is not None:
                await client.close()
        await self.http.aclose()


async def open_table(url: str, kind: str = "dice-duel", options: Message | None = None,
                     timers: Message | None = None, spectators: int = 1,
                     players: Any = None) -> Table:
    """A live game between two players (guests, or the sessions ``await players(http)``
    gives), with ``spectators`` watching from its first event."""
    http = httpx.AsyncClient(base_url=url, timeout=30)
    home, away = await players(http) if players else (await guest(http), await guest(http))
    table = Table(url, http, home, away)
    body: Message = {
        "kind": kind, "options": {"innings": 3} if options is None else options, "side": "home"
    }
    if timers:
        body["timers"] = timers
    created = await http.post("/api/rooms", json=body, headers=table.auth("home"))
    assert created.status_code == 201, created.text
    table.room_id = created.json()["id"]
    table.spectators = [await table.connect(None, last_seq=0) for _ in range(spectators)]
    table.home = await table.connect("home")
    table.away = await table.connect("away")
    joined = await http.post(
        f"/api/rooms/{table.room_id}/join", json={"side": "away"}, headers=table.auth("away")
    )
    assert joined.status_code == 200, joined.text
    table.game_id = joined.json()["current_game_id"]
    assert table.game_id
    return table
