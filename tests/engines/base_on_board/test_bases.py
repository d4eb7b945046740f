from app.engines.base_on_board.bases import as_text


def test_as_text_reads_first_second_third() -> None:
    assert as_text(0) == "000"
    assert as_text(0b001) == "100"  # first only
    assert as_text(0b010) == "010"
    assert as_text(0b100) == "001"  # third only
    assert as_text(0b111) == "111"


def test_as_text_is_the_three_low_bits_of_any_number() -> None:
    # The table holds the eight base states; any other number reads its three low bits, as
    # the formula it replaced did.
    for bases in range(-16, 64):
        assert as_text(bases) == f"{bases & 1}{(bases >> 1) & 1}{(bases >> 2) & 1}"
