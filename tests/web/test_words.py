"""The interface words: one catalogue per language (static/i18n/en.json, ko.json) with the same
keys and placeholders, and every key the client asks for is in them. The Korean particle rules
and the Korean pages' scan run in the browser (tests/web/test_korean.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
CATALOGUES = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
              for lang in ("en", "ko")}
PLACEHOLDER = re.compile(r"\{(\w+)(?:\|[^}]+)?\}")
CALL = re.compile(r"\b(?:t|tn|has|whose)\(")
LITERAL = re.compile(r"\"([^\"\\]*)\"|`([^`\\]*)`")


def first_argument(source: str, start: int) -> str:
    """The text of a call's first argument, from just after its opening parenthesis."""
    depth = 0
    for i in range(start, len(source)):
        c = source[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return source[start:i]
            depth -= 1
        elif c == "," and depth == 0:
            return source[start:i]
    raise AssertionError(f"unclosed call at {start}")


def asked_keys() -> list[tuple[str, str]]:
    """(file, key or key pattern) for every string a t/tn/has/whose call may ask for."""
    found = []
    for path in sorted((STATIC / "js").rglob("*.js")):
        source = path.read_text("utf-8")
        for call in CALL.finditer(source):
            argument = first_argument(source, call.end())
            for match in LITERAL.finditer(argument):
                key = match.group(1) if match.group(1) is not None else match.group(2)
                if "." in key or key in CATALOGUES["en"]:
                    found.append((path.name, key))
    html = (STATIC / "index.html").read_text("utf-8")
    found += [("index.html", key) for key in re.findall(r'data-i18n="([^"]+)"', html)]
    return found


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    en, ko = CATALOGUES["en"], CATALOGUES["ko"]
    assert sorted(set(en) - set(ko)) == [], "keys missing in Korean"
    assert sorted(set(ko) - set(en)) == [], "keys missing in English"
    for key in en:
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(ko[key])), key
        assert en[key].strip() and ko[key].strip(), f"{key} is empty"


def test_every_key_the_client_asks_for_exists() -> None:
    keys = set(CATALOGUES["en"])
    missing = []
    asked = asked_keys()
    assert len(asked) > 300  # the scan sees the calls (it would pass vacuously otherwise)
    for where, key in asked:
        if "${" in key:  # t(`die.${die}`): some key must fit the pattern
            pattern = re.compile("^" + re.sub(r"\\\$\\\{[^}]*\\\}", ".+", re.escape(key)) + "$")
            if not any(pattern.match(k) for k in keys):
                missing.append((where, key))
        elif key not in keys:
            missing.append((where, key))
    assert missing == []


def test_the_scan_finds_a_missing_key(tmp_path: Path) -> None:
    source = 'x = t("no.such.key"); y = t(cond ? "nav.lobby" : "also.missing", { a: 1 });'
    arguments = [first_argument(source, m.end()) for m in CALL.finditer(source)]
    keys = [m.group(1) for a in arguments for m in LITERAL.finditer(a)]
    assert keys == ["no.such.key", "nav.lobby", "also.missing"]
