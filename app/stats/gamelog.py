"""A stored game's pitch records, its engine state at any sequence number, and its export.

**Replay by engine.** Every change to a game goes through the command path, which stores the
applied action in the ``command`` row (``action``, with ``response.first_seq`` / ``seq``: the
events it wrote). The engine is deterministic given its dice, and the dice are the HMAC stream
of the game's seed (draw ``i`` depends only on the seed, the game id and ``i``). So the state
after event ``N`` is: the engine's starting state for the game's options, then each stored
action, in ``first_seq`` order, whose events end at or before ``N``. A claim or a resign
changes no state (the engine never saw it). This is only offered once the game is over: before
that the seed is secret and the full state holds hidden cards.

**Replay by records.** :func:`app.stats.replay.state_at_seq` gives the public situation (inning,
count, outs, bases, score, line) after any pitch from the pitch rows alone; it works while a game
is live.

**Export** (:func:`export`): options, seed, every action with its sequence numbers, the pitch
records, box score and play-by-play: enough to replay the game with the engine anywhere
(:func:`replay_export`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine_catalog import EngineCatalog
from app.engines.dice import HmacDice
from app.engines.interface import GameEngine
from app.games.hold import visible_seq
from app.games.models import Command, Game
from app.games.pitches import pitch_records
from app.offload import CpuWork
from app.stats.replay import export_game

EXPORT_VERSION = 1


async def actions(db: AsyncSession, game_id: str) -> list[dict[str, Any]]:
    """The applied actions in order: ``{"first_seq", "seq", "side", "actor", "action"}``."""
    rows = await db.scalars(select(Command).where(Command.game_id == game_id))
    out: list[dict[str, Any]] = [
        {"first_seq": int(row.response.get("first_seq", 0)), "seq": int(row.response["seq"]),
         "side": row.side, "server": row.actor == "server", "action": row.action}
        for row in rows if row.response.get("result") == "applied"
    ]
    out.sort(key=lambda a: a["first_seq"])
    return out


def start_state(engine: GameEngine[Any], options: Mapping[str, Any]) -> Any:
    return engine.start(dict(options))[0]


def replay_actions(
    engine: GameEngine[Any], options: Mapping[str, Any], steps: Sequence[Mapping[str, Any]],
    seq: int | None = None,
) -> tuple[Any, int | None]:
    """The engine state after the steps whose events end at or before ``seq`` (all if None),
    and the seq of the last step applied (``None``: the starting state)."""
    state = start_state(engine, options)
    at: int | None = None
    for step in steps:
        if seq is not None and int(step["seq"]) > seq:
            break
        at = int(step["seq"])
        if step["action"].get("type") in ("claim", "resign"):
            continue
        state, _events = engine.apply(state, step["action"])
    return state, at


async def engine_state_at(
    db: AsyncSession, catalog: EngineCatalog, game: Game, seq: int | None
) -> dict[str, Any]:
    """The engine's public view and full state after event ``seq`` of a finished game."""
    engine = catalog.make(game.kind, HmacDice(bytes.fromhex(game.seed), game.id))
    state, at = replay_actions(engine, game.options, await actions(db, game.id), seq)
    return {"applied_seq": at, "view": engine.view(state, None), "state": engine.to_json(state)}


async def export(db: AsyncSession, game: Game, cpu: CpuWork) -> Response:
    """The whole game as one JSON document (the seed and actions only once the game is
    over). The rows are read here; the document is built and encoded off the loop."""
    over = game.status != "live"
    meta = {
        "format": "bob-game-export", "version": EXPORT_VERSION,
        "game_id": game.id, "kind": game.kind, "options": game.options, "status": game.status,
        "result": game.result, "seq": visible_seq(game), "seed_hash": game.seed_hash,
        "seed": game.seed if over else None,
        "started_at": game.started_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
    played = await actions(db, game.id) if over else []
    return await cpu.json(_export_document, await pitch_records(db, game), meta, played)


def _export_document(
    rows: list[dict[str, Any]], meta: dict[str, Any], played: list[dict[str, Any]]
) -> dict[str, Any]:
    return {**export_game(rows, meta), "actions": played}


def replay_export(catalog: EngineCatalog, document: Mapping[str, Any]) -> Any:
    """The final engine state of an exported (finished) game, replayed from its actions."""
    dice = HmacDice(bytes.fromhex(str(document["seed"])), str(document["game_id"]))
    engine = catalog.make(str(document["kind"]), dice)
    return engine.to_json(replay_actions(engine, document["options"], document["actions"])[0])
