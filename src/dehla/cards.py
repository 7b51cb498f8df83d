"""Cards, suits and ranks; their text forms (SPEC 4.1) and bitmask helpers.

A card is a small ``int`` (``suit * 13 + rank``) so that search code can keep
hands as 52-bit masks: bit ``c`` set means card ``c`` is held.  ``Card`` is an
``int`` subclass with interned instances, so it prints as ``10H`` yet costs no
more than an int in the hot loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from enum import IntEnum
from typing import TypeVar

from dehla.errors import CardError

T = TypeVar("T")

__all__ = [
    "Card",
    "Suit",
    "RANKS",
    "TEN",
    "ALL_CARDS",
    "DECK_52",
    "DECK_48",
    "SUIT_MASKS",
    "TENS_MASK",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "cards_text",
    "mask_of",
    "cards_of",
    "sort_hand",
]


class Suit(IntEnum):
    """The four suits, in the order hands are shown: spades, hearts, diamonds, clubs."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def word(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self]

    def __str__(self) -> str:
        return self.name


#: Rank texts from low (index 0, the two) to high (index 12, the ace).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Rank index of the ten, the only card that scores.
TEN = 8

_RANK_INPUT = {text: index for index, text in enumerate(RANKS)}
_RANK_INPUT["T"] = TEN
_SUIT_INPUT = {"S": Suit.S, "H": Suit.H, "D": Suit.D, "C": Suit.C, "♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C}
# Symbols sometimes arrive in their outline or emoji forms.
_SUIT_INPUT.update({"♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C})
_SUIT_INPUT.update({"♥️": Suit.H, "♦️": Suit.D, "♠️": Suit.S, "♣️": Suit.C})


class Card(int):
    """One playing card; ``Card(n)`` for ``n`` in ``0..51`` returns the interned instance."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if isinstance(value, int) and 0 <= value < 52:
            return ALL_CARDS[value]
        raise CardError(f"no card numbered {value!r}; cards are 0..51")

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """Rank index, 0 for the two up to 12 for the ace."""
        return self % 13

    @property
    def is_ten(self) -> bool:
        return self % 13 == TEN

    @property
    def bit(self) -> int:
        return 1 << self

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]})"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)


def _make_cards() -> tuple[Card, ...]:
    return tuple(int.__new__(Card, value) for value in range(52))


ALL_CARDS: tuple[Card, ...] = _make_cards()
_SUIT_OF: tuple[Suit, ...] = tuple(Suit(value // 13) for value in range(52))
_TEXT: tuple[str, ...] = tuple(RANKS[value % 13] + Suit(value // 13).name for value in range(52))
_BY_TEXT: dict[str, Card] = {_TEXT[card]: card for card in ALL_CARDS}

#: The full pack, and the 48-card pack without the twos used by six or eight players.
DECK_52: tuple[Card, ...] = ALL_CARDS
DECK_48: tuple[Card, ...] = tuple(card for card in ALL_CARDS if card.rank != 0)
#: Bitmask of each suit's 13 cards.
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * suit) for suit in range(4))  # type: ignore[assignment]
#: Bitmask of the four tens.
TENS_MASK: int = sum(1 << (suit * 13 + TEN) for suit in range(4))


def parse_suit(text: str) -> Suit:
    """Read a suit letter or symbol, any case: ``S``, ``h``, ``♦``."""
    key = text.strip().upper()
    try:
        return _SUIT_INPUT[key]
    except KeyError:
        raise CardError(f"{text!r} is not a suit; use S, H, D or C (or ♠ ♥ ♦ ♣)") from None


def parse_card(text: str) -> Card:
    """Read a card: rank then suit, ``10H``, ``th``, ``q♦``."""
    if not isinstance(text, str):
        raise CardError(f"a card must be text such as '10H', not {type(text).__name__}")
    raw = text.strip()
    key = raw.upper()
    card = _BY_TEXT.get(key)
    if card is not None:
        return card
    for suit_text, suit in _SUIT_INPUT.items():
        if key.endswith(suit_text) and len(key) > len(suit_text):
            rank_text = key[: -len(suit_text)]
            rank = _RANK_INPUT.get(rank_text)
            if rank is not None:
                return ALL_CARDS[suit * 13 + rank]
            raise CardError(f"{raw!r} is not a card: {rank_text!r} is not a rank (A K Q J 10 9 ... 2, or T)")
    raise CardError(f"{raw!r} is not a card; write rank then suit, such as 10H, AS or QD")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read space-separated cards (or an iterable of card texts)."""
    items = text.split() if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items]


def cards_text(cards: Iterable[int]) -> str:
    """Space-separated output text of some cards, in the order given."""
    return " ".join(_TEXT[card] for card in cards)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def suit_tables(item: Callable[[int], T]) -> tuple[list[tuple[T, ...]], ...]:
    """For each suit, ``item(card)`` for the cards of every 13-bit set of its ranks, low card first.

    Turning a mask into a sequence is then four look-ups (``mask >> 13 * suit & 0x1FFF``).
    """
    tables = []
    for suit in range(4):
        table: list[tuple[T, ...]] = [()]
        for ranks in range(1, 1 << 13):
            high = ranks.bit_length() - 1
            table.append(table[ranks ^ (1 << high)] + (item(suit * 13 + high),))
        tables.append(table)
    return tuple(tables)


_C0, _C1, _C2, _C3 = suit_tables(ALL_CARDS.__getitem__)


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest number first (four table look-ups, no loop over bits)."""
    return [*_C0[mask & 0x1FFF], *_C1[mask >> 13 & 0x1FFF], *_C2[mask >> 26 & 0x1FFF], *_C3[mask >> 39 & 0x1FFF]]


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield ALL_CARDS[low.bit_length() - 1]
        mask ^= low


def sort_hand(cards: Iterable[int]) -> list[Card]:
    """Cards grouped by suit (S H D C), high to low within a suit, as players hold them."""
    return sorted((ALL_CARDS[card] for card in cards), key=lambda card: (card // 13, -card))
