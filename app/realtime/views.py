"""``/ws/rooms/{room_id}``: the live game stream (protocol in docs/protocol.md)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.realtime.connection import RoomConnection

router = APIRouter()


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    await RoomConnection(websocket.app.state.ctx, websocket, room_id).run()
