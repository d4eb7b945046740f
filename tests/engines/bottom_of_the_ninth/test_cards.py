"""The card and challenge files: the shipped data loads; a broken file is refused with a
message naming the card and the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from app.engines.bottom_of_the_ninth.cards import CARDS_PATH, load_cards, parse_cards
from app.engines.bottom_of_the_ninth.solo import CHALLENGES_PATH, parse_challenges
from app.engines.interface import InvalidCardData

RAW: dict[str, Any] = json.loads(CARDS_PATH.read_text(encoding="utf-8"))
RAW_CHALLENGES: dict[str, Any] = json.loads(CHALLENGES_PATH.read_text(encoding="utf-8"))


def card(raw: dict[str, Any], card_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in raw["cards"] if c["id"] == card_id)
    return found


def test_shipped_set_has_twenty_cards_in_both_languages() -> None:
    cards = parse_cards(RAW)
    assert len(cards.cards) == 20
    assert len(cards.batters) == 12 and len(cards.pitchers) == 8
    for c in cards.cards.values():
        assert c.name["ko"] and c.name["en"] and c.text["ko"] and c.text["en"]
    kinds = {a.kind for c in cards.cards.values() for a in c.abilities}
    assert kinds == {"modify", "reroll", "turn", "speed", "defense", "unopposed"}
    usages = {cards[p].usage for p in cards.pitchers}
    assert usages == {"starter", "reliever", "either"}


def test_shipped_challenges_are_fifteen() -> None:
    challenges, campaign = parse_challenges(RAW_CHALLENGES, parse_cards(RAW))
    assert len(challenges) == 15
    assert campaign.length == 5


def broken(mutate: Any) -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    mutate(raw)
    return raw


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: card(r, "B03")["abilities"][0].update(kind="teleport"), "card B03 ability 0"),
        (lambda r: card(r, "B03")["abilities"][1].update(by=7), "card B03 ability 1: field 'by'"),
        (lambda r: card(r, "B05")["abilities"][1].update(die="pitch"), "field 'die'"),
        (lambda r: card(r, "B01")["name"].pop("ko"), "card B01: field 'name.ko'"),
        (lambda r: card(r, "B02").update(position="goalkeeper"), "card B02: field 'position'"),
        (lambda r: card(r, "P01").update(usage="closer"), "card P01: field 'usage'"),
        (lambda r: card(r, "P02")["ace"].update(location="middle"), "card P02: field 'ace'"),
        (lambda r: card(r, "B04")["abilities"][0].update(when="mvp"), "trait 'speed'"),
        (lambda r: card(r, "B04")["abilities"][1].update(when="ace"), "field 'when'"),
        (lambda r: card(r, "P03")["abilities"][1].update(to="homer"), "fields 'from'/'to'"),
        (
            lambda r: card(r, "P01")["abilities"][1].update({"if": {"swing": [1]}}),
            "needs 'if.pitch'",
        ),
        (
            lambda r: card(r, "B06")["abilities"][0].update({"if": {"moon": [1]}}),
            "unknown key(s) ['moon']",
        ),
        (
            lambda r: card(r, "B06")["abilities"][0].update({"if": {"strikes": [3]}}),
            "condition 'strikes' value 3",
        ),
        (lambda r: r["cards"].append(copy.deepcopy(r["cards"][0])), "card B01: duplicate id"),
        (lambda r: r["cards"].pop(), "the set has 19 cards"),
        (lambda r: card(r, "P01").update(abilities=[]), "card P01: field 'abilities'"),
    ],
)
def test_broken_card_data_is_refused_with_a_clear_message(mutate: Any, message: str) -> None:
    with pytest.raises(InvalidCardData) as caught:
        parse_cards(broken(mutate))
    assert message in str(caught.value)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InvalidCardData, match="cannot be read as JSON"):
        load_cards(path)


def test_a_pitcher_without_an_ace_line_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    card(raw, "P02")["abilities"] = [a for a in card(raw, "P02")["abilities"] if a["when"] != "ace"]
    with pytest.raises(InvalidCardData, match="card P02: a pitcher needs an ability"):
        parse_cards(raw)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lineup": ["B01"]}, "challenge M01: field 'lineup' needs at least 6"),
        ({"pitcher": "B01"}, "challenge M01: field 'pitcher'"),
        ({"bases": "12"}, "challenge M01: field 'bases'"),
        ({"outs": 3}, "challenge M01: field 'outs'"),
        ({"objective": {"kind": "win big"}}, "challenge M01: field 'objective.kind'"),
        ({"name": {"en": "x"}}, "challenge M01: field 'name'"),
    ],
)
def test_broken_challenge_is_refused(change: dict[str, Any], message: str) -> None:
    raw = copy.deepcopy(RAW_CHALLENGES)
    raw["challenges"][0].update(change)
    with pytest.raises(InvalidCardData) as caught:
        parse_challenges(raw, parse_cards(RAW))
    assert message in str(caught.value)


def test_rules_page_lists_every_card_and_challenge_in_both_languages() -> None:
    page = (Path(__file__).resolve().parents[3] / "docs/rules/bottom-of-the-9th.md").read_text(
        encoding="utf-8"
    )
    for entry in RAW["cards"] + RAW_CHALLENGES["challenges"]:
        for lang in ("en", "ko"):
            assert entry["name"][lang] in page, entry["id"]
            assert entry["text"][lang] in page, entry["id"]
