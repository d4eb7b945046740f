"""Stable codes used in state, events and the pitch table, with their words in both languages.

Codes never change; the words are for the play-by-play, the UI and the docs (design note 5).
"""

from __future__ import annotations

RESULT_CODES: dict[str, tuple[str, str]] = {
    "B": ("ball", "볼"),
    "S": ("strike", "스트라이크"),
    "F": ("foul ball", "파울"),
    "X": ("contact: run phase", "접촉: 주루 단계"),
    "CR:X": ("crushed, ordinary contact: run phase", "강타, 일반 접촉: 주루 단계"),
    "CR:1B": ("crushed for a single", "강타 단타"),
    "CR:2B": ("crushed for a double", "강타 2루타"),
    "CR:HR": ("crushed for a home run", "강타 홈런"),
}

PITCH_FACES: dict[str, tuple[str, str]] = {
    "B": ("ball: outside the zone", "볼: 존 밖"),
    "S": ("strike: inside the zone", "스트라이크: 존 안"),
    "C": ("corner: paints the corner", "코너: 구석을 찌름"),
}
"""The pitch die's marks (decision D1); how each meets the swing is the table of §3.3."""

POSITIONS: dict[str, tuple[str, str]] = {
    "C": ("catcher", "포수"),
    "1B": ("first base", "1루수"),
    "2B": ("second base", "2루수"),
    "3B": ("third base", "3루수"),
    "SS": ("shortstop", "유격수"),
    "LF": ("left field", "좌익수"),
    "CF": ("centre field", "중견수"),
    "RF": ("right field", "우익수"),
    "infield": ("infield: 1B, 2B, 3B or SS", "내야: 1B, 2B, 3B, SS 중 하나"),
    "outfield": ("outfield: LF, CF or RF", "외야: LF, CF, RF 중 하나"),
    "utility": ("utility: any infield or outfield position", "유틸리티: 내야·외야 어디든"),
}
"""A batter card's position, or the positions a flexible card may take (decision D11)."""

USAGES: dict[str, tuple[str, str]] = {
    "starter": ("starter only", "선발 전용"),
    "reliever": ("reliever only", "구원 전용"),
    "either": ("starter or reliever", "선발·구원 모두"),
}
"""How a pitcher card may be used at set-up."""

PA_CODES: dict[str, tuple[str, str]] = {
    "BB": ("walk", "볼넷"),
    "K": ("strikeout", "삼진"),
    "1B": ("single", "단타"),
    "2B": ("double", "2루타"),
    "HR": ("home run", "홈런"),
    "RS": ("safe after winning the run phase", "주루 승리로 세이프"),
    "RO": ("out after losing the run phase", "주루 패배로 아웃"),
}

TERMS: dict[str, tuple[str, str]] = {
    "stare": ("stare-down", "응시"),
    "inside": ("inside", "몸쪽"),
    "outside": ("outside", "바깥쪽"),
    "high": ("high", "높게"),
    "low": ("low", "낮게"),
    "ace": ("ace pitch", "에이스 투구"),
    "mvp": ("MVP ability", "MVP 능력"),
    "control": ("control die", "제구 주사위"),
    "pitch": ("pitch die", "투구 주사위"),
    "swing": ("swing die", "스윙 주사위"),
    "crush": ("crush", "강타"),
    "race": ("run phase", "주루 단계"),
    "unopposed": ("unopposed roll", "무저항 굴림"),
    "speed": ("speed +1", "스피드 +1"),
    "defense": ("defense +1", "수비 +1"),
    "fatigue": ("fatigue", "피로"),
    "relief": ("relief (fatigue recovery)", "구원(피로 회복)"),
    "bench": ("bench the starter", "선발 교체"),
}
