"""Play-by-play text from hand-built records, in both languages."""

from __future__ import annotations

from app.stats.playbyplay import name, pitch_text, plate_appearances, play_by_play
from tests.stats.build import card, challenge, one_inning_game, pitch


def test_one_pitch_in_both_languages() -> None:
    record = pitch(3, "top", 12, "pitch:SM", balls=1, strikes=1, after=(1, 2, 0, "000"))
    assert pitch_text(record, "en") == "Top 3rd — Away #12: SM (swinging strike); 1-2"
    assert pitch_text(record, "ko") == "3회초 — 원정 12번 타자: 헛스윙; 1-2"


def test_hit_with_runs() -> None:
    record = pitch(5, "bottom", 21, "pitch:C bat:HT hit:L2", outs=1, bases="011", pa="1B",
                   runs=2, rbi=2, after=(0, 0, 1, "100"))
    assert pitch_text(record, "en") == (
        "Bottom 5th — Home #21: C (contact), HT (hit), L2 (single to left); 1B (single); "
        "2 runs score, 2 RBI; 1 out, runner on 1st"
    )
    assert pitch_text(record, "ko") == (
        "5회말 — 홈 21번 타자: 타격, 안타, 좌전 안타; 단타; 2점 득점 (타점 2); 1아웃, 주자 1루"
    )


def test_cards_and_challenges_are_described() -> None:
    record = pitch(
        2, "top", 7, "pitch:B", bases="100", cards=[card("away", "SB2"), card("home", "CS2")],
        challenges=[challenge("away", "CS2", "reverse")], after=(1, 0, 0, "010"),
    )
    assert pitch_text(record, "en") == (
        "Top 2nd — Away #7: B (ball); cards: Away SB2 (stolen base (1st→2nd)), "
        "Home CS2 (caught stealing (1st→2nd)); challenge: Away on CS2 (caught stealing "
        "(1st→2nd)): reversed; 1-0; runner on 2nd"
    )
    assert pitch_text(record, "ko") == (
        "2회초 — 원정 7번 타자: 볼; 카드: 원정 1→2루 도루 성공, 홈 1→2루 도루 실패; "
        "챌린지: 원정 1→2루 도루 실패 번복; 1-0; 주자 2루"
    )


def test_result_changed_by_a_challenge() -> None:
    record = pitch(1, "top", 1, "pitch:C bat:GA", result="GA>1B", pa="1B",
                   challenges=[challenge("away", "GA", "reverse")], after=(0, 0, 0, "100"))
    text = pitch_text(record, "en")
    assert "result: GA (groundout) → 1B (single)" in text
    assert "결과: 땅볼 아웃 → 단타" in pitch_text(record, "ko")


def test_names_fall_back_to_the_code() -> None:
    assert name("ZZ", "result", "en") == "ZZ"
    assert name("IOB", "pa", "en") == "IOB (obstruction)"
    assert name("RS", "pa", "ko", "bottom-of-the-9th") == "주루 승리로 세이프"


def test_one_line_per_pitch_and_per_plate_appearance() -> None:
    game = one_inning_game()
    assert len(play_by_play(game)) == len(game)
    lines = plate_appearances(game, "en")
    assert len(lines) == 13  # six away and seven home plate appearances
    assert lines[0].text == (
        "Top 1st — Away #1: pitches: B, S, C; 1B (single) — L1 (single to left); "
        "0 outs, runner on 1st"
    )
    assert lines[3].text == (
        "Top 1st — Away #4: pitches: S, C; cards: Away SB2 (stolen base (1st→2nd)); "
        "OUT (out) — F2 (outfield fly out); 1 out, runner on 3rd"
    )
    ko = plate_appearances(game, "ko")
    assert ko[5].text == "1회초 — 원정 6번 타자: 투구: 헛스윙, 헛스윙, 헛스윙; 삼진; 3아웃"


def test_bottom_of_the_ninth_record() -> None:
    record = pitch(9, "bottom", 2, "control:3 pitch:S swing:4", result="X", pa="RS", runs=1,
                   rbi=1, stare={"direction_read": True, "location_read": False},
                   race={"rolls": [], "winner": "home"}, after=(0, 0, 0, "000"))
    assert pitch_text(record, "en") == (
        "Bottom 9th — Home #2: result: X (contact: run phase); stare-down: read direction; "
        "run phase won by the batter; RS (safe after winning the run phase); "
        "1 run scores, 1 RBI; 0 outs, bases empty"
    )
    assert pitch_text(record, "ko").startswith(
        "9회말 — 홈 2번 타자: 결과: 접촉: 주루 단계; 응시: 방향 읽음"
    )
