"""The bare baseline: FastAPI + uvicorn + websockets broadcasting, no engine, no database.

A socket joins room ``{room_id}`` by connecting to ``/ws/rooms/{room_id}``; every text message a
member sends is sent, as it is, to every member of the room (the sender too). Nothing else:
no hello, no state, no storage. ``/healthz`` answers once the server is up.

    .venv/bin/python bench/bare.py --port 8100

Same stack and settings as ``bob serve``: uvicorn's defaults (uvloop, httptools, websockets),
no permessage-deflate, one process.
"""

from __future__ import annotations

import argparse
import contextlib

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

app = FastAPI()
rooms: dict[str, set[WebSocket]] = {}


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


async def send(member: WebSocket, message: str) -> None:
    # a member going away is that member's loss, not the sender's
    with contextlib.suppress(Exception):
        await member.send_text(message)


@app.websocket("/ws/rooms/{room_id}")
async def room(ws: WebSocket, room_id: str) -> None:
    await ws.accept()
    members = rooms.setdefault(room_id, set())
    members.add(ws)
    try:
        while True:
            message = await ws.receive_text()
            for member in list(members):
                await send(member, message)
    except WebSocketDisconnect:
        pass
    finally:
        members.discard(ws)
        if not members:
            rooms.pop(room_id, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--ws", default="auto",
                        choices=["auto", "websockets", "websockets-sansio", "wsproto"],
                        help="uvicorn's WebSocket implementation (auto: websockets-sansio)")
    args = parser.parse_args()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws=args.ws,
                ws_per_message_deflate=False, ws_max_size=1 << 20)


if __name__ == "__main__":
    main()
