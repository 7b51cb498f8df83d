"""A deal anyone can check (docs/records.md, "Checkable deals"): fixed vectors, and a second implementation written
from the document's words alone, which must agree with ``deal_from_seed`` on every preset and many seeds."""

from __future__ import annotations

import hashlib

import pytest

from dehla.cards import cards_text, parse_cards
from dehla.engine.actions import Deal
from dehla.engine.fairdeal import commitment_of, deal_differences, deal_from_seed, seed_from_hex
from dehla.errors import DehlaError
from dehla.rules import PRESETS, parse_rules

SEED_0_31 = bytes(range(32))

#: seed hex -> (preset, hand number, each seat's cards, the drawn card)
VECTORS = [
    (
        SEED_0_31.hex(),
        "pagat",
        0,
        [
            "KS QH JD 5C 8D 5S QD 7C AC 10D 9S 9H 2D",
            "4C 7S 4D 2H KH 6C 9D 9C 3H 8H 2C 10S 5H",
            "AS 8S JS 7D 4S 6D QC KD 6S JH 4H 8C 3S",
            "AD 5D AH 10C 3C 3D QS 10H 6H JC 7H 2S KC",
        ],
        None,
    ),
    (
        SEED_0_31.hex(),
        "mendikot-open",
        0,
        [
            "KS QH JD 5C 8D 5S QD 7C AC 10D 9S 9H 2D",
            "4C 7S 4D 2H KH 6C 9D 9C 3H 8H 2C 10S 5H",
            "AS 8S JS 7D 4S 6D QC KD 6S JH 4H 8C 3S",
            "AD 5D AH 10C 3C 3D QS 10H 6H JC 7H 2S KC",
        ],
        "9S",
    ),
    (
        SEED_0_31.hex(),
        "mendikot-open",
        1,
        [
            "QC 2D 6H KH 6S 2S 4D 2C 9D 8D KD QD 10D",
            "JC 3D 8H 2H JH 9S 7H 6C 3S 10H 10C 3C 5S",
            "8S 7S 9C 5C 10S JD 5D JS QH 4S AS 5H KS",
            "AD 4H 7D AH 4C KC 9H 7C 3H QS 8C 6D AC",
        ],
        "4D",
    ),
    (
        SEED_0_31.hex(),
        "mendikot-6",
        0,
        [
            "10S JC 3H JH 7D 3S 8D 8S",
            "AC AS JD 10H 4C KH 4D 8H",
            "4S AH 9H QS 4H 8C QC 10D",
            "6S JS 5D 3C 6D 7H 10C QD",
            "3D 5C 6C 9C 7C 6H AD 7S",
            "5S 9S 5H KC KS KD QH 9D",
        ],
        None,
    ),
    (
        "00" * 32,
        "pagat",
        0,
        [
            "AD KS KH 5S 6C 8H QD 4D 10C 6D 7S 10H 7D",
            "6H 4C 10S KC KD 3S 7H 5C 3H 5D JD JC 3C",
            "10D 9S AH 2D 4H 7C 9C 8C 8D QH AC 3D 2S",
            "9D AS 2C 8S QS 6S JH 9H 2H QC 5H 4S JS",
        ],
        None,
    ),
]


@pytest.mark.parametrize(("seed", "preset", "hand", "cards", "drawn"), VECTORS)
def test_a_seed_deals_the_cards_of_the_fixed_vector(
    seed: str, preset: str, hand: int, cards: list[str], drawn: str | None
) -> None:
    deal = deal_from_seed(parse_rules(preset), bytes.fromhex(seed), hand)
    assert [cards_text(seat) for seat in deal.hands] == cards
    assert (None if deal.open_draw is None else str(deal.open_draw)) == drawn


def test_the_commitment_is_the_sha256_of_the_seed_bytes() -> None:
    assert commitment_of(SEED_0_31) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


# -- the document's derivation, written again from its words (no dehla code but the card names) --------------

