"""Rebuilding games from their commands and seed: the event log is the truth, and this proves it.

A game's stored state, events and dice draws are derived data: its seed, its options and the
commands that were applied (in ``command``, in order of their first event) determine them. A
rebuild starts the engine afresh from the seed, applies each command as the command path did
(a claim or a resign ends the game by forfeit without the engine), and compares what it gets
with what was stored, event by event. A difference means the stored game is not what its moves
made, and says where: a bug in an engine that is not deterministic, a write that lost or doubled
something, a rules change applied to games already played, or a hand-edited row.

A game stored under another rules version than the engine's is not rebuilt (it is reported as
``other_rules``): that engine no longer exists in this server (docs/rules/README.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine_catalog import EngineCatalog
from app.engines.interface import EngineError, Event
from app.games import service
from app.games.fair_dice import RecordingDice
from app.games.models import Command, DiceDraw, Game, GameEvent

FORFEITS = ("claim", "resign")
STAND_IN = "stand_in"


@dataclass(frozen=True)
class GameCheck:
    game_id: str
    kind: str
    status: str
    verdict: str
    """``ok``, ``mismatch`` (``problem`` says where) or ``other_rules`` (not rebuilt)."""
    commands: int = 0
    events: int = 0
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game_id": self.game_id, "kind": self.kind,
                               "status": self.status, "verdict": self.verdict,
                               "commands": self.commands, "events": self.events}
        if self.problem is not None:
            out["problem"] = self.problem
        return out


def _plain(value: Any) -> Any:
    """As the database gives it back: JSON in, JSON out (tuples become lists, and so on)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def _short(value: Any, limit: int = 300) -> str:
    text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    return text if len(text) <= limit else text[:limit] + "…"


def rebuild(
    catalog: EngineCatalog, game: Game, commands: Sequence[Command]
) -> tuple[list[dict[str, Any]], Any, list[dict[str, Any]], str | None]:
    """Replays ``commands`` (applied ones, in order) from the game's seed. Returns the stored
    form of every event, the final state as JSON (``None`` if the game never had one), the
    dice draws, and the first problem met on the way (an action the engine refused, or a
    command whose answer names other events than the replay made)."""
    dice = RecordingDice(game.seed, game.id)
    engine = catalog.make(game.kind, dice)
    state, setup = engine.start(game.options)
    events: list[Event] = [service.opening_event(game), *setup]
    problem: str | None = None
    stand_in: str | None = None

    def closing(result: dict[str, Any]) -> list[Event]:
        return service.closing_events(
            game, result if stand_in is None else {**result, "stand_in": stand_in})

    for command in commands:
        first, last = command.response.get("first_seq"), command.response.get("seq")
        if first != len(events) + 1:
            problem = (f"command {command.command_id!r} answered first_seq {first}, the replay "
                       f"is at event {len(events) + 1}")
            break
        action = dict(command.action)
        if action.get("type") in FORFEITS:
            events += closing(service.forfeit_result(str(action["type"]), command.side))
        elif action.get("type") == STAND_IN:
            stand_in = "away" if command.side == "home" else "home"
            events.append(Event(STAND_IN, {"side": stand_in}))
        else:
            if action not in engine.legal_actions(state, command.side):  # type: ignore[arg-type]
                problem = (f"command {command.command_id!r}: {_short(action)} is not a legal "
                           "action in the rebuilt game")
                break
            try:
                state, made = engine.apply(state, action)
            except EngineError as exc:
                problem = f"command {command.command_id!r} refused by the engine: {exc}"
                break
            events += made
            outcome = engine.outcome(state)
            if outcome is not None:
                events += closing(outcome.to_json())
        if last != len(events):
            problem = (f"command {command.command_id!r} answered seq {last}, the replay made "
                       f"events up to {len(events)}")
            break
    draws = [{"draw_index": i, "n": n, "value": v} for i, (n, v) in sorted(dice.draws.items())]
    return _plain(service.stored_events(1, events)), _plain(engine.to_json(state)), draws, problem


