"""Card outcomes, steals and challenges read from hand-built records."""

from __future__ import annotations

from app.records.plays import card_plays, challenges, steals
from app.records.shape import normalize
from app.stats.cards import card_usage
from tests.stats.build import card, challenge, pitch


def test_steal_answered_by_caught_stealing() -> None:
    record = pitch(dice="pitch:S", bases="100", cards=[card("away", "SB2"), card("home", "CS2")])
    plays = card_plays([record])
    assert [(p.code, p.role, p.success, p.answered_by) for p in plays] == [
        ("SB2", "offense", False, "CS2"),
        ("CS2", "defense", True, None),
    ]
    assert steals(normalize(record)) == (0, 1)


def test_caught_stealing_reversed_on_challenge() -> None:
    record = pitch(
        dice="pitch:B", bases="100", cards=[card("away", "SB2"), card("home", "CS2")],
        challenges=[challenge("away", "CS2", "reverse")],
    )
    sb2, cs2 = card_plays([record])
    assert sb2.success and sb2.answered_by is None
    assert cs2.challenged and cs2.reversed and not cs2.success
    assert steals(normalize(record)) == (1, 0)


def test_steal_reversed_on_challenge() -> None:
    record = pitch(
        dice="pitch:B", bases="010", cards=[card("away", "SB3")],
        challenges=[challenge("home", "SB3", "reverse")],
    )
    (sb3,) = card_plays([record])
    assert sb3.reversed and not sb3.success
    assert steals(normalize(record)) == (0, 1)


def test_run_and_hit() -> None:
    # Runners on first and second are sent on a strike; CS3 gets the runner going to third.
    sent = pitch(dice="pitch:S", balls=3, bases="110",
                 cards=[card("away", "RNH"), card("home", "CS3")])
    assert steals(normalize(sent)) == (1, 1)
    # On contact it is a hit-and-run: no steal.
    contact = pitch(dice="pitch:C bat:GF", balls=3, bases="100", cards=[card("away", "RNH")])
    assert steals(normalize(contact)) == (0, 0)
    # On a foul the card goes back to the hand and counts as not played.
    foul = pitch(dice="pitch:F", balls=3, bases="100", cards=[card("away", "RNH")])
    assert card_plays([foul]) == []


def test_pickoff_error_answers_pickoff() -> None:
    record = pitch(dice="pitch:B", bases="100", cards=[card("home", "PO1"), card("away", "POE")])
    po1, poe = card_plays([record])
    assert (po1.success, po1.answered_by, poe.success) == (False, "POE", True)


def test_card_usage_and_challenge_rate() -> None:
    records = [
        pitch(dice="pitch:B", bases="100", cards=[card("away", "SB2")]),
        pitch(dice="pitch:S", bases="100", cards=[card("away", "SB2"), card("home", "CS2")],
              challenges=[challenge("away", "CS2", "confirm")]),
        pitch(dice="pitch:SM", challenges=[challenge("away", "SM", "reverse")]),
    ]
    usage = card_usage(records, "away")
    assert usage.played["SB2"] == 2
    assert usage.succeeded["SB2"] == 1
    assert (usage.challenges, usage.challenges_won) == (2, 1)
    body = usage.to_json()
    assert body["cards"]["SB2"] == {"played": 2, "succeeded": 1, "success_rate": 0.5}
    assert body["challenge_success_rate"] == 0.5
    assert [c.success for c in challenges(records)] == [False, True]
