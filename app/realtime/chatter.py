"""Reactions and room chat: what a socket may say, and who hears it.

Players and spectators talk in separate channels: a player's words reach everyone in the room,
a spectator's reach spectators only, so nobody watching can coach a side. Nothing of it is
stored: a client that reconnects does not get back what was said meanwhile. Each socket has its
own token bucket for it (``WS_CHAT_PER_SECOND``, ``WS_CHAT_BURST``), apart from the message
bucket, so chatting never costs a move.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from app.errors import ApiError

EMOTES = ("clap", "wow", "laugh", "sad", "fire", "gg", "thumbs_up")
"""The fixed set of reactions; the client draws each one."""
MAX_CHAT_CHARS = 200
PLAYERS, SPECTATORS = "players", "spectators"


def said(message: dict[str, Any], signed_in: bool) -> dict[str, Any]:
    """The part of a ``react`` or ``chat`` message others hear; raises ``bad_message`` for a
    reaction outside :data:`EMOTES` or a chat line that is empty, too long or holds control
    characters, and ``sign_in_required`` for chat from a socket without an account."""
    if message["type"] == "react":
        emote = message.get("emote")
        if emote not in EMOTES:
            raise ApiError("bad_message", f"\"emote\" must be one of {EMOTES}")
        return {"type": "reaction", "emote": emote}
    if not signed_in:
        raise ApiError("sign_in_required", "sign in (a guest account will do) to chat", 401)
    text = message.get("text")
    if not isinstance(text, str):
        raise ApiError("bad_message", "\"text\" must be a string")
    text = " ".join(text.split())
    if not 1 <= len(text) <= MAX_CHAT_CHARS:
        raise ApiError("bad_message", f"a chat line is 1 to {MAX_CHAT_CHARS} characters")
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        raise ApiError("bad_message", "a chat line may not hold control characters")
    return {"type": "chat", "text": text}


def heard_by(channel: str, side: str | None) -> bool:
    """Whether a socket on ``side`` (``None``: a spectator) hears ``channel``."""
    return channel == PLAYERS or side is None
