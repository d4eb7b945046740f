"""Korean and English words for every rulebook code, one catalogue per game.

Codes (``S``, ``SM``, ``GF``, ``HT``, ``D2``, ``SB2``, ``GDP``...) are the stable identifiers in
state, events, the database and the API; this package holds the words for them, used by the
play-by-play, the UI and the docs (design note 5). The data is ``<game>.json`` next to this file,
for example ``base_on_board.json`` for the game kind ``"base-on-board"``.

A catalogue is nested sections of *entries*; an entry is an object with ``"ko"`` and ``"en"``
(its words) and optionally ``"text_ko"`` and ``"text_en"`` (its rule text). A code is named
either by its path, ``"dice.pitch.S"``, ``"offense_cards.SB2"``, ``"results.1B"``, or by its bare
code, ``"SB2"``, which must then be unique in the catalogue: ``"1B"`` is both a base (``terms``)
and a single (``results``), so a bare ``"1B"`` raises and names both paths. The optional
``section`` argument is the same as prefixing the path. The top-level ``"aliases"`` object maps
codes the rulebook also uses (``CHR``) to an entry's path (``offense_cards.HRC``).

Every failed lookup (unknown game, code, section or language, an ambiguous bare code, an entry
without rule text) raises :class:`CatalogueKeyError`, a :class:`KeyError` with a readable message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal

__all__ = [
    "LANGS",
    "CatalogueKeyError",
    "Entry",
    "Lang",
    "codes",
    "entry",
    "text",
    "words",
]

Lang = Literal["ko", "en"]
LANGS: tuple[Lang, Lang] = ("ko", "en")

Entry = Mapping[str, str]
"""One code's words: ``ko``, ``en`` and, where it has rule text, ``text_ko`` and ``text_en``."""

_ALIASES = "aliases"
_GAME_NAME = re.compile(r"^[a-z0-9_]+$")


class CatalogueKeyError(KeyError):
    """A lookup in a catalogue failed; ``str()`` is the plain message, not its ``repr``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "catalogue lookup failed"


class _Catalogue:
    """A loaded catalogue: every entry by its dotted path, and the paths of each bare code."""

    def __init__(self, game: str, raw: Mapping[str, Any]) -> None:
        self.game = game
        self.entries: dict[str, Entry] = {}
        self.sections: dict[str, list[str]] = {}
        self.by_code: dict[str, list[str]] = {}
        self.aliases: dict[str, str] = {}
        for key, value in raw.items():
            if key == _ALIASES:
                continue
            self._walk(key, value)
        for alias, target in dict(raw.get(_ALIASES, {})).items():
            if not isinstance(target, str) or target not in self.entries:
                raise ValueError(f"{game}: alias {alias!r} points to unknown entry {target!r}")
            self.aliases[str(alias)] = target

    def _walk(self, path: str, node: object) -> None:
        if not isinstance(node, Mapping):
            raise ValueError(f"{self.game}: {path!r} is neither a section nor an entry")
        if "ko" in node or "en" in node:
            self._add_entry(path, node)
            return
        if not node:
            raise ValueError(f"{self.game}: section {path!r} is empty")
        for key, child in node.items():
            self._walk(f"{path}.{key}", child)

    def _add_entry(self, path: str, node: Mapping[str, object]) -> None:
        words: dict[str, str] = {}
        for key, value in node.items():
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{self.game}: {path}.{key} must be a non-empty string")
            words[str(key)] = value
        for lang in LANGS:
            if lang not in words:
                raise ValueError(f"{self.game}: {path} has no {lang!r} words")
        if ("text_ko" in words) != ("text_en" in words):
            raise ValueError(f"{self.game}: {path} has rule text in one language only")
        self.entries[path] = words
        section, _, code = path.rpartition(".")
        self.sections.setdefault(section, []).append(code)
        self.by_code.setdefault(code, []).append(path)

    def resolve(self, code: str, section: str | None) -> str:
        """The dotted path of ``code`` (bare or a path), looked up in ``section`` if given."""
        if section is not None:
            if section not in self.sections:
                raise CatalogueKeyError(
                    f"{self.game}: no section {section!r}; sections are {sorted(self.sections)}"
                )
            code = f"{section}.{code}"
        if code in self.entries:
            return code
        paths = self.by_code.get(code, [])
        if section is None and len(paths) == 1:
            return paths[0]
        if section is None and len(paths) > 1:
            raise CatalogueKeyError(
                f"{self.game}: code {code!r} is ambiguous; name one of {sorted(paths)}"
            )
        if section is None and code in self.aliases:
            return self.aliases[code]
        raise CatalogueKeyError(f"{self.game}: unknown code {code!r}")


def _module_name(game: str) -> str:
    name = game.strip().lower().replace("-", "_")
    if not _GAME_NAME.match(name):
        raise CatalogueKeyError(f"unknown game {game!r}")
    return name


@cache
def _load(name: str) -> _Catalogue:
    source = resources.files(__name__).joinpath(f"{name}.json")
    if not source.is_file():
        raise CatalogueKeyError(f"unknown game {name!r}: no catalogue {name}.json")
    raw = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"{name}.json: the catalogue must be a JSON object")
    return _Catalogue(name, raw)


def _lang(lang: str) -> Lang:
    if lang == "ko":
        return "ko"
    if lang == "en":
        return "en"
    raise CatalogueKeyError(f"no words in language {lang!r}; languages are {LANGS}")


def entry(game: str, code: str, section: str | None = None) -> Entry:
    """Every field of one code's entry (``ko``, ``en``, perhaps ``text_ko``, ``text_en``)."""
    catalogue = _load(_module_name(game))
    return catalogue.entries[catalogue.resolve(code, section)]


