"""Parsing what a client sends: every failure is a typed :class:`ApiError`, never a crash."""

from __future__ import annotations

import json
from typing import Any

from app.errors import ApiError
from app.validation import MAX_SEQ, BadText, check_tree

CLIENT_TYPES = (
    "hello", "action", "sync", "claim", "resign", "stand_in", "ping", "react", "chat",
)


def parse(text: str, max_bytes: int) -> dict[str, Any]:
    if len(text.encode()) > max_bytes:
        raise ApiError("too_large", f"messages are limited to {max_bytes} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ApiError("bad_json", "the message is not valid JSON") from None
    if not isinstance(message, dict):
        raise ApiError("bad_message", "a message is a JSON object with a \"type\"")
    try:
        check_tree(message)
    except BadText as problem:
        raise ApiError("bad_message", str(problem)) from None
    kind = message.get("type")
    if kind not in CLIENT_TYPES:
        raise ApiError("unknown_type", f"unknown message type {kind!r}; one of {CLIENT_TYPES}")
    return message


def optional_seq(message: dict[str, Any], key: str) -> int | None:
    value = message.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEQ:
        raise ApiError("bad_message", f"{key!r} must be an integer from 0 to {MAX_SEQ}")
    return value


def command_id(message: dict[str, Any]) -> str:
    value = message.get("id")
    if not isinstance(value, str) or not 1 <= len(value) <= 64:
        raise ApiError("bad_message", "\"id\" must be a string of 1 to 64 characters")
    return value


def action_body(message: dict[str, Any]) -> dict[str, Any]:
    value = message.get("action")
    if not isinstance(value, dict):
        raise ApiError("bad_message", "\"action\" must be an object")
    return value
