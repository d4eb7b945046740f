"""Play-by-play in Korean and English, written from the pitch records and the word catalogue.

One line per pitch (:func:`play_by_play`) or per plate appearance with its pitch sequence
(:func:`plate_appearances`). Base on Board codes take their words from ``app.catalogue``
(``base_on_board.json``); Bottom of the 9th codes from
``app/engines/bottom_of_the_ninth/codes.py``. A code without words is shown as the code itself,
so a new code never breaks the text. English shows a code with its words, ``SM (swinging
strike)``; Korean shows the words, ``헛스윙``.

A pitch line: the half and batter, the dice, the cards played, the challenges, the result when
it is not the last die's face, then either the count after the pitch or how the plate
appearance ended, the runs and RBI, and the outs and runners after it::

    Top 3rd — Away #12: SM (swinging strike); 1-2
    3회초 — 원정 12번 타자: 헛스윙; 1-2
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from app.catalogue import CatalogueKeyError, words
from app.records.shape import Record, as_records, normalize, ordinal_en

BOB = "base-on-board"
B9 = "bottom-of-the-9th"

_SECTIONS: dict[str, tuple[str, ...]] = {
    "pitch": ("dice.pitch",),
    "bat": ("dice.bat",),
    "hit": ("dice.hit",),
    "card": ("offense_cards", "defense_cards", "tokens"),
    "result": ("dice.pitch", "dice.bat", "offense_cards", "defense_cards", "tokens",
               "results", "dice.hit", "terms"),
    "pa": ("results",),
}
_PA_ALIASES = {"IOB": "OBS"}
_SIDE = {"en": {"home": "Home", "away": "Away"}, "ko": {"home": "홈", "away": "원정"}}
_CHALLENGE = {
    "en": {"confirm": "confirmed", "reverse": "reversed"},
    "ko": {"confirm": "원심 유지", "reverse": "번복"},
}
_BASE_EN = {0: "1st", 1: "2nd", 2: "3rd"}
_PITCH_CALLS = frozenset({"B", "S", "SM", "F", "C", "X"})


@dataclass(frozen=True, slots=True)
class PlayLine:
    index: int
    """Position in the game's records of the pitch (or, per PA, of its last pitch)."""
    seq: int | None
    inning: int
    half: str
    offense: str
    batter: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "seq": self.seq, "inning": self.inning, "half": self.half,
            "offense": self.offense, "batter": self.batter, "text": self.text,
        }


def _lang(lang: str) -> str:
    if lang not in ("en", "ko"):
        raise ValueError(f"language must be 'en' or 'ko', not {lang!r}")
    return lang


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


@cache
def _b9_card_names() -> dict[str, dict[str, str]]:
    """Bottom of the 9th player cards' names by id (a card in a line reads as its name)."""
    source = resources.files("app.engines.bottom_of_the_ninth").joinpath("cards.json")
    return {c["id"]: c["name"] for c in json.loads(source.read_text("utf-8"))["cards"]}


def _b9_words(code: str, kind: str, lang: str) -> str | None:
    try:  # the engine is young; its words must never break a Base on Board page
        from app.engines.bottom_of_the_ninth import codes
    except ImportError:
        return None

    if kind == "card" and code in _b9_card_names():
        return _b9_card_names()[code][lang]
    table = codes.PA_CODES if kind == "pa" else codes.RESULT_CODES
    found = table.get(code) or codes.PA_CODES.get(code) or codes.TERMS.get(code)
    if found is None:
        return None
    return found[0] if lang == "en" else found[1]


def _bob_words(code: str, kind: str, lang: str) -> str | None:
    if kind == "pa":
        code = _PA_ALIASES.get(code, code)
    for section in _SECTIONS[kind]:
        try:
            return words(BOB, code, lang, section)
        except CatalogueKeyError:
            continue
    return None


def name(code: str, kind: str, lang: str, game: str = BOB) -> str:
    """``code`` in ``lang``: English ``"SM (swinging strike)"``, Korean ``"헛스윙"``.

    ``kind`` is ``pitch``, ``bat``, ``hit`` (die faces), ``card``, ``result`` or ``pa``. A code
    of the form ``"A>B"`` (a call changed by a challenge or a card) reads "A → B"; ``HT:L2``
    reads as its hit face.
    """
    if ">" in code:
        before, after = code.split(">", 1)
        return f"{name(before, kind, lang, game)} → {name(after, 'result', lang, game)}"
    if code.startswith("HT:"):
        return name(code[3:], "hit", lang, game)
    found = _b9_words(code, kind, lang) if game == B9 else _bob_words(code, kind, lang)
    if found is None:
        return code
    if game == B9 and kind == "card":
        return found  # a player card is named, as on its face
    return found if lang == "ko" else f"{code} ({_lower_first(found)})"


