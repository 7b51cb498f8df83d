"""The rules of a trick over a row (``dehla.kernel.layout``), as numba functions inlined into their callers.

A compiled mirror of ``dehla.engine.tricks`` (SPEC 1, 3.1 - 3.4), written once for the solver and the batch
simulator: the cards the seat to act may play, asking for the band-hukum card and turning it up, a card
played (with the cut that sets trump), the winner of a trick, where its cards go, the staged deal, and
the start of the next trick.  Each kernel keeps its own accounting around them: the solver counts tens,
the batch simulator keeps masks and logs.  ``tests/kernel/test_core.py`` holds these to the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import dehla.numba_cache  # noqa: F401 - first: a writable cache directory for numba before numba is imported

# isort: split
from numba.core import cgutils, types
from numba.extending import intrinsic

from dehla.kernel.jit import inline
from dehla.kernel.layout import (
    C0,
    CUT_OPEN,
    FREE_PLAY,
    H0,
    HIDDEN,
    LASTW,
    LEADER,
    LED,
    MUST_TRUMP,
    NONE_YET,
    PN0,
    REVEAL_ASKED,
    REVEAL_AUTO,
    STAGED,
    SUIT,
    TFROM,
    TLEN,
    TO_ACT,
    TRUMP,
    Array,
)

__all__ = [
    "popcount",
    "low_card",
    "legal_cards",
    "can_ask_reveal",
    "turn_up",
    "begin_turn",
    "pass_turn",
    "play_card",
    "counts_from",
    "card_rank",
    "rank_if_played",
    "rank_at",
    "trick_winner",
    "collects",
    "deal_rest",
    "staged_deal_due",
    "complete_staged_deal",
    "next_trick",
]


@intrinsic
def _ctpop_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM's population count of an int64 (one instruction)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM's count of trailing zeros of an int64: the lowest card of a mask."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], cgutils.false_bit)

    return types.int64(types.int64), codegen


_ctpop = cast(Callable[[int], int], _ctpop_intrinsic)
_cttz = cast(Callable[[int], int], _cttz_intrinsic)


@inline
def popcount(mask: int) -> int:
    """How many cards a mask holds."""
    return int(_ctpop(mask))


@inline
def low_card(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return int(_cttz(mask))


@inline
def legal_cards(row: Array) -> int:
    """The cards the seat to act may play (``tricks.legal_cards``), in the play phase.

    Without branches: whether a seat can follow is as random as the deal.
    """
    hand = row[H0 + row[TO_ACT]]
    follow = hand & (SUIT << (13 * row[LED]))
    trump = row[TRUMP]
    trumps = hand & (SUIT << (13 * (trump & 3))) if row[MUST_TRUMP] and trump >= 0 else 0
    cards = trumps if trumps else hand
    cards = follow if follow else cards
    return int(hand if row[TLEN] == 0 or row[FREE_PLAY] else cards)


@inline
def can_ask_reveal(row: Array, reveal: int) -> bool:
    """May the seat to act ask for the band-hukum card (``tricks.can_ask_reveal``)?  ``reveal``: ``P_REVEAL``."""
    if reveal != REVEAL_ASKED or row[HIDDEN] < 0 or row[TLEN] == 0:
        return False
    return bool((row[H0 + row[TO_ACT]] & (SUIT << (13 * row[LED]))) == 0)


@inline
def turn_up(row: Array, chooser: int) -> int:
    """Turn the band-hukum card up: back in the chooser's hand, its suit trump from the next card of this
    trick on.  Returns the card."""
    card = row[HIDDEN]
    row[HIDDEN] = -1
    row[H0 + chooser] |= 1 << card
    row[TRUMP] = card // 13
    row[TFROM] = row[TLEN]
    return int(card)


@inline
def begin_turn(row: Array, reveal: int, chooser: int, seat: int) -> int:
    """``seat``'s turn starts; while the band-hukum card is face down it is turned up for a chooser with
    nothing else to play, or automatically (``hidden_auto``) for a seat that cannot follow, which may then
    play any card.  Returns the card turned up, else -1."""
    row[TO_ACT] = seat
    row[MUST_TRUMP] = 0
    row[FREE_PLAY] = 0
    if row[HIDDEN] >= 0:
        if seat == chooser and row[H0 + seat] == 0:
            return turn_up(row, chooser)
        if reveal == REVEAL_AUTO and row[TLEN] > 0 and (row[H0 + seat] & (SUIT << (13 * row[LED]))) == 0:
            card = turn_up(row, chooser)
            row[FREE_PLAY] = 1
            return card
    return -1


@inline
def pass_turn(row: Array, reveal: int, chooser: int, seat: int) -> int:
    """The turn passes to ``seat`` within a trick (``begin_turn``, which only has work to do while the
    band-hukum card is face down or a seat's reveal is still in force).  Returns the card turned up, else -1."""
    if row[MUST_TRUMP] or row[FREE_PLAY] or row[HIDDEN] >= 0:
        return begin_turn(row, reveal, chooser, seat)
    row[TO_ACT] = seat
    return -1


@inline
def play_card(row: Array, card: int) -> int:
    """The seat to act plays ``card`` (legal) to the trick: the suit led, or under cut trump the first card
    played off-suit sets trump and counts as one in this trick.  Returns the trick's new length."""
    seat = row[TO_ACT]
    hand = row[H0 + seat]
    row[H0 + seat] = hand ^ (1 << card)
    tlen = row[TLEN]
    if tlen == 0:
        row[LED] = card // 13
    elif row[CUT_OPEN] and (hand & (SUIT << (13 * row[LED]))) == 0:
        row[CUT_OPEN] = 0
        row[TRUMP] = card // 13
        row[TFROM] = tlen
    row[C0 + tlen] = card
    row[TLEN] = tlen + 1
    return int(tlen + 1)


@inline
def counts_from(row: Array) -> int:
    """The index in the trick from which a trump counts as trump: none when trump is the suit led (its cards
    rank as the suit led) or not known yet."""
    return int(row[TFROM] if row[TRUMP] != row[LED] else NONE_YET)


@inline
def card_rank(card: int, index: int, led: int, trump: int, trump_from: int) -> int:
    """The rank of ``card``, the trick's ``index``-th: the highest rank wins (``tricks.trick_winner``).

    A trump that counts (``index >= trump_from``) ranks above every card of the suit led, any other card
    off the suit led below both; chosen without branches, since which card wins is as random as the play.
    """
    suit = card // 13
    rank = card if suit == led else -1
    return int(card + 64 if suit == trump and index >= trump_from else rank)


@inline
def rank_if_played(row: Array, card: int) -> int:
    """The rank ``card`` (legal) would take if the seat to act played it now (``play_card``): under cut trump
    a first card off the suit led makes its suit trump from this card on."""
    tlen = row[TLEN]
    led = row[LED]
    if row[TRUMP] < 0 and row[CUT_OPEN] and tlen > 0 and card // 13 != led:
        return card_rank(card, tlen, led, card // 13, tlen)
    return card_rank(card, tlen, led, row[TRUMP], counts_from(row))


@inline
def rank_at(row: Array, index: int) -> int:
    """The rank of the trick's ``index``-th card."""
    return card_rank(row[C0 + index], index, row[LED], row[TRUMP], counts_from(row))


@inline
def trick_winner(row: Array, count: int) -> int:
    """Index of the card winning the trick's first ``count`` cards (``tricks.trick_winner``): the highest
    ``card_rank``."""
    led = row[LED]
    trump = row[TRUMP]
    trump_from = counts_from(row)
    best_index = 0
    best = -1
    for index in range(count):
        rank = card_rank(row[C0 + index], index, led, trump, trump_from)
        better = rank > best
        best = rank if better else best
        best_index = index if better else best_index
    return best_index


@inline
def collects(row: Array, immediate: int, streak_resets: int, winner: int, last: bool) -> bool:
    """Does ``winner``'s team collect now (``tricks.collect``)?  Sets who collects the centre next.

    Immediate collection takes every trick at once.  Otherwise a player who wins two tricks in a row, or
    the last trick, takes the whole centre (the trick with it); the count starts again after a collection
    unless ``streak_resets`` is false; a trick not collected stays in the centre.
    """
    if immediate:
        return True
    if last or row[LASTW] == winner:
        row[LASTW] = -1 if streak_resets else winner
        return True
    row[LASTW] = winner
    return False


@inline
def staged_deal_due(row: Array, played: int, limit: int) -> bool:
    """After ``played`` tricks, are the rest of a staged deal's cards handed out now (``tricks.staged_deal_due``)?"""
    return bool(row[STAGED] and (row[TRUMP] >= 0 or played == limit))


@inline
def deal_rest(row: Array, n: int) -> None:
    """Hand out every card still to be dealt (trump called, or a staged deal completed)."""
    for seat in range(n):
        row[H0 + seat] |= row[PN0 + seat]
        row[PN0 + seat] = 0


@inline
def complete_staged_deal(row: Array, n: int, played: int, limit: int) -> None:
    """After ``played`` tricks, hand out the rest of a staged deal if it is due (and close the cut)."""
    if staged_deal_due(row, played, limit):
        row[STAGED] = 0
        row[CUT_OPEN] = 0
        deal_rest(row, n)


@inline
def next_trick(row: Array, reveal: int, chooser: int, winner: int) -> int:
    """The trick's winner leads the next one (trump counts from its first card once there is one).
    Returns the band-hukum card if it was turned up now (a chooser with nothing else), else -1."""
    row[LEADER] = winner
    row[TLEN] = 0
    row[TFROM] = 0 if row[TRUMP] >= 0 else NONE_YET
    return begin_turn(row, reveal, chooser, winner)
