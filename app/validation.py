"""Text a client sends is checked once, where it enters: no NUL, no unpaired surrogate.

Python's JSON parser turns ``"\\ud800"`` into a lone surrogate, which no database or encoder
downstream accepts (asyncpg and orjson raise, SQLite stores garbage), and PostgreSQL refuses a
NUL in text. Rejecting both at the edge turns what used to be a 500 into a typed 422 (REST) or
``bad_message`` (socket), and lets everything behind the edge assume clean text.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, model_validator

_BAD = re.compile("[\x00\ud800-\udfff]")
MAX_SEQ = 2**31 - 1
"""Sequence numbers are 32-bit in the database: a larger one cannot name an event."""
MAX_DEPTH = 32
"""Deeper input than this is refused: nothing the API accepts nests so deep."""


class BadText(ValueError):
    """A string holds a NUL or an unpaired surrogate (or the input nests absurdly deep)."""


def check_text(value: str) -> str:
    if _BAD.search(value):
        raise BadText("text must not contain NUL characters or unpaired surrogates")
    return value


def check_tree(value: Any, depth: int = 0) -> None:
    """Checks every string (keys too) in parsed JSON."""
    if depth > MAX_DEPTH:
        raise BadText(f"input nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        check_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                check_text(key)
            check_tree(item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            check_tree(item, depth + 1)


class ApiModel(BaseModel):
    """Base of every request body: its raw input is checked by :func:`check_tree` first."""

    @model_validator(mode="before")
    @classmethod
    def _clean_text(cls, data: Any) -> Any:
        check_tree(data)
        return data