def _header(record: Record, lang: str) -> str:
    inning = int(record["inning"])
    side = _SIDE[lang][str(record["offense"])]
    batter = int(record["batter"])
    if lang == "ko":
        return f"{inning}회{'초' if record['half'] == 'top' else '말'} — {side} {batter}번 타자"
    half = "Top" if record["half"] == "top" else "Bottom"
    return f"{half} {ordinal_en(inning)} — {side} #{batter}"


def _bases(bases: str, lang: str) -> str:
    on = [i for i, c in enumerate(bases[:3]) if c == "1"]
    if lang == "ko":
        if not on:
            return "주자 없음"
        if len(on) == 3:
            return "만루"
        return "주자 " + ", ".join(str(i + 1) for i in on) + "루"
    if not on:
        return "bases empty"
    if len(on) == 3:
        return "bases loaded"
    names = " and ".join(_BASE_EN[i] for i in on)
    return f"runner{'s' if len(on) > 1 else ''} on {names}"


def _outs(outs: int, lang: str) -> str:
    if lang == "ko":
        return f"{outs}아웃" if outs else "무사"
    return f"{outs} out{'s' if outs != 1 else ''}"


def _runs(runs: int, rbi: int, lang: str) -> str | None:
    if not runs and not rbi:
        return None
    if lang == "ko":
        text = f"{runs}점 득점" if runs else ""
        return text + (f" (타점 {rbi})" if rbi else "")
    text = f"{runs} run{' scores' if runs == 1 else 's score'}" if runs else ""
    return (text + (f", {rbi} RBI" if rbi else "")).lstrip(", ")


def _game_of(record: Record, game: str | None) -> str:
    if game is not None:
        return game
    return B9 if "stare" in record else BOB


def _dice(record: Record, lang: str, game: str) -> list[str]:
    if game == B9:
        return []
    return [
        name(str(roll.get("face")), str(roll.get("die")), lang, game)
        for roll in record["dice"]
        if roll.get("die") in ("pitch", "bat", "hit")
    ]


def _cards(record: Record, lang: str, game: str) -> str | None:
    if not record["cards"]:
        return None
    parts = []
    for card in record["cards"]:
        side = _SIDE[lang].get(str(card.get("side")), str(card.get("side")))
        text = f"{side} {name(str(card.get('code')), 'card', lang, game)}"
        runner = card.get("runner")
        if runner:
            text += f" [{runner}]"
        parts.append(text)
    return ("카드: " if lang == "ko" else "cards: ") + ", ".join(parts)


def _challenges(record: Record, lang: str, game: str) -> str | None:
    if not record["challenges"]:
        return None
    parts = []
    for c in record["challenges"]:
        side = _SIDE[lang].get(str(c.get("side")), str(c.get("side")))
        call = name(str(c.get("call")), "result", lang, game)
        result = _CHALLENGE[lang].get(str(c.get("result")), str(c.get("result")))
        parts.append(f"{side} {call} {result}" if lang == "ko" else f"{side} on {call}: {result}")
    return ("챌린지: " if lang == "ko" else "challenge: ") + ", ".join(parts)


def _b9_extras(record: Record, lang: str) -> list[str]:
    parts = []
    stare = record.get("stare")
    if isinstance(stare, Mapping):
        d, loc = bool(stare.get("direction_read")), bool(stare.get("location_read"))
        if lang == "ko":
            read = "방향·위치 읽음 (MVP)" if d and loc else (
                "방향 읽음" if d else "위치 읽음" if loc else "못 읽음")
            parts.append(f"응시: {read}")
        else:
            read = "read direction and location (MVP)" if d and loc else (
                "read direction" if d else "read location" if loc else "no read")
            parts.append(f"stare-down: {read}")
    race = record.get("race")
    if isinstance(race, Mapping) and race.get("winner"):
        who = {"home": ("batter", "타자"), "away": ("pitcher", "투수")}.get(
            str(race["winner"]), (str(race["winner"]), str(race["winner"])))
        parts.append(
            f"주루 단계: {who[1]} 승리" if lang == "ko" else f"run phase won by the {who[0]}"
        )
    return parts


def _outcome(record: Record, lang: str, game: str) -> list[str]:
    parts = []
    pa = record.get("pa_result")
    runs = _runs(int(record["runs"]), int(record["rbi"]), lang)
    if pa is not None:
        parts.append(name(str(pa), "pa", lang, game))
    if runs:
        parts.append(runs)
    outs_after = int(record["outs_after"])
    if pa is None and outs_after < 3 and record.get("balls_after") is not None:
        parts.append(f"{record['balls_after']}-{record['strikes_after']}")
    if outs_after != int(record["outs"]) or pa is not None or outs_after >= 3:
        text = _outs(outs_after, lang)
        if outs_after < 3:
            text += ", " + _bases(str(record["bases_after"]), lang)
        parts.append(text)
    elif str(record["bases_after"]) != str(record["bases"]):
        parts.append(_bases(str(record["bases_after"]), lang))
    return parts


