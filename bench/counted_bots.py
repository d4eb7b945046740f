"""``bob`` (``app.cli``) with a count of the WebSocket frames its client sockets receive.

    python bench/counted_bots.py --frames FILE bots --url ... (any ``bob`` arguments)

Every message a ``websockets`` client connection hands to its reader (``recv``, which ``async
for`` uses too) adds one; at exit the total is written to FILE. It measures what the bots get
per command without touching ``app/``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.connection import Connection  # noqa: E402

from app.cli import main  # noqa: E402

received = 0
_recv = Connection.recv


async def counted_recv(self: Connection, *args: Any, **kwargs: Any) -> Any:
    global received
    message = await _recv(self, *args, **kwargs)
    received += 1
    return message


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "--frames":
        sys.exit("usage: counted_bots.py --frames FILE <bob arguments>")
    frames = Path(sys.argv[2])
    Connection.recv = counted_recv  # type: ignore[method-assign]
    try:
        status = main(sys.argv[3:])
    finally:
        frames.write_text(str(received))
    sys.exit(status)
