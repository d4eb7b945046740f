"""Every card's condition, cross-checked in the situations random legal play produces.

At every decision of a random game the side to move is given, in a probe copy of the state,
every card of its role in the tier; the cards ``legal_actions`` then offers must be exactly the
ones the rules document allows in that situation. ``allowed`` restates the conditions of docs
§5, §6, §6.1 and D14-D24, D28, D29 independently of ``windows.py``.

RNH takes part: D17 gives the offense no other result-window card during its pitch, and its
steal is answered by CS2 (the runner who left first) or CS3 (the runner who left second).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engines.base_on_board import Engine, State
from app.engines.base_on_board.data import DEFENSE_CODES, OFFENSE_CODES, TIERS, deck_for
from app.engines.dice import HmacDice
from app.engines.interface import Side

FIRST, SECOND, THIRD = 1, 2, 4
BAT_OUTS = {"GF", "G3", "GA", "PO", "FO", "F2", "F3", "FA"}
RUNNER_NAMES = {FIRST: "1B", SECOND: "2B", THIRD: "3B"}


def runners(bases: int, among: int) -> set[str]:
    return {name for bit, name in RUNNER_NAMES.items() if bases & among & bit}


def allowed(state: State, side: Side, kind: str) -> set[tuple[str, str | None]]:
    """(card, runner) pairs the document allows ``side`` to play in this window."""
    play: dict[str, Any] = state.play
    phase, code = play.get("phase"), play.get("code")
    bases, outs = state.bases, state.outs
    hnr, rnh = bool(play.get("hnr")), bool(play.get("rnh"))
    offense = side == state.offense
    ok: set[str] = set()
    chosen: set[tuple[str, str | None]] = set()
    if kind == "cards" and offense and rnh:  # D17: RNH is the offense's card for the pitch
        return set()
    if kind == "pre" and offense:  # D29, §6: BK, HNR, RNH before the pitch
        if bases:
            ok.add("BK")
        if bases in (1, 3):
            ok.add("HNR")
            if state.balls == 3:
                ok.add("RNH")
    elif kind == "pitch" and not offense and not rnh:  # D23: PO1 1 or 1-3, PO2 2 or 1-2
        if bases in (1, 5):
            ok.add("PO1")
        if bases in (2, 3):
            ok.add("PO2")
    elif kind == "swing" and offense and not hnr:  # D22: the bunts, on C
        if bases in (1, 2, 3) and outs < 2:
            ok.add("SB")
        if bases & THIRD:
            ok.add("SQ2")
            if outs < 2:
                ok.add("SQ1")
    elif kind == "cards" and phase == "pitch":
        swing = code in ("S", "SM", "B")
        if offense:  # D23, D24
            if swing and bases & FIRST and not bases & SECOND:
                ok.add("SB2")
            if swing and bases & SECOND and not bases & THIRD:
                ok.add("SB3")
            if swing and bases & THIRD:
                ok.add("SBH")
            if code == "B":
                ok.add("HBP")
                if bases:
                    ok.add("WP")
            if code == "SM":
                ok.add("CIB")
                if state.strikes == 2 and (not bases & FIRST or outs == 2):
                    ok.add("SNO")
        else:  # §5: CO1, CO3 after S, B, SM; FFO on a foul
            if swing and bases & FIRST:
                ok.add("CO1")
            if swing and bases & THIRD:
                ok.add("CO3")
            if code == "F":
                ok.add("FFO")
    elif kind == "cards" and phase == "bat":
        if offense:  # §6: E on a batted out; IOB with a runner on GF, GA, PO
            if code in BAT_OUTS:
                ok.add("E")
            if code in ("GF", "GA", "PO") and bases:
                ok.add("IOB")
        else:
            if code in ("GF", "GA") and outs < 2 and bases in (1, 3, 7) and not hnr:
                ok.add("GDP")  # §5, §6.1: no GDP on a hit and run
            if code == "GF" and outs == 0 and bases in (3, 7) and not hnr:
                ok.add("GTP")
            if code in ("GF", "GA"):
                chosen |= {("RHB", r) for r in runners(bases, FIRST | SECOND)}
            if code == "GA" and bases in (2, 4, 6):
                ok.add("GBH")
            if code == "PO" and outs < 2 and (
                bases in (1, 5) or (bases in (3, 7) and not play.get("ifl"))
            ):
                ok.add("IFD")  # D14
            if code in ("F2", "FA") and bases & SECOND and outs < 2:
                ok.add("A3F")  # D28
            if code in ("F3", "FA") and bases & THIRD and outs < 2:
                ok.add("AHF")
    elif kind == "cards" and phase == "ht" and not offense and outs < 2:
        chosen |= {("LDP", r) for r in runners(bases, 7)}  # D20
    elif kind == "cards" and phase == "hit":
        if offense:
            ok.add("1H1E")
        else:
            if code in ("D2", "D3"):
                ok.add("A2")
            if code in ("L2", "C2", "R2", "D2") and bases & FIRST:
                ok.add("A3H")
            if code in ("L2", "C2", "R2") and bases & SECOND:
                ok.add("AHH")
    elif kind == "cards" and phase == "hr" and offense:
        ok.add("HRC")
    elif kind == "answer":  # D15
        last = play["chain"][-1]["code"]
        answers = {"SB2": {"CS2"}, "SB3": {"CS3"}, "SBH": {"CSH"}, "PO1": {"POE"},
                   "PO2": {"POE"}, "CO1": {"POE"}, "CO3": {"POE"}, "SB": {"BD"},
                   "SQ1": {"BD"}, "SQ2": {"BD"}, "GDP": {"E"}, "GTP": {"E"}, "GBH": {"E"}}
        ok |= answers.get(last, set())
        if last == "RNH":  # D17
            stole = int(play.get("rnh_stole", 0))
            ok |= {"CS2"} if stole & FIRST else set()
            ok |= {"CS3"} if stole & SECOND else set()
    return {(card, None) for card in ok} | chosen


def probe_offers(engine: Engine, state: State, side: Side) -> set[tuple[str, str | None]]:
    probe = state.clone()
    tier = state.options.tier
    probe.hands[side] = sorted(set(deck_for(tier, offense=side == state.offense)))
    return {(a["card"], a.get("runner")) for a in engine.legal_actions(probe, side)
            if a["type"] == "play"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(TIERS), st.booleans(), st.integers(0, 3), st.integers(0, 2**32 - 1),
    st.sampled_from([0.2, 0.6, 1.0]),
)
def test_cards_offered_are_the_documented_ones(
    tier: Any, fast_play: bool, challenges: int, seed: int, eager: float
) -> None:
    engine = Engine(HmacDice(seed.to_bytes(8, "big"), "conditions"))
    state = engine.new_game({"innings": 3, "tier": tier, "fast_play": fast_play,
                             "challenges": challenges})
    rng = random.Random(seed)
    in_tier = set(deck_for(tier, offense=True)) | set(deck_for(tier, offense=False))
    while state.result is None:
        head = state.queue[0]
        side: Side = "home" if head[0] == "home" else "away"
        kind = head[1]
        expected = {(c, r) for c, r in allowed(state, side, kind) if c in in_tier}
        assert probe_offers(engine, state, side) == expected, (kind, state.play)
        actions = engine.legal_actions(state, side)
        bold = [a for a in actions if a["type"] in ("play", "challenge", "ifl", "choose")]
        action = rng.choice(bold if bold and rng.random() < eager else actions)
        state, _ = engine.apply(state, action)
    assert in_tier <= set(OFFENSE_CODES + DEFENSE_CODES)
