"""Hand-built pitch records: ``pitch(...)`` fills every common key with a neutral default."""

from __future__ import annotations

from typing import Any


def pitch(
    inning: int = 1,
    half: str = "top",
    batter: int = 1,
    dice: str = "",
    *,
    balls: int = 0,
    strikes: int = 0,
    outs: int = 0,
    bases: str = "000",
    after: tuple[int, int, int, str] | None = None,
    result: str | None = None,
    pa: str | None = None,
    runs: int = 0,
    rbi: int = 0,
    cards: list[dict[str, Any]] | None = None,
    challenges: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One record. ``dice`` is ``"pitch:C bat:HT hit:L1"``; ``after`` is (balls, strikes, outs,
    bases) after the pitch (default: count reset when ``pa`` is set, else unchanged)."""
    offense = "away" if half == "top" else "home"
    rolls = [
        {"die": part.split(":")[0], "face": part.split(":")[1]} for part in dice.split()
    ]
    if after is None:
        after = (0, 0, outs, bases) if pa else (balls, strikes, outs, bases)
    if result is None:
        result = rolls[-1]["face"] if rolls else "?"
        if rolls and rolls[-1]["die"] == "hit":
            result = "HT:" + result
    challenge_list = challenges or []
    return {
        "inning": inning,
        "half": half,
        "offense": offense,
        "defense": "home" if offense == "away" else "away",
        "batter": batter,
        "batter_card": None,
        "pitcher": None,
        "balls": balls,
        "strikes": strikes,
        "outs": outs,
        "bases": bases,
        "balls_after": after[0],
        "strikes_after": after[1],
        "outs_after": after[2],
        "bases_after": after[3],
        "dice": rolls,
        "result": result,
        "pa_result": pa,
        "runs": runs,
        "rbi": rbi,
        "cards": cards or [],
        "challenge": challenge_list[0] if challenge_list else None,
        "challenges": challenge_list,
        **extra,
    }


def card(side: str, code: str, runner: str | None = None) -> dict[str, Any]:
    out = {"side": side, "code": code}
    if runner is not None:
        out["runner"] = runner
    return out


def challenge(side: str, call: str, result: str) -> dict[str, Any]:
    return {"side": side, "call": call, "result": result}


def one_inning_game() -> list[dict[str, Any]]:
    """A one-inning game, 3-3. Expected numbers are worked out in tests/stats/test_boxscore.py.

    Top 1st (away bats): single, two-run homer, walk, a steal of second on a strike, fly out
    (runner to third), sacrifice fly, strikeout on three swinging strikes.
    Bottom 1st (home bats): reached on error, hit by pitch, caught stealing third then a
    fielder's choice, double, two-run triple, uncaught third strike (a run scores), pop-up.
    """
    a, h = "away", "home"
    return [
        # --- top 1st
        pitch(1, "top", 1, "pitch:B", after=(1, 0, 0, "000")),
        pitch(1, "top", 1, "pitch:S", balls=1, after=(1, 1, 0, "000")),
        pitch(1, "top", 1, "pitch:C bat:HT hit:L1", balls=1, strikes=1, pa="1B",
              after=(0, 0, 0, "100")),
        pitch(1, "top", 2, "pitch:C bat:HR", bases="100", pa="HR", runs=2, rbi=2,
              after=(0, 0, 0, "000")),
        pitch(1, "top", 3, "pitch:B", after=(1, 0, 0, "000")),
        pitch(1, "top", 3, "pitch:B", balls=1, after=(2, 0, 0, "000")),
        pitch(1, "top", 3, "pitch:B", balls=2, after=(3, 0, 0, "000")),
        pitch(1, "top", 3, "pitch:B", balls=3, pa="BB", after=(0, 0, 0, "100")),
        pitch(1, "top", 4, "pitch:S", bases="100", cards=[card(a, "SB2")],
              after=(0, 1, 0, "010")),
        pitch(1, "top", 4, "pitch:C bat:F2", strikes=1, bases="010", pa="OUT",
              after=(0, 0, 1, "001")),
        pitch(1, "top", 5, "pitch:C bat:FA", outs=1, bases="001", pa="SF", runs=1, rbi=1,
              after=(0, 0, 2, "000")),
        pitch(1, "top", 6, "pitch:SM", outs=2, after=(0, 1, 2, "000")),
        pitch(1, "top", 6, "pitch:SM", strikes=1, outs=2, after=(0, 2, 2, "000")),
        pitch(1, "top", 6, "pitch:SM", strikes=2, outs=2, pa="K", after=(0, 0, 3, "000")),
        # --- bottom 1st
        pitch(1, "bottom", 1, "pitch:C bat:G3", cards=[card(h, "E")], result="E", pa="E",
              after=(0, 0, 0, "100")),
        pitch(1, "bottom", 2, "pitch:B", bases="100", cards=[card(h, "HBP")], result="HBP",
              pa="HBP", after=(0, 0, 0, "110")),
        pitch(1, "bottom", 3, "pitch:S", bases="110", cards=[card(h, "SB3"), card(a, "CS3")],
              after=(0, 1, 1, "100")),
        pitch(1, "bottom", 3, "pitch:C bat:GF", strikes=1, outs=1, bases="100", pa="FC",
              after=(0, 0, 2, "100")),
        pitch(1, "bottom", 4, "pitch:C bat:HT hit:D2", outs=2, bases="100", pa="2B",
              after=(0, 0, 2, "011")),
        pitch(1, "bottom", 5, "pitch:C bat:HT hit:T3", outs=2, bases="011", pa="3B", runs=2,
              rbi=2, after=(0, 0, 2, "001")),
        pitch(1, "bottom", 6, "pitch:SM", strikes=2, outs=2, bases="001",
              cards=[card(h, "SNO")], result="SNO", pa="SNO", runs=1, rbi=1,
              after=(0, 0, 2, "100")),
        pitch(1, "bottom", 7, "pitch:C bat:PO", outs=2, bases="100", pa="OUT",
              after=(0, 0, 3, "000")),
    ]