def _said(record: Record, game: str) -> set[str]:
    """Codes the line already names, so the result is not repeated."""
    said = {str(card.get("code")) for card in record["cards"]}
    if record.get("pa_result") is not None:
        said.add(str(record["pa_result"]))
    if record["dice"] and game == BOB:
        face = str(record["dice"][-1].get("face"))
        said.update((face, "HT:" + face))
    return said


def pitch_text(record: Mapping[str, Any], lang: str = "en", game: str | None = None) -> str:
    """One pitch as one line of text."""
    lang = _lang(lang)
    rec = normalize(record)
    kind = _game_of(rec, game)
    parts: list[str] = []
    dice = _dice(rec, lang, kind)
    if dice:
        parts.append(", ".join(dice))
    for extra in (_cards(rec, lang, kind), _challenges(rec, lang, kind)):
        if extra:
            parts.append(extra)
    result = str(rec.get("result") or "")
    if result and result not in _said(rec, kind):
        label = "결과" if lang == "ko" else "result"
        parts.append(f"{label}: {name(result, 'result', lang, kind)}")
    if kind == B9:
        parts.extend(_b9_extras(rec, lang))
    parts.extend(_outcome(rec, lang, kind))
    return f"{_header(rec, lang)}: " + "; ".join(parts)


def play_by_play(
    records: Iterable[Mapping[str, Any]], lang: str = "en", game: str | None = None
) -> list[PlayLine]:
    """One line per pitch, in order. ``game`` is guessed per record when not given."""
    lang = _lang(lang)
    return [
        PlayLine(i, _seq(r), int(r["inning"]), str(r["half"]), str(r["offense"]),
                 int(r["batter"]), pitch_text(r, lang, game))
        for i, r in enumerate(as_records(records))
    ]


def _seq(record: Record) -> int | None:
    seq = record.get("seq")
    return None if seq is None else int(seq)


def _pitch_call(record: Record, lang: str, game: str) -> str | None:
    if game == B9:
        result = str(record.get("result") or "")
        return _b9_words(result, "result", lang) or result or None
    for roll in record["dice"]:
        if roll.get("die") == "pitch":
            face = str(roll.get("face"))
            return face if lang == "en" else name(face, "pitch", lang, game)
    if record.get("pitch_by_card"):
        return "C" if lang == "en" else name("C", "pitch", lang, game)
    return None


def plate_appearances(
    records: Iterable[Mapping[str, Any]], lang: str = "en", game: str | None = None
) -> list[PlayLine]:
    """One line per plate appearance: its pitch sequence, cards, and how it ended.

    A plate appearance is the records of one (half-inning, batter); one cut short by the third
    out on the bases or a walk-off ends with "(not completed)".
    """
    lang = _lang(lang)
    rows = as_records(records)
    groups: list[list[tuple[int, Record]]] = []
    key: tuple[int, str, int] | None = None
    for i, record in enumerate(rows):
        this = (int(record["inning"]), str(record["half"]), int(record["batter"]))
        if this != key:
            groups.append([])
            key = this
        groups[-1].append((i, record))
    out = []
    for group in groups:
        index, last = group[-1]
        kind = _game_of(last, game)
        calls = [c for _, r in group if (c := _pitch_call(r, lang, kind))]
        parts = [("투구: " if lang == "ko" else "pitches: ") + (", ".join(calls) or "-")]
        merged: Record = {
            "cards": [c for _, r in group for c in r["cards"]],
            "challenges": [c for _, r in group for c in r["challenges"]],
        }
        for extra in (_cards(merged, lang, kind), _challenges(merged, lang, kind)):
            if extra:
                parts.append(extra)
        pa = last.get("pa_result")
        if pa is None:
            parts.append("(타석 미완료)" if lang == "ko" else "(not completed)")
        else:
            result = str(last.get("result") or "")
            words_pa = name(str(pa), "pa", lang, kind)
            detail = ""
            if result and result != pa and result not in _PITCH_CALLS:
                detail = name(result, "result", lang, kind)
            plain_pa = _bob_words(str(pa), "pa", lang) if kind == BOB else None
            if plain_pa is not None and plain_pa == _bob_words(result, "result", lang):
                detail = ""
            parts.append(f"{words_pa} — {detail}" if detail else words_pa)
        runs = _runs(sum(int(r["runs"]) for _, r in group),
                     sum(int(r["rbi"]) for _, r in group), lang)
        if runs:
            parts.append(runs)
        outs = int(last["outs_after"])
        text = _outs(outs, lang)
        if outs < 3:
            text += ", " + _bases(str(last["bases_after"]), lang)
        parts.append(text)
        out.append(PlayLine(index, _seq(last), int(last["inning"]), str(last["half"]),
                            str(last["offense"]), int(last["batter"]),
                            f"{_header(last, lang)}: " + "; ".join(parts)))
    return out
