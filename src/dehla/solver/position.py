"""The solver's position: the rules of a trick (``dehla.kernel.rules``) with the solver's accounting.

A row counts the tens each team has collected and the centre's (``T0``, ``T1``, ``CTENS``), keeps the live
cards (``LIVE``) for the table keys and the card that won the last trick by rank (``RELWIN``) for partition
search, and stops at Taash's early end (``DONE``).  ``s`` is the part of the objective a row has banked.
"""

from __future__ import annotations

from dehla.kernel.jit import jit
from dehla.kernel.layout import (
    C0,
    CTENS,
    DONE,
    K0,
    K1,
    LEADER,
    LED,
    LIVE,
    MUST_TRUMP,
    NPLAYED,
    P_ABS,
    P_CHOOSER,
    P_EARLY_END,
    P_IMMEDIATE,
    P_N,
    P_REVEAL,
    P_STAGED_LIMIT,
    P_STREAK_RESETS,
    P_TRICKS,
    P_USES_TRICKS,
    P_W,
    RELWIN,
    T0,
    T1,
    TFROM,
    TLEN,
    TO_ACT,
    TRUMP,
    Array,
)
from dehla.kernel.rules import collects, complete_staged_deal, next_trick, pass_turn, play_card, trick_winner, turn_up
from dehla.kernel.rules import legal_cards as _legal_cards
from dehla.solver.layout import REVEAL_MOVE

_jit = jit


@_jit
def legal_mask(row: Array) -> int:
    """The cards the seat to act may play (``tricks.legal_cards``)."""
    return _legal_cards(row)


@_jit
def trick_winner_index(row: Array, count: int) -> int:
    """Index in the trick of the card winning it so far (``tricks.trick_winner``)."""
    return trick_winner(row, count)


@_jit
def _rank_winner(row: Array, index: int, count: int) -> int:
    """The trick's winning card if it won by rank (it beat another card of its own kind), else -1."""
    card = row[C0 + index]
    suit = card // 13
    trump = row[TRUMP]
    as_trump = trump >= 0 and trump != row[LED] and suit == trump and index >= row[TFROM]
    for other in range(count):
        if other == index:
            continue
        rival = row[C0 + other]
        if rival // 13 == suit and (not as_trump or other >= row[TFROM]):
            return int(card)
    return -1


@_jit
def _end_trick(row: Array, params: Array, final: Array) -> None:
    """A trick is complete: its winner, the tens it moves (to a team or the centre), the hand's end, the
    staged deal, the next trick."""
    n = params[P_N]
    best_index = trick_winner(row, n)
    row[RELWIN] = _rank_winner(row, best_index, n)
    winner = (row[LEADER] + best_index) % n
    team = winner % 2
    row[K0 + team] += 1
    played = row[NPLAYED] + 1
    row[NPLAYED] = played
    last = played == params[P_TRICKS]
    tens = 0
    for index in range(n):
        if row[C0 + index] % 13 == 8:
            tens += 1
    row[CTENS] += tens
    if collects(row, params[P_IMMEDIATE], params[P_STREAK_RESETS], winner, last):
        row[T0 + team] += row[CTENS]
        row[CTENS] = 0
    row[TLEN] = 0
    for index in range(n):
        row[LIVE] &= ~(1 << row[C0 + index])
    if last:
        return
    if params[P_ABS] and params[P_EARLY_END]:
        settled = final[row[T0], row[T1], row[K0], row[K1], 2]
        if settled >= 0:
            row[DONE] = settled
            return
    complete_staged_deal(row, n, played, params[P_STAGED_LIMIT])
    next_trick(row, params[P_REVEAL], params[P_CHOOSER], winner)


@_jit
def apply_action(row: Array, params: Array, final: Array, move: int) -> None:
    """Play a card (0..51) or ask for the reveal (``REVEAL_MOVE``) in ``row``, in place."""
    row[RELWIN] = -1
    if move == REVEAL_MOVE:
        turn_up(row, params[P_CHOOSER])
        row[MUST_TRUMP] = 1
        return
    n = params[P_N]
    seat = row[TO_ACT]
    tlen = play_card(row, move)
    if tlen == n:
        _end_trick(row, params, final)
        return
    pass_turn(row, params[P_REVEAL], params[P_CHOOSER], seat + 1 if seat + 1 < n else 0)


@_jit
def live_cards(row: Array, params: Array) -> int:
    """Every card still to be played, or in the trick in progress."""
    return int(row[LIVE])


@_jit
def s_now(row: Array, params: Array) -> int:
    if params[P_ABS]:
        return 0
    s = row[T0] * params[P_W]
    if params[P_USES_TRICKS]:
        s += row[K0]
    return int(s)


@_jit
def s_at(X: Array, ply: int, params: Array) -> int:
    """``s_now`` of ``X[ply]``, read without a row view."""
    if params[P_ABS]:
        return 0
    s = X[ply, T0] * params[P_W]
    if params[P_USES_TRICKS]:
        s += X[ply, K0]
    return int(s)
