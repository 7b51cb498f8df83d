"""SPEC 4.1 card text, and the compact bitmask representation search code relies on."""

from __future__ import annotations

import pytest

from dehla import Card, CardError, DehlaError, Suit, parse_card, parse_cards
from dehla.cards import (
    ALL_CARDS,
    DECK_48,
    DECK_52,
    RANKS,
    SUIT_MASKS,
    TEN,
    TENS_MASK,
    cards_of,
    cards_text,
    mask_of,
    parse_suit,
    sort_hand,
)

# ---------------------------------------------------------------------------------------------
# Text: rank then suit; input is forgiving, output is one canonical form


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("AS", 12, Suit.S), ("10H", TEN, Suit.H), ("QD", 10, Suit.D), ("2C", 0, Suit.C), ("KS", 11, Suit.S)],
)
def test_4_1_card_is_rank_then_suit(text: str, rank: int, suit: Suit) -> None:
    card = parse_card(text)
    assert card.rank == rank
    assert card.suit == suit
    assert str(card) == text


@pytest.mark.parametrize("text", ["TH", "th", "Th", "10h", "10♥", "t♥", " 10H "])
def test_4_1_input_accepts_t_for_ten_lower_case_and_symbols(text: str) -> None:
    assert parse_card(text) == parse_card("10H")
    assert str(parse_card(text)) == "10H"


@pytest.mark.parametrize(("symbol", "letter"), [("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C")])
def test_4_1_suit_symbols_read_as_letters(symbol: str, letter: str) -> None:
    assert str(parse_card("Q" + symbol)) == "Q" + letter
    assert parse_suit(symbol) == parse_suit(letter) == parse_suit(letter.lower())


def test_4_1_output_always_uses_10_and_letters() -> None:
    texts = [str(card) for card in ALL_CARDS]
    assert "10S" in texts and "10C" in texts
    assert not any("T" in text or any(symbol in text for symbol in "♠♥♦♣") for text in texts)
    assert all(text[-1] in "SHDC" for text in texts)


def test_4_1_every_card_round_trips_through_text() -> None:
    for card in ALL_CARDS:
        assert parse_card(str(card)) is card
        assert parse_card(str(card).lower()) is card


def test_parse_cards_reads_space_separated_text_and_lists() -> None:
    assert [str(card) for card in parse_cards("AS 10h  t♦ 2c")] == ["AS", "10H", "10D", "2C"]
    assert parse_cards(["AS", "2C"]) == [parse_card("AS"), parse_card("2C")]
    assert cards_text(parse_cards("as th 2c")) == "AS 10H 2C"


@pytest.mark.parametrize("text", ["", "X", "1H", "11H", "AX", "A", "10", "ZS", "AHS", "10 H", "AH2"])
def test_bad_card_text_raises_card_error_saying_what_to_write(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert "card" in str(caught.value) or "rank" in str(caught.value)


def test_card_error_is_a_dehla_error() -> None:
    assert issubclass(CardError, DehlaError)
    with pytest.raises(DehlaError):
        parse_card("ZZ")


def test_non_text_card_is_refused() -> None:
    with pytest.raises(CardError):
        parse_card(10)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["X", "", "SH", "1"])
def test_bad_suit_text_raises(text: str) -> None:
    with pytest.raises(CardError):
        parse_suit(text)


# ---------------------------------------------------------------------------------------------
# The compact form: a card is an int 0..51, suit * 13 + rank


def test_card_number_is_suit_times_13_plus_rank() -> None:
    for number in range(52):
        card = Card(number)
        assert card == number
        assert card.suit == number // 13
        assert card.rank == number % 13
        assert card.bit == 1 << number


@pytest.mark.parametrize("number", [-1, 52, 100, "AS", None])
def test_card_outside_0_to_51_is_refused(number: object) -> None:
    with pytest.raises(CardError):
        Card(number)  # type: ignore[arg-type]


def test_ranks_run_from_two_to_ace_with_ten_between_nine_and_jack() -> None:
    assert RANKS[0] == "2" and RANKS[-1] == "A"
    assert RANKS.index("10") == TEN
    assert RANKS[TEN - 1] == "9" and RANKS[TEN + 1] == "J"
    assert parse_card("AS") > parse_card("KS") > parse_card("QS") > parse_card("JS") > parse_card("10S")
    assert parse_card("10S") > parse_card("9S") > parse_card("2S")


def test_only_the_four_tens_are_tens() -> None:
    tens = [card for card in ALL_CARDS if card.is_ten]
    assert [str(card) for card in tens] == ["10S", "10H", "10D", "10C"]
    assert mask_of(tens) == TENS_MASK


def test_decks_52_and_48_without_the_twos() -> None:
    assert len(DECK_52) == 52 and len(set(DECK_52)) == 52
    assert len(DECK_48) == 48
    assert not any(card.rank == 0 for card in DECK_48)
    assert set(DECK_52) - set(DECK_48) == set(parse_cards("2S 2H 2D 2C"))


def test_mask_and_cards_of_are_inverse() -> None:
    hand = parse_cards("AS 10H 2C QD 3S")
    mask = mask_of(hand)
    assert mask.bit_count() == 5
    assert sorted(cards_of(mask)) == sorted(hand)
    assert cards_of(0) == []
    assert cards_of(mask_of(ALL_CARDS)) == list(ALL_CARDS)


def test_suit_masks_partition_the_pack() -> None:
    assert sum(mask.bit_count() for mask in SUIT_MASKS) == 52
    union = 0
    for suit, mask in enumerate(SUIT_MASKS):
        assert union & mask == 0
        union |= mask
        assert all(card.suit == suit for card in cards_of(mask))
    assert union == (1 << 52) - 1


def test_sort_hand_groups_by_suit_high_cards_first() -> None:
    hand = parse_cards("2C 10H AS 3S KH 10D")
    assert cards_text(sort_hand(hand)) == "AS 3S KH 10H 10D 2C"


def test_suits_are_ordered_s_h_d_c_with_words_and_symbols() -> None:
    assert [suit.name for suit in Suit] == ["S", "H", "D", "C"]
    assert [suit.symbol for suit in Suit] == ["♠", "♥", "♦", "♣"]
    assert Suit.D.word == "diamonds"
    assert str(Suit.H) == "H"
