"""Deals anyone can check: a hand's cards derived from a secret seed and the hand's number by SHA-256 alone.

A table commits to a hand's seed before play (the seed's SHA-256, its ``commitment``) and reveals the seed
when the hand is over; anyone can then recompute the deal and compare it with the record.  The derivation
uses only SHA-256, unbiased integer draws by rejection and a Fisher-Yates shuffle, so another program can
follow it from its description in ``docs/records.md`` (no Python random generator is involved):

* block ``i`` = SHA-256(seed || b"dehla-deal" || hand_number as 4 bytes big-endian || i as 4 bytes
  big-endian), for i = 0, 1, 2, ...; the blocks' bytes, in order, are read as 32-bit big-endian words;
* a draw below ``n`` takes words until one is below ``2**32 - 2**32 % n`` and answers it modulo ``n``;
* the pack, in card order (spades, hearts, diamonds, clubs; in each 2 up to A, without the twos in the
  48-card pack), is shuffled by Fisher-Yates from the top index down: for i = N-1 .. 1, swap i and draw(i+1);
* seat ``s`` gets cards ``s*h .. s*h+h-1`` of the shuffled pack in that order (the first five are its opening
  packet), and under open-draw rules the drawn card is the shuffled pack's card at draw(N), taken next.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from dehla.cards import Card
from dehla.engine.actions import Deal
from dehla.engine.game import game_of
from dehla.errors import DehlaError
from dehla.rules import Rules

__all__ = [
    "DOMAIN",
    "SEED_BYTES",
    "commitment_of",
    "deal_from_seed",
    "deal_differences",
    "seed_from_hex",
]

#: The label between the seed and the numbers in every block, so that these hashes serve nothing else.
DOMAIN = b"dehla-deal"
#: How many bytes a table's seed has (from ``secrets``): enough that the commitment cannot be searched.
SEED_BYTES = 32
_WORDS = 1 << 32


def commitment_of(seed: bytes) -> str:
    """The commitment to a seed, published before the hand: SHA-256 of the seed's bytes, as lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def seed_from_hex(text: object, what: str = "seed") -> bytes:
    """A seed written as hex (as records carry it), or ``DehlaError`` saying what is wrong with it."""
    if not isinstance(text, str):
        raise DehlaError(f"{what} must be text (hexadecimal digits), not {type(text).__name__}")
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise DehlaError(f"{what} must be hexadecimal digits (0-9, a-f), two per byte, not {text[:80]!r}") from None
    if not seed:
        raise DehlaError(f"{what} is empty")
    return seed


def _words(seed: bytes, hand_number: int) -> Iterator[int]:
    """The derivation's stream of 32-bit words for one hand: the SHA-256 blocks in counter mode, 8 words each."""
    prefix = seed + DOMAIN + hand_number.to_bytes(4, "big")
    block = 0
    while True:
        digest = hashlib.sha256(prefix + block.to_bytes(4, "big")).digest()
        for start in range(0, 32, 4):
            yield int.from_bytes(digest[start : start + 4], "big")
        block += 1


def _draw(words: Iterator[int], n: int) -> int:
    """A uniform draw from ``0 .. n-1``: words at or above the largest multiple of ``n`` are refused."""
    limit = _WORDS - _WORDS % n
    for word in words:
        if word < limit:
            return word % n
    raise AssertionError("the word stream is endless")  # pragma: no cover


def deal_from_seed(rules: Rules, seed: bytes, hand_number: int) -> Deal:
    """The deal of hand ``hand_number`` (0-based, its place in the match's record) that ``seed`` gives."""
    if not isinstance(seed, bytes) or not seed:
        raise DehlaError("a deal's seed must be a non-empty byte string")
    if not isinstance(hand_number, int) or isinstance(hand_number, bool) or not 0 <= hand_number < _WORDS:
        raise DehlaError(f"a hand number must be a whole number from 0 to {_WORDS - 1}, not {hand_number!r}")
    game = game_of(rules)
    deck: list[Card] = list(game.pack)
    words = _words(seed, hand_number)
    for top in range(len(deck) - 1, 0, -1):
        other = _draw(words, top + 1)
        deck[top], deck[other] = deck[other], deck[top]
    size = game.hand_size
    hands = tuple(tuple(deck[seat * size : (seat + 1) * size]) for seat in range(game.players))
    drawn = deck[_draw(words, len(deck))] if game.open_draw else None
    return Deal.trusted(hands, drawn, game)


def deal_differences(expected: Deal, recorded: Deal) -> list[str]:
    """What a recorded deal does differently from the one expected, seat by seat, in words (empty if the same)."""
    problems: list[str] = []
    if len(expected.hands) != len(recorded.hands):
        return [f"the record deals {len(recorded.hands)} hands; the seed deals {len(expected.hands)}"]
    for seat, (want, got) in enumerate(zip(expected.hands, recorded.hands, strict=True)):
        if want == got:
            continue
        extra = [str(card) for card in got if card not in want]
        missing = [str(card) for card in want if card not in got]
        if not extra and not missing:
            problems.append(f"seat {seat} holds the right cards in another order (the order gives the opening packet)")
            continue
        parts = []
        if extra:
            parts.append(f"holds {' '.join(extra)}, which the seed does not deal it")
        if missing:
            parts.append(f"lacks {' '.join(missing)}, which the seed deals it")
        problems.append(f"seat {seat} " + " and ".join(parts))
    if expected.open_draw != recorded.open_draw:
        problems.append(f"the drawn card is {recorded.open_draw}; the seed draws {expected.open_draw}")
    return problems
