"""Turns a ``pitch`` event's record (keys documented in ``app/engines/interface.py``) into a row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import utcnow
from app.games.hold import held_back
from app.games.models import Game, Pitch, PitchPlay
from app.records.calls import is_strike, pitch_thrown
from app.records.plays import play_steals, record_cards
from app.records.shape import normalize

_TYPED = (
    "inning", "half", "offense", "defense", "batter", "batter_card", "pitcher",
    "balls", "strikes", "outs", "bases", "balls_after", "strikes_after", "outs_after",
    "bases_after", "dice", "result", "pa_result", "runs", "rbi", "cards", "challenge",
)


def pitch_row(game_id: str, kind: str, seq: int, number: int, record: Mapping[str, Any]) -> Pitch:
    return Pitch(**pitch_values(game_id, kind, seq, number, record))


def pitch_values(
    game_id: str, kind: str, seq: int, number: int, record: Mapping[str, Any]
) -> dict[str, Any]:
    """A ``pitch`` row's columns (all but the generated key), as the command path writes them:
    a plain dict, since building the ORM object only to read it back cost more than the rest
    of the row."""
    challenge = record.get("challenge") or {}
    normal = normalize(record)
    thrown = pitch_thrown(normal)
    return dict(
        game_id=game_id,
        kind=kind,
        seq=seq,
        number=number,
        inning=int(record["inning"]),
        half=str(record["half"]),
        offense=str(record["offense"]),
        defense=str(record["defense"]),
        batter=int(record["batter"]),
        batter_card=_opt_str(record.get("batter_card")),
        pitcher=_opt_str(record.get("pitcher")),
        balls=int(record["balls"]),
        strikes=int(record["strikes"]),
        outs=int(record["outs"]),
        bases=str(record["bases"]),
        balls_after=int(record["balls_after"]),
        strikes_after=int(record["strikes_after"]),
        outs_after=int(record["outs_after"]),
        bases_after=str(record["bases_after"]),
        dice=list(record.get("dice") or []),
        result=str(record["result"]),
        pa_result=_opt_str(record.get("pa_result")),
        runs=int(record.get("runs") or 0),
        rbi=int(record.get("rbi") or 0),
        cards=list(record.get("cards") or []),
        challenge_side=_opt_str(challenge.get("side")),
        challenge_call=_opt_str(challenge.get("call")),
        challenge_result=_opt_str(challenge.get("result")),
        extras={k: v for k, v in record.items() if k not in _TYPED and k != "type"},
        thrown=thrown,
        strike=thrown and is_strike(normal),
        **ninth_columns(record),
        created_at=utcnow(),
    )


def ninth_columns(record: Mapping[str, Any]) -> dict[str, Any]:
    """The Bottom of the 9th columns of a pitch row, from the record's ``stare`` and ``race``
    (top level, or in ``extras`` for a stored row) as ``app.stats.players.ninth_stats`` reads
    them; all ``None`` for a record without them."""
    extras = record.get("extras")
    extras = extras if isinstance(extras, Mapping) else {}
    stare = record.get("stare", extras.get("stare"))
    race = record.get("race", extras.get("race"))
    out: dict[str, Any] = dict.fromkeys(
        ("direction_read", "location_read", "fatigue_direction", "fatigue_location",
         "race_winner"))
    if isinstance(stare, Mapping):
        out["direction_read"] = bool(stare.get("direction_read"))
        out["location_read"] = bool(stare.get("location_read"))
        fatigue = [int(x) for x in stare.get("fatigue") or []]
        if fatigue:  # two rows (direction, location); a lone row counts for both
            out["fatigue_direction"] = fatigue[0]
            out["fatigue_location"] = fatigue[1] if len(fatigue) > 1 else fatigue[0]
    if isinstance(race, Mapping) and race.get("winner"):
        out["race_winner"] = str(race["winner"])
    return out


def play_rows(game_id: str, seq: int, record: Mapping[str, Any]) -> list[PitchPlay]:
    return [PitchPlay(**values) for values in play_values(game_id, seq, record)]


def play_values(game_id: str, seq: int, record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``pitch_play`` rows of one pitch record: its cards with their outcomes and steals,
    then its challenges, as :mod:`app.stats.cards` reads them (an ``RNH`` returned on a foul
    is not played, so it has no row). Written with the pitch row, in the same transaction."""
    normal = normalize(record)
    if not normal["cards"] and not normal["challenges"]:
        return []
    offense = str(normal["offense"])
    plays = record_cards(normal)
    rows = [
        dict(game_id=game_id, seq=seq, kind="card", position=i, side=play.side,
             offense=offense, code=play.code, succeeded=play.success, result=None,
             sb=sb, cs=cs)
        for i, (play, (sb, cs)) in enumerate(zip(plays, play_steals(normal, plays), strict=True))
    ]
    rows += [
        dict(game_id=game_id, seq=seq, kind="challenge", position=i,
             side=str(c.get("side")), offense=offense, code=str(c.get("call")),
             succeeded=c.get("result") == "reverse", result=_opt_str(c.get("result")),
             sb=0, cs=0)
        for i, c in enumerate(normal["challenges"])
    ]
    return rows


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)


async def pitch_records(db: AsyncSession, game: Game) -> list[dict[str, Any]]:
    """The game's pitch records in order (:func:`pitch_out`), as far as they may be seen now:
    a pass held until its time (:mod:`app.games.hold`) may have ended a pitch."""
    query = select(Pitch).where(Pitch.game_id == game.id)
    through = held_back(game)
    if through is not None:
        query = query.where(Pitch.seq <= through)
    return [pitch_out(row) for row in await db.scalars(query.order_by(Pitch.seq))]


def pitch_out(row: Pitch) -> dict[str, Any]:
    """The row as the API returns it: the engine's record keys, plus where it sits in the log."""
    return {
        "seq": row.seq, "number": row.number, "inning": row.inning, "half": row.half,
        "offense": row.offense, "defense": row.defense, "batter": row.batter,
        "batter_card": row.batter_card, "pitcher": row.pitcher, "balls": row.balls,
        "strikes": row.strikes, "outs": row.outs, "bases": row.bases,
        "balls_after": row.balls_after, "strikes_after": row.strikes_after,
        "outs_after": row.outs_after, "bases_after": row.bases_after, "dice": row.dice,
        "result": row.result, "pa_result": row.pa_result, "runs": row.runs, "rbi": row.rbi,
        "cards": row.cards,
        "challenge": None if row.challenge_side is None else {
            "side": row.challenge_side, "call": row.challenge_call,
            "result": row.challenge_result,
        },
        "extras": row.extras,
    }
