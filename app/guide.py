"""The rules pages (``/rules/<game>``): the player's guide of ``docs/rules/<game>.guide.md`` in
Korean or English, with its tables filled from the word catalogue and the engines' data.

One source: the guide's prose says the rules as ``docs/rules/<game>.md`` decides them, and every
code table comes from the same catalogue the tables, the play-by-play and the API use, so a code
is never explained in two places. The prose is Markdown, rendered by ``markdown-it-py`` (a
maintained CommonMark parser) with raw HTML switched off, so the page's HTML is only what the
renderer and this module write, every text escaped. Every code is put in a ``<code
translate="no">`` (in the Korean page also the codes inside the catalogue's rule texts), so a
reader, a screen reader or a translator knows it is a code, not an English word.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from app.errors import ApiError

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
LANGS = ("en", "ko")
_LANG_MARK = re.compile(r"^<!-- lang: (\w+) -->$", re.MULTILINE)
_TABLE = re.compile(r"^\{\{table ([\w.]+): (.+)\}\}$", re.MULTILINE)
_COMMENT = re.compile(r"\A\s*<!--.*?-->\s*", re.DOTALL)
_CODE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([0-9]*[A-Z][A-Z0-9]*(?::[A-Z0-9]+)?)(?![A-Za-z0-9])")
"""A code in running text; Korean particles follow a code directly ("SQ2에")."""

Row = list[str]
"""One table row as HTML cells (already escaped)."""


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")

    def code_inline(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return f'<code translate="no">{html.escape(tokens[idx].content)}</code>'

    md.add_render_rule("code_inline", code_inline)
    return md


_MD = _markdown()


def _prose(markdown: str) -> str:
    """Markdown as HTML; its tables scroll sideways in their own box on a phone."""
    rendered = str(_MD.render(markdown))
    return rendered.replace("<table>", '<div class="box scroll"><table class="data">').replace(
        "</table>", "</table></div>")


def _code(code: str) -> str:
    return f'<code translate="no">{html.escape(code)}</code>'


def _text(text: str, lang: str) -> str:
    """Catalogue prose as HTML; in Korean the codes in it are marked as codes."""
    escaped = html.escape(text)
    if lang != "ko":
        return escaped
    return _CODE_IN_TEXT.sub(lambda m: _code(m.group(1)), escaped)


def _words(entry: Mapping[str, Any], lang: str) -> str:
    value = entry.get(lang)
    if isinstance(value, Mapping):  # Bottom of the 9th cards: {"name": {"en", "ko"}}
        value = value.get(lang)
    return _text(str(value or ""), lang)


def _rule_text(entry: Mapping[str, Any], lang: str) -> str:
    text = entry.get(f"text_{lang}")
    if text is None and isinstance(entry.get("text"), Mapping):
        text = entry["text"].get(lang)
    return _text(str(text or ""), lang)


# --- the tables each game's guide may ask for --------------------------------------------------


def _bob_tables(cat: Mapping[str, Any]) -> dict[str, Callable[[str], list[Row]]]:
    from app.engines.base_on_board.data import BAT_DIE, HIT_DIE, PITCH_DIE, TIERS, deck_for

    faces = {"dice.pitch": Counter(PITCH_DIE), "dice.bat": Counter(BAT_DIE),
             "dice.hit": Counter(HIT_DIE)}
    decks = {(tier, offense): Counter(deck_for(tier, offense)) for tier in TIERS
             for offense in (True, False)}

    def section(path: str) -> Mapping[str, Any]:
        node: Any = cat
        for part in path.split("."):
            node = node[part]
        return node  # type: ignore[no-any-return]

    def dice(path: str) -> Callable[[str], list[Row]]:
        return lambda lang: [
            [_code(code), _words(e, lang), _rule_text(e, lang), str(faces[path][code])]
            for code, e in section(path).items()
        ]

    def cards(path: str, offense: bool) -> Callable[[str], list[Row]]:
        return lambda lang: [
            [_code(code), _words(e, lang), _rule_text(e, lang),
             *(str(decks[(tier, offense)][code] or "—")
               for tier in ("lite", "lite-extended", "pro"))]
            for code, e in section(path).items()
        ]

    def plain(path: str, with_text: bool = False) -> Callable[[str], list[Row]]:
        return lambda lang: [
            [_code(code), _words(e, lang), *([_rule_text(e, lang)] if with_text else [])]
            for code, e in section(path).items()
        ]

    return {
        "dice.pitch": dice("dice.pitch"), "dice.bat": dice("dice.bat"),
        "dice.hit": dice("dice.hit"), "offense_cards": cards("offense_cards", True),
        "defense_cards": cards("defense_cards", False),
        "tokens": plain("tokens", with_text=True), "results": plain("results"),
        "terms": plain("terms"),
        "challenge": lambda lang: [
            [html.escape(str(e.get(lang, ""))), _rule_text(e, lang) or "—"]
            for e in section("challenge").values()
        ],
    }


def _ninth_tables(cat: Mapping[str, Any]) -> dict[str, Callable[[str], list[Row]]]:
    from app.engines.bottom_of_the_ninth.rules import PITCH_DIE

    faces = Counter(PITCH_DIE)
    cards = list(cat["cards"].values())

    def plain(key: str) -> Callable[[str], list[Row]]:
        return lambda lang: [[_code(code), _words(w, lang)] for code, w in cat[key].items()]

    def position(code: str, lang: str) -> str:
        words = cat["positions"].get(code)
        return f"{_code(code)} {_words(words, lang)}" if words else _code(code)

    def ace(card: Mapping[str, Any], lang: str) -> str:
        found = card.get("ace") or {}
        return " · ".join(_words(cat["terms"][found[k]], lang) for k in ("direction", "location")
                          if found.get(k) in cat["terms"])

    return {
        "positions": plain("positions"),
        "results": plain("results"),
        "pa": plain("pa"),
        "terms": plain("terms"),
        "pitch_faces": lambda lang: [[_code(code), _words(w, lang), str(faces[code])]
                                     for code, w in cat["pitch_faces"].items()],
        "batters": lambda lang: [
            [_code(c["id"]), html.escape(c["name"][lang]), position(c["position"], lang),
             _rule_text(c, lang)] for c in cards if c["role"] == "batter"],
        "pitchers": lambda lang: [
            [_code(c["id"]), html.escape(c["name"][lang]),
             _words(cat["usages"][c["usage"]], lang), ace(c, lang), _rule_text(c, lang)]
            for c in cards if c["role"] == "pitcher"],
        "challenges": lambda lang: [
            [_code(c["id"]), html.escape(c["name"][lang]), _rule_text(c, lang), str(c["points"])]
            for c in cat["challenges"].values()],
    }


def _table(headers: Iterable[str], rows: list[Row], name: str) -> str:
    head = "".join(f'<th scope="col">{html.escape(h.strip())}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (f'<div class="box scroll"><table class="data glossary" data-table="{name}">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def _sections(game: str) -> dict[str, str]:
    path = DOCS / f"{game}.guide.md"
    if not path.is_file():
        raise ApiError("not_found", f"no rules for {game!r}", 404)
    text = _COMMENT.sub("", path.read_text(encoding="utf-8"), count=1)
    parts = _LANG_MARK.split(text)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@cache
def rules_page(game: str, lang: str) -> dict[str, Any]:
    """The guide of ``game`` in ``lang`` as HTML, and the codes its tables explain."""
    from app.catalogue import for_client as catalogue

    if lang not in LANGS:
        raise ApiError("validation", f"lang must be one of {LANGS}", 422)
    source = _sections(game).get(lang)
    if source is None:
        raise ApiError("not_found", f"no {lang} rules for {game!r}", 404)
    cat = catalogue(game)
    tables = _bob_tables(cat) if game == "base-on-board" else _ninth_tables(cat)
    out: list[str] = []
    at = 0
    for match in _TABLE.finditer(source):
        out.append(_prose(source[at:match.start()]))
        name, headers = match.group(1), match.group(2).split("|")
        if name not in tables:
            raise ValueError(f"{game}.guide.md asks for an unknown table {name!r}")
        out.append(_table(headers, tables[name](lang), name))
        at = match.end()
    out.append(_prose(source[at:]))
    body = "".join(out)
    title = re.search(r"<h1>(.*?)</h1>", body)
    return {"game": game, "lang": lang, "title": html.unescape(title.group(1)) if title else game,
            "html": body}
