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
