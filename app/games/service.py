"""A game's lifecycle outside a single command: starting, deadlines, views, reading the log."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import insert_values, utcnow
from app.engine_catalog import EngineCatalog
from app.engines.interface import PITCH_EVENT, SIDES, Event, GameEngine, Side
from app.errors import ApiError
from app.games.computer import computer_think_ms, pause_fraction, playing_computer
from app.games.fair_dice import RecordingDice, new_seed
from app.games.hold import PASS_TYPE, active
from app.games.live import LiveGame
from app.games.models import DiceDraw, Game, GameEvent, GamePlayer
from app.games.pitches import pitch_row, play_rows

VIEWERS: tuple[str, ...] = ("home", "away", "spectator")
"""Keys of the per-viewer parts of a broadcast; ``spectator`` is the public view."""


def engine_for(
    catalog: EngineCatalog, game: Game | LiveGame
) -> tuple[GameEngine[Any], RecordingDice]:
    dice = RecordingDice(game.seed, game.id)
    return catalog.make(game.kind, dice), dice


def check_rules(engine: GameEngine[Any], game_id: str, rules_version: str) -> None:
    """Refuses to move a game on under rules it did not start with (docs/rules/README.md)."""
    if rules_version != engine.rules_version:
        raise ApiError(
            "rules_changed",
            f"game {game_id} started under rules version {rules_version}; this server plays "
            f"{engine.rules_version}, so the game cannot go on here", 409,
        )


WINDOW_ACTIONS: dict[str, tuple[str, float]] = {"close_race": ("race_window_ms", 250.0)}
"""Timeout actions that end a short window the rules define rather than a player's turn: the
option holding its length in milliseconds and the engine's default (Bottom of the 9th's
closing window of the run-phase race, design note 2)."""


DEFAULT_COMPUTER_DELAY_MS = 600.0
DEFAULT_AUTO_PASS_MS = 800.0
AUTO_PASS_JITTER = 0.25
"""The automatic pass waits ``auto_pass_ms`` times 0.75..1.25 (a draw from the game's dice)."""


Legal = dict[str, list[dict[str, Any]]]
"""Each side's legal actions in one state: computed once per commit (``legal_by_side``) and
shared by the deadlines, the viewers' frames and the next command's check."""


def legal_by_side(engine: GameEngine[Any], state: Any) -> Legal:
    return {side: engine.legal_actions(state, side) for side in SIDES}


def compute_deadlines(
    engine: GameEngine[Any], state: Any, timers: dict[str, Any], now: datetime,
    options: dict[str, Any] | None = None, *, computer: Side | None = None,
    pause: float = 0.5, legal_now: Legal | None = None, think_ms: float = 0.0,
) -> dict[str, Any]:
    """Per side that must act and has a timeout action: when the server acts for it.

    An action whose type mentions ``roll`` runs on the roll timer, a rules window (see
    :data:`WINDOW_ACTIONS`) on its own length, anything else (a response window, a choice) on
    the response timer. Deadlines restart after every applied command.

    The computer's side (``computer``, solo play) gets ``{"timer": "computer"}`` after the
    room's ``computer_delay_ms`` less its ``think_ms`` (a computer that thinks for a time
    thinks within the pause, not after it; see :mod:`app.games.computer`). A side that may pass
    gets the hidden ``pass_at``: ``auto_pass_ms`` from now (jittered by ``pause`` in [0, 1)).
    When ``pass`` is its only legal action it also gets ``acts_at`` = ``pass_at`` and ``acts:
    "pass"``: the server passes for it then; a pass by hand sent sooner is held until then
    (:func:`with_scheduled_pass`). So a pass becomes visible at the same moment whatever the
    hand holds. The hidden keys never leave the server (:func:`public_deadlines`), so nobody
    learns from them what a hand holds.
    """
    options = options or {}
    deadlines: dict[str, Any] = {}
    for side in SIDES:
        legal = legal_now[side] if legal_now is not None else engine.legal_actions(state, side)
        pass_action = {"side": side, "type": PASS_TYPE}
        if not legal:
            continue
        if side == computer:
            ms = float(timers.get("computer_delay_ms", DEFAULT_COMPUTER_DELAY_MS))
            ms = max(0.0, ms - think_ms)
            at = now + timedelta(milliseconds=ms)
            deadlines[side] = {"at": at.isoformat(), "timer": "computer"}
            continue
        action = engine.timeout_action(state, side, legal)
        if action is None:
            continue
        kind = str(action.get("type", ""))
        if kind in WINDOW_ACTIONS:
            timer = "window"
            seconds = float(options.get(WINDOW_ACTIONS[kind][0], WINDOW_ACTIONS[kind][1])) / 1000
        else:
            timer = "roll" if "roll" in kind else "response"
            seconds = float(timers.get(f"{timer}_seconds", 20.0))
        at = now + timedelta(seconds=seconds)
        deadlines[side] = {"at": at.isoformat(), "timer": timer}
        if pass_action in legal:
            ms = float(timers.get("auto_pass_ms", DEFAULT_AUTO_PASS_MS))
            ms *= 1 - AUTO_PASS_JITTER + 2 * AUTO_PASS_JITTER * pause
            pass_at = min(at, now + timedelta(milliseconds=ms)).isoformat()
            deadlines[side]["pass_at"] = pass_at
            if legal == [pass_action]:
                deadlines[side].update(acts_at=pass_at, acts="pass")
    return deadlines


def pass_at(deadlines: dict[str, Any], side: str) -> datetime | None:
    """The earliest moment a pass of ``side`` in the open window may become visible: the
    automatic pass's time (:func:`compute_deadlines`), kept on the server."""
    stamp = (deadlines.get(side) or {}).get("pass_at")
    return datetime.fromisoformat(stamp) if stamp else None


def with_scheduled_pass(deadlines: dict[str, Any], side: str) -> dict[str, Any]:
    """``deadlines`` with the server passing for ``side`` at its ``pass_at``: a pass by hand
    sent before then is applied then, exactly as the automatic pass would be."""
    changed = {key: dict(value) for key, value in deadlines.items()}
    changed[side].update(acts_at=changed[side]["pass_at"], acts="pass")
    return changed


def due_at(deadline: dict[str, Any]) -> datetime:
    """When the server acts on one side's deadline (the hidden automatic pass comes first)."""
    return datetime.fromisoformat(deadline.get("acts_at") or deadline["at"])


def next_deadline(deadlines: dict[str, Any]) -> datetime | None:
    times = [due_at(d) for d in deadlines.values()]
    return min(times) if times else None


def public_deadlines(deadlines: dict[str, Any]) -> dict[str, Any]:
    """Deadlines as clients see them: when and on which timer, never the automatic pass."""
    return {side: {"at": d["at"], "timer": d["timer"]} for side, d in deadlines.items()}


def stored_events(first_seq: int, events: Iterable[Event]) -> list[dict[str, Any]]:
    """Events numbered from ``first_seq`` as they are stored and travel between processes:
    with their private parts, never sent as they are."""
    return [
        {"seq": first_seq + i, "type": e.type, "data": dict(e.data),
         "private": {k: dict(v) for k, v in e.private.items()}}
        for i, e in enumerate(events)
    ]


def event_values(game_id: str, stored: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``game_event`` rows for stored events (see :func:`stored_events`)."""
    now = utcnow()
    return [{**event, "game_id": game_id, "created_at": now} for event in stored]


def stored_event(row: GameEvent) -> dict[str, Any]:
    """A ``game_event`` row as :func:`stored_events` gives it."""
    return {"seq": row.seq, "type": row.type, "data": row.data, "private": row.private}


def filter_event(stored: dict[str, Any], side: Side | None) -> dict[str, Any]:
    event = Event(stored["type"], stored["data"], stored["private"])
    return event.for_viewer(side)


def draw_values(game_id: str, dice: RecordingDice) -> list[dict[str, Any]]:
    """``dice_draw`` rows for the draws one command took."""
    return [
        {"game_id": game_id, "draw_index": index, "n": n, "value": value}
        for index, (n, value) in sorted(dice.draws.items())
    ]


def per_viewer(engine: GameEngine[Any], state: Any, finished: bool,
               legal_now: Legal | None = None, allowed: Legal | None = None) -> dict[str, Any]:
    """Each viewer's view and legal actions, computed once per commit for all its sockets.
    ``legal_now``: each side's ``legal_actions`` in ``state``, when the commit has them.
    ``allowed``: what each side may send instead, when that differs (while a pass is held,
    :meth:`app.games.hold.Hold.legal_by_side`); the views still show the engine's."""
    legal = legal_now if legal_now is not None else legal_by_side(engine, state)
    built = engine.views(state, legal)  # type: ignore[arg-type]  # Legal's keys are sides
    sent = allowed if allowed is not None else legal
    return {
        "home": {"view": built["home"], "legal_actions": [] if finished else sent["home"]},
        "away": {"view": built["away"], "legal_actions": [] if finished else sent["away"]},
        "spectator": {"view": built[None], "legal_actions": []},
    }


def game_header(game: Game | LiveGame, now: datetime | None = None) -> dict[str, Any]:
    """What every viewer may know about a game besides its view, as it may be seen ``now``
    (while a pass is held: its ``seq`` and deadlines before the pass)."""
    hold = active(game, now)
    return {
        "game_id": game.id, "room_id": game.room_id, "kind": game.kind, "number": game.number,
        "status": game.status, "seq": game.seq if hold is None else hold.seq,
        "seed_hash": game.seed_hash,
        "deadlines": public_deadlines(game.deadlines or {}) if hold is None else hold.deadlines,
        "result": game.result, "computer_side": playing_computer(game),
    }


def batch(
    game: Game | LiveGame, events: list[dict[str, Any]], views: dict[str, Any]
) -> dict[str, Any]:
    """The message one commit publishes: header, stored events, every viewer's view."""
    return {"kind": "game", "game": game_header(game), "events": events, "views": views}


def batch_at(
    game: LiveGame, events: list[dict[str, Any]], views: dict[str, Any], at: datetime
) -> dict[str, Any]:
    """:func:`batch` with its header as the game may be seen at ``at``: the end of its hold
    (the held part), or the commit's own time (the part before the held pass, whenever it is
    published)."""
    return {"kind": "game", "game": game_header(game, at), "events": events, "views": views}


@dataclass(frozen=True)
class NewGame:
    """What a game needs of the room it is played in, given by the room's side (games never
    read rooms)."""

    room_id: str
    kind: str
    number: int
    """The game's number in its room, from 1."""
    options: dict[str, Any]
    timers: dict[str, Any]
    players: list[tuple[str, str]]
    """``(account_id, side)`` of everyone seated at the start."""
    computer: dict[str, Any] | None = None
    """The computer's seat, ``{"side", "level"}``, when it plays a side."""


def opening_event(game: Game) -> Event:
    """``game_start``, seq 1 of every game: the seed's commitment and how to check the dice."""
    return Event(
        "game_start",
        {"game_id": game.id, "kind": game.kind, "number": game.number, "options": game.options,
         "seed_hash": game.seed_hash, "hash": "sha256(seed bytes)",
         "draws": "hmac-sha256(seed, f'{game_id}:{index}'), see /api/games/{id}/fairness"},
    )


def closing_events(game: Game | LiveGame, result: dict[str, Any]) -> list[Event]:
    """``game_end`` and ``seed_reveal``, the last two events of every game."""
    return [Event("game_end", {"result": result}),
            Event("seed_reveal", {"seed": game.seed, "seed_hash": game.seed_hash})]


def forfeit_result(kind: str, side: str) -> dict[str, Any]:
    """The result of a game ended without the engine: ``claim`` wins it for ``side`` (the other
    side was gone), ``resign`` loses it for ``side``. Both are rated as abandoned by the
    loser (``app.stats.store.game_result``)."""
    winner = side if kind == "claim" else ("away" if side == "home" else "home")
    return {"winner": winner, "score": {}, "reason": kind}


async def start_game(
    db: AsyncSession, catalog: EngineCatalog, new: NewGame
) -> tuple[Game, dict[str, Any]]:
    """Creates the room's next game (seed committed in its first event); returns it and its
    broadcast. The caller points its room at the game, commits, then publishes the message.
    """
    seed, seed_hash = new_seed()
    game = Game(
        id=secrets.token_hex(8), room_id=new.room_id, number=new.number, kind=new.kind,
        options=new.options, timers=new.timers, computer=new.computer, seed=seed,
        seed_hash=seed_hash, status="live",
        version=1, started_at=utcnow(), state={}, deadlines={},
    )
    engine, dice = engine_for(catalog, game)
    game.rules_version = engine.rules_version
    state, setup_events = engine.start(new.options)
    now = utcnow()
    game.state = engine.to_json(state)
    legal = legal_by_side(engine, state)
    game.deadlines = compute_deadlines(
        engine, state, new.timers, now, new.options, computer=playing_computer(game),
        pause=pause_fraction(game.seed, game.id, game.version), legal_now=legal,
        think_ms=computer_think_ms(catalog, game),
    )
    game.next_deadline_at = next_deadline(game.deadlines)
    game.draw_count = len(dice.draws)
    stored = stored_events(1, [opening_event(game), *setup_events])
    game.seq = len(stored)
    db.add(game)
    await db.flush()
    await insert_values(db, GameEvent, event_values(game.id, stored))
    pitches = [e for e in stored if e["type"] == PITCH_EVENT]
    db.add_all(
        pitch_row(game.id, game.kind, e["seq"], number, e["data"])
        for number, e in enumerate(pitches, start=1)
    )
    db.add_all(play for e in pitches for play in play_rows(game.id, e["seq"], e["data"]))
    await insert_values(db, DiceDraw, draw_values(game.id, dice))
    db.add_all(
        GamePlayer(game_id=game.id, account_id=account_id, side=side)
        for account_id, side in new.players
    )
    await db.flush()
    return game, batch(game, stored, per_viewer(engine, state, finished=False, legal_now=legal))


async def events_after(
    db: AsyncSession, game_id: str, after: int, through: int | None, limit: int
) -> list[GameEvent]:
    """Events after ``after`` up to ``through`` (``hold.held_back``: ``None`` for all),
    at most ``limit``."""
    query = select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.seq > after)
    if through is not None:
        query = query.where(GameEvent.seq <= through)
    return list(await db.scalars(query.order_by(GameEvent.seq).limit(limit)))


async def snapshot_views(
    catalog: EngineCatalog, game: Game, now: datetime | None = None
) -> dict[str, Any]:
    """Every viewer's view and legal actions of ``game`` as it may be seen ``now``."""
    engine, _dice = engine_for(catalog, game)
    hold = active(game, now)
    if hold is not None:
        return per_viewer(engine, engine.from_json(hold.state_json), finished=False,
                          allowed=hold.legal_by_side())
    state = engine.from_json(game.state)
    return per_viewer(engine, state, finished=game.status != "live")
