"""Builds the site's Korean font: a subset of Noto Sans CJK KR (SIL OFL 1.1) as WOFF2.

The browser draws Korean with it on any machine, also one without a CJK font. The subset
holds Basic Latin, the punctuation and symbols the site uses, the Hangul compatibility jamo,
the 2,350 Hangul syllables of KS X 1001 (nearly every syllable of ordinary Korean text, so
most player-given team names render too) and every other character found in the site's own
words (``static/``, the catalogues, the rules guides). Run it after adding words with new
characters; ``tests/web/test_font.py`` fails when a character of the site is missing.

    .venv/bin/pip install fonttools brotli
    .venv/bin/python scripts/build_font.py  # reads fonts-noto-cjk's NotoSansCJK-*.ttc

The output is ``static/fonts/noto-sans-kr-{regular,bold}.woff2``; the licence is
``static/fonts/OFL.txt``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {
    "regular": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    "bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
}
KOREAN_FACE = 1  # in the collection: JP, KR, SC, TC, HK, then the mono faces
OUT = ROOT / "static" / "fonts"
WORD_FILES = [
    *sorted((ROOT / "static").rglob("*.js")),
    *sorted((ROOT / "static").rglob("*.json")),
    ROOT / "static" / "index.html",
    *sorted((ROOT / "app" / "catalogue").glob("*.json")),
    *sorted((ROOT / "app" / "engines" / "bottom_of_the_ninth").glob("*.json")),
    ROOT / "app" / "engines" / "bottom_of_the_ninth" / "codes.py",
    ROOT / "app" / "stats" / "playbyplay.py",
    *sorted((ROOT / "docs" / "rules").glob("*.guide.md")),
]


def ks_x_1001_hangul() -> set[str]:
    """The 2,350 precomposed syllables of KS X 1001 (EUC-KR rows 0xB0-0xC8)."""
    found = set()
    for lead in range(0xB0, 0xC9):
        for trail in range(0xA1, 0xFF):
            try:
                found.add(bytes([lead, trail]).decode("euc-kr"))
            except UnicodeDecodeError:
                continue
    return found


def site_characters() -> set[str]:
    chars: set[str] = set()
    for path in WORD_FILES:
        chars.update(path.read_text(encoding="utf-8"))
    return {c for c in chars if c.isprintable() and ord(c) > 0x7F}


def wanted() -> str:
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for c in range(0x3131, 0x318F)}  # compatibility jamo
    chars |= ks_x_1001_hangul()
    chars |= site_characters()
    return "".join(sorted(chars))


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    text = wanted()
    for weight, source in SOURCES.items():
        font = TTCollection(str(source)).fonts[KOREAN_FACE]
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["kern", "liga", "ccmp", "locl", "mark", "mkmk", "ljmo",
                                   "vjmo", "tjmo"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.hinting = False
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        target = OUT / f"noto-sans-kr-{weight}.woff2"
        font.flavor = "woff2"
        font.save(str(target))
        print(f"{target.relative_to(ROOT)}: {target.stat().st_size // 1024} KiB, "
              f"{len(text)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