def compare(
    game: Game, stored: Sequence[GameEvent], draws: Sequence[DiceDraw],
    rebuilt: tuple[list[dict[str, Any]], Any, list[dict[str, Any]], str | None],
) -> str | None:
    """The first difference between the stored game and its rebuild, or ``None``."""
    events, state, rebuilt_draws, problem = rebuilt
    if problem is not None:
        return problem
    for row, made in zip(stored, events, strict=False):
        have = {"seq": row.seq, "type": row.type, "data": row.data, "private": row.private}
        if have != made:
            return f"event {row.seq} differs: stored {_short(have)}, rebuilt {_short(made)}"
    if len(stored) != len(events):
        return f"{len(stored)} events stored, the rebuild made {len(events)}"
    if game.seq != len(events):
        return f"the game is at seq {game.seq}, its events end at {len(events)}"
    ended = next((e["data"]["result"] for e in reversed(events) if e["type"] == "game_end"),
                 None)
    if (ended is None) != (game.status == "live") or ended != game.result:
        return f"stored result {_short(game.result)}, rebuilt {_short(ended)}"
    if game.state != state:  # a forfeit leaves the state as the last move made it
        return "the stored state differs from the rebuilt one"
    have_draws = [{"draw_index": d.draw_index, "n": d.n, "value": d.value} for d in draws]
    if have_draws != rebuilt_draws:
        return (f"{len(have_draws)} dice draws stored, the rebuild drew {len(rebuilt_draws)}"
                if len(have_draws) != len(rebuilt_draws) else "the dice draws differ")
    if game.draw_count != len(rebuilt_draws):
        return f"draw_count {game.draw_count}, the rebuild drew {len(rebuilt_draws)}"
    return None


async def applied_commands(db: AsyncSession, game_id: str) -> list[Command]:
    rows = await db.scalars(select(Command).where(Command.game_id == game_id))
    applied = [row for row in rows if row.response.get("result") == "applied"]
    applied.sort(key=lambda row: int(row.response.get("first_seq") or 0))
    return applied


async def game_actions(db: AsyncSession, game_id: str) -> list[dict[str, Any]]:
    """The engine actions applied in the game so far, in order (what its players have seen
    happen; a forfeit or a stand-in is no engine action)."""
    rows = (await db.execute(
        select(Command.action, Command.response).where(Command.game_id == game_id))).all()
    applied = [(int(response.get("first_seq") or 0), action) for action, response in rows
               if response.get("result") == "applied"
               and action.get("type") not in (*FORFEITS, STAND_IN)]
    applied.sort(key=lambda row: row[0])
    return [dict(action) for _, action in applied]


async def verify_game(db: AsyncSession, catalog: EngineCatalog, game: Game) -> GameCheck:
    engine_version = catalog.make(game.kind, RecordingDice(game.seed, game.id)).rules_version
    if game.rules_version != engine_version:
        return GameCheck(game.id, game.kind, game.status, "other_rules",
                         problem=f"rules version {game.rules_version}; this server plays "
                                 f"{engine_version}")
    commands = await applied_commands(db, game.id)
    stored = list(await db.scalars(
        select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.seq)))
    draws = list(await db.scalars(
        select(DiceDraw).where(DiceDraw.game_id == game.id).order_by(DiceDraw.draw_index)))
    try:
        rebuilt = rebuild(catalog, game, commands)
    except EngineError as exc:  # options or a state it refuses (InvalidOptions, InvalidState)
        rebuilt = ([], None, [], f"the engine refused to rebuild it: {exc!r}")
    problem = compare(game, stored, draws, rebuilt)
    return GameCheck(game.id, game.kind, game.status, "ok" if problem is None else "mismatch",
                     commands=len(commands), events=len(stored), problem=problem)


async def verify_games(
    db: AsyncSession, catalog: EngineCatalog, *, sample: int | None = None,
    include_live: bool = False, game_ids: Sequence[str] = (),
) -> list[GameCheck]:
    """Checks the named games, or every finished game (and live ones if asked), or a random
    ``sample`` of them. Kinds this server does not host are skipped."""
    query = select(Game.id).where(Game.kind.in_(catalog.kinds))
    if game_ids:
        query = query.where(Game.id.in_(list(game_ids)))
    elif not include_live:
        query = query.where(Game.status == "finished")
    query = query.order_by(func.random()).limit(sample) if sample else query.order_by(Game.id)
    checks = []
    for game_id in list(await db.scalars(query)):
        game = await db.get(Game, game_id)
        if game is not None:
            checks.append(await verify_game(db, catalog, game))
        db.expunge_all()  # a long run holds one game's rows at a time
    return checks
