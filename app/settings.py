"""The one settings object: every knob an operator may turn, read from the environment.

Every field maps to an upper-case environment variable (``DATABASE_URL``, ``WS_RATE_PER_SECOND``,
...). Tests build their own :class:`Settings` and hand it to ``create_app`` instead of patching
globals, so two servers with different settings can run in one test process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from limits import parse
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite+aiosqlite:///{ROOT / 'var' / 'bob.sqlite3'}"
    """SQLAlchemy URL: ``sqlite+aiosqlite:///path`` or ``postgresql+asyncpg://user@host/db``."""
    db_pool_size: int = Field(20, ge=1)
    """Connections each process keeps open (as many again may open for bursts)."""
    live_games_held: int = Field(10_000, ge=0)
    """Live games each process holds parsed (``app.games.live``); 0 reads every command's game."""
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """``debug`` logs one line per command (room, game, actor, side, result)."""
    log_json: bool = True
    """One JSON object a line (for a log store); false: plain text."""
    metrics_from: list[str] = ["127.0.0.1", "::1"]
    """Client addresses that may read ``/metrics``."""
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str = "http://127.0.0.1:8000"
    """Base of invite links; the server never guesses its own public address."""

    # WebSocket hygiene
    ws_max_message_bytes: int = Field(8192, ge=256)
    """Larger text frames get a typed ``too_large`` error; frames above
    ``ws_hard_limit_bytes`` are cut by the protocol layer (close 1009)."""
    ws_hard_limit_bytes: int = Field(1 << 20, ge=1024)
    ws_compression: bool = False
    """permessage-deflate on WebSocket frames. Off: frames are a few hundred bytes of JSON, and
    compressing each one for each socket costs more server time than it saves on the wire."""
    ws_rate_per_second: float = Field(20.0, gt=0)
    ws_rate_burst: int = Field(40, ge=1)
    ws_chat_per_second: float = Field(0.5, gt=0)
    """Reactions and chat lines a socket may send per second (``app.realtime.chatter``)."""
    ws_chat_burst: int = Field(4, ge=1)
    """Token bucket per connection; an empty bucket closes the socket with 1008."""
    ws_allowed_origins: list[str] = ["http://127.0.0.1:8000", "http://localhost:8000"]
    """A browser's ``Origin`` must be listed; clients that send none (bots, CLIs) are let in.
    The origin of ``public_url`` is always allowed as well (:meth:`allowed_origins`)."""
    ws_hello_timeout_seconds: float = Field(10.0, gt=0)
    ws_replay_limit: int = Field(500, ge=1)
    """A reconnecting client further behind than this gets a snapshot instead of a replay."""
    ws_send_queue: int = Field(1000, ge=10)
    """Broadcasts queued for one socket; past it they are dropped and the socket catches up
    from the database once it has drained."""
    ws_heartbeat_seconds: float = Field(5.0, gt=0)
    """How often each socket is told its room's latest seq (and repairs any gap by itself)."""

    # Fan-out
    redis_url: str | None = None
    """Set (``redis://127.0.0.1:6379/0``) to fan out through Redis, needed when several server
    processes share one database; unset, fan-out stays inside this process."""
    redis_channel_prefix: str = "bob:room:"
    redis_notice_channel: str = "bob:notices"
    """Where processes tell each other what is no room's (device sessions that ended)."""
    redis_lease_prefix: str = "bob:"
    room_lease_seconds: float = Field(3.0, ge=0.5)
    """How long a room's owner holds its lease without renewing it (renewed three times a
    lease): after a process dies, others take its rooms within this plus a second."""
    orphan_scan_seconds: float = Field(1.0, gt=0)
    """How often each process looks for due deadlines of rooms nobody owns."""

    # Timers
    default_response_seconds: float = Field(20.0, ge=0.2, le=600)
    default_roll_seconds: float = Field(15.0, ge=0.2, le=600)
    grace_seconds: float = Field(60.0, ge=0.5)
    """A side whose every member has been gone this long may be claimed by the other side."""
    presence_heartbeat_seconds: float = Field(5.0, gt=0)
    timer_tick_seconds: float = Field(0.25, gt=0)
    """The longest the timer runner sleeps; it wakes sooner for a deadline it knows of. Bounds
    how late a deadline set by another process can be applied."""
    computer_delay_ms: int = Field(600, ge=0, le=10_000)
    """How long the computer (the solo opponent) seems to think before each move; a room keeps
    the value it was created with (``timers.computer_delay_ms``)."""
    auto_pass_ms: int = Field(800, ge=0, le=10_000)
    """A side whose only legal action is ``pass`` is passed by the server after this long (with
    a jitter of +/-25% drawn from the game's HMAC dice), whatever its hand holds; a room keeps
    the value it was created with (``timers.auto_pass_ms``). Design note 1."""

    # Analysis
    analysis_refresh_seconds: float = Field(900.0, ge=0)
    """How often the analysis tables are recomputed in a child process (``bob analysis
    refresh``; app/stats/baselines.py); 0 never (run the command yourself)."""

    # Leagues
    league_tick_seconds: float = Field(60.0, ge=0)
    """How often one of the processes applies the leagues' deadline rule (``bob leagues
    decide``; app/leagues/job.py); 0 never (run the command yourself)."""

    # Accounts
    max_device_sessions: int = Field(3, ge=1)
    command_retries: int = Field(5, ge=1)

    # Throttling (``limits`` notation: "20/minute", "10 per 10 minutes"; app/throttle.py)
    limit_login_address: str = "30/minute"
    """Sign-in attempts from one client address, successful or not."""
    limit_login_account: str = "10/10 minutes"
    """Failed sign-ins of one account name, from anywhere."""
    limit_register_address: str = "10/hour"
    limit_guest_address: str = "30/hour"
    """New guest accounts from one client address."""
    limit_rooms_address: str = "60/hour"
    """New rooms from one client address."""
    limit_redeem_address: str = "20/hour"
    """Activation-code redeem attempts from one client address, successful or not."""
    limit_redeem_account: str = "10/hour"
    """Failed redeems of one account (no such code, used, malformed), from anywhere."""
    limit_play_now_address: str = "120/hour"
    """Entries into the play-now queue (``POST /api/play-now``) from one client address; the
    state polls (``GET``) are not counted."""

    # Play now (app/matchmaking)
    play_now_timeout_seconds: float = Field(300.0, gt=0)
    """A waiting play-now entry lapses this long after it entered; a paired one this long
    after its pairing."""

    # Editions (app/editions)
    require_edition_codes: bool = False
    """On: creating a Pro-tier Base on Board room needs the ``pro`` edition, redeemed from the
    box's activation code. Off (the default): every tier is open to everyone."""

    @field_validator(
        "limit_login_address", "limit_login_account", "limit_register_address",
        "limit_guest_address", "limit_rooms_address", "limit_redeem_address",
        "limit_redeem_account", "limit_play_now_address",
    )
    @classmethod
    def _rate(cls, value: str) -> str:
        parse(value)  # raises ValueError for what ``limits`` cannot read
        return value

    def allowed_origins(self) -> frozenset[str]:
        """``ws_allowed_origins`` plus the origin of ``public_url`` (the site's own pages)."""
        found = {o.rstrip("/").lower() for o in self.ws_allowed_origins}
        own = origin_of(self.public_url)
        if own:
            found.add(own)
        return frozenset(found)


def origin_of(url: str) -> str | None:
    """The ``Origin`` a browser sends for pages under ``url``: scheme://host[:port], lower case,
    without the scheme's default port; ``None`` for something that is not an http(s) URL."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        return None
    if port is None or port == {"http": 80, "https": 443}[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


@lru_cache
def get_settings() -> Settings:
    return Settings()