def words(game: str, code: str, lang: str, section: str | None = None) -> str:
    """The name of ``code`` in ``lang``: ``words("base-on-board", "SM", "en")`` is
    ``"Swinging strike"``; ``words("base-on-board", "results.1B", "ko")`` is ``"단타"``."""
    return entry(game, code, section)[_lang(lang)]


def text(game: str, code: str, lang: str, section: str | None = None) -> str:
    """The rule text of ``code`` in ``lang`` (for a card: when it is played and its effect)."""
    found = entry(game, code, section)
    key = f"text_{_lang(lang)}"
    if key not in found:
        raise CatalogueKeyError(f"{game}: {code!r} has words but no rule text")
    return found[key]


def codes(game: str, section: str) -> list[str]:
    """The codes of one section, in catalogue order: ``codes("base-on-board", "dice.pitch")``."""
    catalogue = _load(_module_name(game))
    if section not in catalogue.sections:
        raise CatalogueKeyError(
            f"{game}: no section {section!r}; sections are {sorted(catalogue.sections)}"
        )
    return list(catalogue.sections[section])


GAME_KINDS = ("base-on-board", "bottom-of-the-9th")


@cache
def for_client(game: str) -> dict[str, Any]:
    """Every word the tables and rules pages show, in Korean and English, from the engines'
    own data: Base on Board's catalogue as it is; for Bottom of the 9th the codes of
    ``codes.py``, the cards of ``cards.json`` and the manager challenges of
    ``challenges.json``."""
    if game == "base-on-board":
        raw = resources.files("app.catalogue").joinpath("base_on_board.json").read_text("utf-8")
        return {"game": game, **json.loads(raw)}
    if game == "bottom-of-the-9th":
        from app.engines.bottom_of_the_ninth import codes as ninth

        package = resources.files("app.engines.bottom_of_the_ninth")
        cards = json.loads(package.joinpath("cards.json").read_text("utf-8"))
        challenges = json.loads(package.joinpath("challenges.json").read_text("utf-8"))

        def table(rows: dict[str, tuple[str, str]]) -> dict[str, dict[str, str]]:
            return {code: {"en": en, "ko": ko} for code, (en, ko) in rows.items()}

        return {
            "game": game,
            "results": table(ninth.RESULT_CODES),
            "pa": table(ninth.PA_CODES),
            "terms": table(ninth.TERMS),
            "pitch_faces": table(ninth.PITCH_FACES),
            "positions": table(ninth.POSITIONS),
            "usages": table(ninth.USAGES),
            "cards": {card["id"]: card for card in cards["cards"]},
            "challenges": {c["id"]: c for c in challenges["challenges"]},
        }
    raise CatalogueKeyError(f"no catalogue for {game!r}; one of {GAME_KINDS}")