SUITS = "SHDC"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _pack(players: int) -> list[str]:
    """Step 3: spades, hearts, diamonds, clubs; 2 up to A; no twos for six and eight players."""
    return [rank + suit for suit in SUITS for rank in RANKS if players == 4 or rank != "2"]


class _Stream:
    """Step 1: SHA-256 blocks of seed, "dehla-deal", u32 hand number, u32 block counter, read as u32 words."""

    def __init__(self, seed: bytes, hand: int) -> None:
        self.seed, self.hand, self.block, self.buffer = seed, hand, 0, b""

    def word(self) -> int:
        if not self.buffer:
            data = self.seed + b"dehla-deal" + self.hand.to_bytes(4, "big") + self.block.to_bytes(4, "big")
            self.buffer = hashlib.sha256(data).digest()
            self.block += 1
        word, self.buffer = self.buffer[:4], self.buffer[4:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """Step 2: words at or above 2^32 - (2^32 mod n) are passed over."""
        limit = 2**32 - (2**32 % n)
        while True:
            word = self.word()
            if word < limit:
                return word % n


def _document_deal(
    players: int, hand_size: int, open_draw: bool, seed: bytes, hand: int
) -> tuple[list[str], str | None]:
    pack = _pack(players)
    stream = _Stream(seed, hand)
    for i in range(len(pack) - 1, 0, -1):  # step 4
        j = stream.below(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    hands = [" ".join(pack[s * hand_size : (s + 1) * hand_size]) for s in range(players)]  # step 5
    drawn = pack[stream.below(len(pack))] if open_draw else None  # step 6
    return hands, drawn


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_engine_and_the_documents_words_deal_alike(preset: str) -> None:
    rules = parse_rules(preset)
    for number in range(40):
        seed = hashlib.sha256(f"{preset}/{number}".encode()).digest()[: 1 + number % 32]
        hand = number * 7919 % 5000
        deal = deal_from_seed(rules, seed, hand)
        cards, drawn = _document_deal(rules.players, rules.hand_size, rules.trump == "open_draw", seed, hand)
        assert [cards_text(seat) for seat in deal.hands] == cards
        assert (None if deal.open_draw is None else str(deal.open_draw)) == drawn


def test_each_hand_of_a_match_gets_its_own_deal_from_one_seed() -> None:
    rules = parse_rules("pagat")
    deals = {str(deal_from_seed(rules, SEED_0_31, hand)) for hand in range(20)}
    assert len(deals) == 20


def test_a_seeded_deal_is_a_deal_the_engine_accepts() -> None:
    from dehla.engine.state import Match

    for preset in sorted(PRESETS):
        match = Match(preset, 0)
        match.apply(deal_from_seed(match.rules, SEED_0_31, 0))
        assert match.legal_actions()


def test_a_swapped_pair_of_cards_is_named_seat_by_seat() -> None:
    rules = parse_rules("pagat")
    deal = deal_from_seed(rules, SEED_0_31, 0)
    hands = [list(seat) for seat in deal.hands]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    problems = deal_differences(deal, Deal(hands))
    assert problems == [
        "seat 0 holds 4C, which the seed does not deal it and lacks KS, which the seed deals it",
        "seat 1 holds KS, which the seed does not deal it and lacks 4C, which the seed deals it",
    ]
    reordered = [list(seat) for seat in deal.hands]
    reordered[2].reverse()
    assert deal_differences(deal, Deal(reordered)) == [
        "seat 2 holds the right cards in another order (the order gives the opening packet)"
    ]
    assert deal_differences(deal, Deal([parse_cards(cards_text(seat)) for seat in deal.hands])) == []


@pytest.mark.parametrize(
    ("text", "words"), [("xyz", "hexadecimal"), ("abc", "hexadecimal"), ("", "empty"), (7, "text")]
)
def test_a_seed_that_is_not_hex_is_refused_in_words(text: object, words: str) -> None:
    with pytest.raises(DehlaError, match=words):
        seed_from_hex(text)


def test_a_hand_number_out_of_range_is_refused() -> None:
    with pytest.raises(DehlaError, match="hand number"):
        deal_from_seed(parse_rules("pagat"), SEED_0_31, -1)
