"""The game at any point, and a whole game as one JSON document, from its pitch records.

:func:`state_at` replays the records: the situation after the first ``n`` pitches (``n = 0`` is
the start; with ``seq`` numbers, use :func:`state_at_seq`). It reads each record's ``*_after``
fields and sums ``runs``, so it needs no engine. :func:`export_game` bundles the records, line
score, box score and both play-by-plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.records.shape import SIDES, as_records
from app.stats.boxscore import HITS, box_score
from app.stats.playbyplay import plate_appearances, play_by_play


def _replay(rows: list[dict[str, Any]], n: int) -> dict[str, Any]:
    if not 0 <= n <= len(rows):
        raise ValueError(f"n must be between 0 and {len(rows)}")
    score = dict.fromkeys(SIDES, 0)
    hits = dict.fromkeys(SIDES, 0)
    line: dict[str, list[int]] = {side: [] for side in SIDES}
    key = None
    for record in rows[:n]:
        offense = str(record["offense"])
        if (record["inning"], record["half"]) != key:
            key = (record["inning"], record["half"])
            line[offense].append(0)
        score[offense] += int(record["runs"])
        line[offense][-1] += int(record["runs"])
        hits[offense] += record.get("pa_result") in HITS
    if n == 0:
        first = rows[0] if rows else None
        situation = {
            "inning": first["inning"] if first else 1, "half": first["half"] if first else "top",
            "offense": first["offense"] if first else None,
            "batter": first["batter"] if first else 1,
            "balls": 0, "strikes": 0, "outs": 0, "bases": "000",
        }
    else:
        situation = _after(rows[n - 1])
    return {
        "pitches": n, "seq": rows[n - 1].get("seq") if n else None, **situation,
        "score": score, "hits": hits, "line": line,
    }


def states(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The situation after every number of pitches, 0 to all: ``state_at(records, n)`` for
    each ``n``, in one pass instead of one replay each."""
    rows = as_records(records)
    out = [_replay(rows, 0)]
    score = dict.fromkeys(SIDES, 0)
    hits = dict.fromkeys(SIDES, 0)
    line: dict[str, list[int]] = {side: [] for side in SIDES}
    key = None
    for n, record in enumerate(rows, start=1):
        offense = str(record["offense"])
        if (record["inning"], record["half"]) != key:
            key = (record["inning"], record["half"])
            line[offense].append(0)
        score[offense] += int(record["runs"])
        line[offense][-1] += int(record["runs"])
        hits[offense] += record.get("pa_result") in HITS
        out.append({
            "pitches": n, "seq": record.get("seq"), **_after(record), "score": dict(score),
            "hits": dict(hits), "line": {side: list(runs) for side, runs in line.items()},
        })
    return out


def _after(last: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "inning": last["inning"], "half": last["half"], "offense": last["offense"],
        "batter": int(last["batter"]) + (last.get("pa_result") is not None),
        "balls": last["balls_after"], "strikes": last["strikes_after"],
        "outs": last["outs_after"], "bases": last["bases_after"],
    }


def state_at(records: Iterable[Mapping[str, Any]], n: int) -> dict[str, Any]:
    """The situation after the first ``n`` pitches: inning, half, count, outs, bases, score.

    After a half's third out the state shows that half with 3 outs (the next half has not begun).
    """
    return _replay(as_records(records), n)


def state_at_seq(records: Iterable[Mapping[str, Any]], seq: int) -> dict[str, Any]:
    """The situation right after the pitch with sequence number ``seq`` (records need ``seq``)."""
    rows = as_records(records)
    n = sum(1 for r in rows if r.get("seq") is not None and int(r["seq"]) <= seq)
    return _replay(rows, n)


def export_game(
    records: Iterable[Mapping[str, Any]], meta: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The whole game as one JSON-ready document."""
    rows = as_records(records)
    return {
        **dict(meta or {}),
        "pitches": rows,
        "box_score": box_score(rows).to_json(),
        "play_by_play": {
            lang: [line.to_json() for line in play_by_play(rows, lang)] for lang in ("ko", "en")
        },
        "plate_appearances": {
            lang: [line.to_json() for line in plate_appearances(rows, lang)]
            for lang in ("ko", "en")
        },
    }
