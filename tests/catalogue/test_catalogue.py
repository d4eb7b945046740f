import ast
import inspect
import json
from importlib import resources
from typing import Any

import pytest

from app.catalogue import LANGS, CatalogueKeyError, codes, entry, text, words

GAME = "base-on-board"

PITCH = ["S", "SM", "F", "B", "C"]
BAT = ["GF", "G3", "GA", "PO", "FO", "F2", "F3", "FA", "HT", "HR"]
HIT = ["iH", "L1", "L2", "C1", "C2", "R1", "R2", "D2", "D3", "T3"]
OFFENSE = [
    "HBP", "WP", "BK", "POE", "SB2", "SB3", "SBH", "SB", "SQ1",
    "SQ2", "E", "1H1E", "HRC", "HNR", "RNH", "SNO", "CIB", "IOB",
]  # fmt: skip
DEFENSE = [
    "CS2", "CS3", "CSH", "GDP", "PO1", "PO2", "BD", "GBH", "GTP", "LDP",
    "A2", "A3H", "AHH", "A3F", "AHF", "IFD", "CO1", "CO3", "FFO", "RHB",
]  # fmt: skip
TERMS = ["1B", "2B", "3B", "HB", "1R", "2R", "3R", "S2B", "S3B", "SHB"]
RESULTS = [
    "K", "BB", "HBP", "1B", "2B", "3B", "HR", "OUT", "DP", "TP", "SAC", "E", "CI", "FC", "SNO",
]  # fmt: skip

SECTIONS = {
    "dice.pitch": PITCH,
    "dice.bat": BAT,
    "dice.hit": HIT,
    "offense_cards": OFFENSE,
    "defense_cards": DEFENSE,
    "tokens": ["IFL"],
    "challenge": ["confirm", "reverse"],
    "terms": TERMS,
    "results": RESULTS,
}

ALL = [(section, code) for section, listed in SECTIONS.items() for code in listed]


@pytest.mark.parametrize(("section", "code"), ALL)
def test_every_listed_code_has_both_languages(section: str, code: str) -> None:
    for lang in LANGS:
        assert words(GAME, code, lang, section=section).strip()
        assert words(GAME, f"{section}.{code}", lang).strip()


@pytest.mark.parametrize(("section", "code"), [(s, c) for s, c in ALL if "cards" in s])
def test_every_card_has_rule_text_in_both_languages(section: str, code: str) -> None:
    found = entry(GAME, code, section)
    assert set(found) == {"ko", "en", "text_ko", "text_en"}
    assert text(GAME, code, "ko", section).strip()
    assert text(GAME, code, "en", section).strip()


def test_dice_and_cards_are_exactly_the_rulebooks() -> None:
    assert codes(GAME, "dice.pitch") == PITCH
    assert codes(GAME, "dice.bat") == BAT
    assert codes(GAME, "dice.hit") == HIT
    assert codes(GAME, "offense_cards") == OFFENSE
    assert codes(GAME, "defense_cards") == DEFENSE


def test_known_words() -> None:
    assert words(GAME, "S", "ko") == "스트라이크"
    assert words(GAME, "S", "en") == "Strike"
    assert words(GAME, "SM", "en") == "Swinging strike"
    assert words(GAME, "GDP", "ko") == "땅볼 병살"
    assert words(GAME, "results.1B", "ko") == "단타"
    assert words(GAME, "1B", "en", section="terms") == "First base"
    assert words("base_on_board", "IFL", "en") == "Infield fly token"


def test_aliases_resolve_to_their_card() -> None:
    assert words(GAME, "CHR", "ko") == words(GAME, "HRC", "ko")
    assert words(GAME, "RII", "en") == words(GAME, "RHB", "en")


def test_unknown_code_raises_key_error() -> None:
    with pytest.raises(KeyError, match="unknown code 'XYZ'"):
        words(GAME, "XYZ", "en")
    with pytest.raises(KeyError, match="unknown code"):
        words(GAME, "S", "ko", section="offense_cards")
    with pytest.raises(KeyError):
        text(GAME, "NOPE", "ko")


def test_ambiguous_bare_code_raises_and_names_the_paths() -> None:
    with pytest.raises(KeyError, match=r"ambiguous.*results\.1B.*terms\.1B"):
        words(GAME, "1B", "en")


def test_unknown_game_section_and_language_raise() -> None:
    with pytest.raises(KeyError, match="unknown game"):
        words("chess", "S", "en")
    with pytest.raises(KeyError, match="unknown game"):
        words("../etc", "S", "en")
    with pytest.raises(KeyError, match="no section"):
        words(GAME, "S", "en", section="dice.nope")
    with pytest.raises(KeyError, match="language"):
        words(GAME, "S", "fr")


def test_entry_without_rule_text_raises() -> None:
    with pytest.raises(KeyError, match="no rule text"):
        text(GAME, "confirm", "en", section="challenge")


def test_error_message_is_plain() -> None:
    try:
        words(GAME, "XYZ", "en")
    except CatalogueKeyError as error:
        assert str(error) == "base_on_board: unknown code 'XYZ'"
    else:  # pragma: no cover
        pytest.fail("no error")


def test_every_entry_in_the_file_has_both_languages() -> None:
    raw = json.loads(
        resources.files("app.catalogue").joinpath("base_on_board.json").read_text("utf-8")
    )

    def walk(node: dict[str, Any], path: str) -> int:
        if "ko" in node:
            assert isinstance(node["ko"], str) and node["ko"].strip(), path
            assert isinstance(node["en"], str) and node["en"].strip(), path
            return 1
        return sum(walk(child, f"{path}.{key}") for key, child in node.items())

    raw.pop("aliases")
    assert walk(raw, "") > 100


def _results_the_engine_writes() -> set[str]:
    """Every code the Base on Board engine can end a pitch with, read from its source: the
    plate-appearance result and the pitch result of each ``_end_pitch`` call and the result of
    each ``_interrupted`` one, plus the pickoffs a challenge reverses (``code + ">safe"``)."""
    from app.engines.base_on_board import data, engine

    tree = ast.parse(inspect.getsource(engine))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        wanted = {"_end_pitch": node.args[2:4], "_interrupted": node.args[2:3]}
        for arg in wanted.get(node.func.attr, []):
            # A literal, or either literal of ``a if c else b``; ``"HT:" + face`` is a hit,
            # always shown by its plate-appearance result.
            branches = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            found.update(
                b.value
                for b in branches
                if isinstance(b, ast.Constant) and isinstance(b.value, str)
            )
    pickoffs = {"PO1", "PO2", "CO1", "CO3"} & data.OFFENSE_CHALLENGEABLE
    return found | {f"{code}>safe" for code in pickoffs}


# The sections the play-by-play looks a result up in (static/js/catalogue.js BOB_SECTIONS.result).
RESULT_SECTIONS = ["results", "dice.pitch", "dice.bat", "dice.hit", "offense_cards",
                   "defense_cards", "tokens", "terms"]  # fmt: skip


def test_every_result_the_engine_writes_has_words() -> None:
    """A pitch's result is shown in the play-by-play with its words (a challenge's reversal,
    ``HR>F``, once reached a phone with none)."""
    codes_found = _results_the_engine_writes()
    assert {"HR>F", "GA>1B", "BD>safe", "PO1>safe", "K", "SF"} <= codes_found
    missing = []
    for code in sorted(codes_found):
        known = [s for s in RESULT_SECTIONS if code in codes(GAME, s)]
        if not known:
            missing.append(code)
            continue
        for lang in LANGS:
            assert words(GAME, code, lang, section=known[0]).strip()
    assert missing == []
