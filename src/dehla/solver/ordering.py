"""The solver's move ordering: one card per group of equivalent cards, best first.

A group is a run of the player's own cards adjacent among the live cards not in the trick, with the same
effect on the trick so far, never a ten with another card.  Order: the table's move first; at a lead the
last refuting lead at that depth, then a history of refuting cards, then card-play rules; when following,
card-play rules, then the history; third hand throws a ten on the partner's card when the last seat cannot
beat it.
"""

from __future__ import annotations

from dehla.kernel.jit import jit
from dehla.kernel.layout import (
    C0,
    CTENS,
    CUT_OPEN,
    H0,
    HIDDEN,
    LEADER,
    LED,
    LIVE,
    P_IMMEDIATE,
    P_N,
    P_REVEAL,
    SUIT,
    TLEN,
    TO_ACT,
    TRUMP,
    Array,
)
from dehla.kernel.rules import can_ask_reveal, rank_at, rank_if_played
from dehla.solver.layout import HIST, REVEAL_MOVE, W_MOVES, W_SCORES
from dehla.solver.position import legal_mask, live_cards, trick_winner_index

_jit = jit


@_jit
def _winning_now(row: Array, params: Array) -> int:
    """Seat winning the trick in progress so far."""
    return int((row[LEADER] + trick_winner_index(row, row[TLEN])) % params[P_N])


@_jit
def _trick_cards(row: Array) -> int:
    """The cards of the trick in progress."""
    cards = 0
    for index in range(row[TLEN]):
        cards |= 1 << row[C0 + index]
    return cards


@_jit
def _grouping_context(row: Array) -> tuple[int, int, int, int]:
    """What the grouping of equivalent cards reads from a position: the legal cards, the cards still to come
    (live, not in the trick), the trick's length and the rank of its best card so far (``card_rank``; -1 at
    a lead)."""
    tlen = row[TLEN]
    best_rank = -1
    if tlen > 0:
        best_rank = rank_at(row, trick_winner_index(row, tlen))
    return legal_mask(row), int(row[LIVE] & ~_trick_cards(row)), int(tlen), int(best_rank)


@_jit
def _group_firsts(row: Array, mine: int, still: int, suit: int, tlen: int, best_rank: int) -> tuple[int, int]:
    """The cards of one suit that stand for their groups of equivalent cards, and which of those beat the trick.

    A group is a run of the player's own cards adjacent among the cards still to come, that all beat the
    trick's best card (rank ``best_rank``, compared by the core's ``rank_if_played``) or all do not; a ten
    is always a group of its own.  ``mine`` and ``still`` are the suit's 13-bit masks (the player's legal
    cards, the cards not yet played).  ``moves`` plays the first card of each group and ``group_floors``
    pins the rest: both read the grouping from here.
    """
    firsts = 0
    winners = 0
    in_run = False
    run_wins = False
    for rank in range(12, -1, -1):
        if not (still >> rank & 1):
            continue
        if not (mine >> rank & 1):
            in_run = False
            continue
        wins = tlen > 0 and rank_if_played(row, 13 * suit + rank) > best_rank
        if rank == 8:
            in_run = False
        elif in_run and wins == run_wins:
            continue
        else:
            in_run = True
            run_wins = wins
        firsts |= 1 << rank
        if wins:
            winners |= 1 << rank
    return firsts, winners


@_jit
def group_floors(row: Array, params: Array, rel: int) -> int:
    """The cards ``moves`` left out because an equivalent card above stood for them (its grouping), in the
    groups whose first card lies among the relevant ones (``rel`` and every card above them in its suit).

    Below the relevant cards any card of a holder stands for any other, grouped or not; among them,
    a position that differs only in low cards may split the group, so the group's cards become relevant.
    """
    legal, future, tlen, best_rank = _grouping_context(row)
    floors = 0
    for suit in range(4):
        mine = (legal >> (13 * suit)) & SUIT
        relevant = (rel >> (13 * suit)) & SUIT
        if mine == 0 or relevant == 0:
            continue
        floor = 0
        while not (relevant >> floor) & 1:
            floor += 1
        still = (future >> (13 * suit)) & SUIT
        firsts, _ = _group_firsts(row, mine, still, suit, tlen, best_rank)
        run_pinned = False
        for rank in range(12, -1, -1):
            if not (still >> rank & 1) or not (mine >> rank & 1):
                continue
            if firsts >> rank & 1:
                run_pinned = rank >= floor
            elif run_pinned:
                floors |= 1 << (13 * suit + rank)
                floor = min(floor, rank)
    return floors


@_jit
def moves(row: Array, params: Array, work: Array, ply: int, best_hint: int, killer: int, history: Array) -> int:
    """Candidate moves (one per group of equivalent cards), best first, in ``work[ply, W_MOVES:]``; returns how many."""
    seat = row[TO_ACT]
    legal = legal_mask(row)
    live = live_cards(row, params)
    n = params[P_N]
    count = 0
    tlen = row[TLEN]
    team = seat % 2
    partner_winning = False
    best_card = -1
    best_rank = -1
    ten_safe = tlen == n - 1  # a ten thrown on the partner's winning card stays with the team
    trick_tens = 0
    if tlen > 0:
        winner = _winning_now(row, params)
        partner_winning = winner % 2 == team
        best_index = (winner - row[LEADER]) % n
        best_card = row[C0 + best_index]
        best_rank = rank_at(row, best_index)
        for index in range(tlen):
            if row[C0 + index] % 13 == 8:
                trick_tens += 1
    stake = trick_tens + (row[CTENS] if not params[P_IMMEDIATE] else 0)
    if partner_winning and tlen == n - 2 and row[HIDDEN] < 0 and row[CUT_OPEN] == 0:
        # Third hand with the partner winning: a ten thrown now is as safe as last hand's if the last
        # seat cannot beat the partner's card.
        last_hand = row[H0 + (seat + 1) % n]
        led = row[LED]
        trump = row[TRUMP]
        follows = (last_hand >> (13 * led)) & SUIT
        best_suit = best_card // 13
        if best_suit == led:
            beaten = (follows >> (best_card % 13 + 1)) != 0
            if not follows and trump >= 0 and trump != led and (last_hand >> (13 * trump)) & SUIT:
                beaten = True
        else:
            beaten = not follows and ((last_hand >> (13 * trump)) & SUIT) >> (best_card % 13 + 1) != 0
        ten_safe = not beaten
    future = live & ~_trick_cards(row)
    for suit in range(4):
        mine = (legal >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        others = (live >> (13 * suit)) & SUIT
        still = (future >> (13 * suit)) & SUIT
        firsts, winners = _group_firsts(row, mine, still, suit, tlen, best_rank)
        for rank in range(12, -1, -1):
            if firsts >> rank & 1:
                card = 13 * suit + rank
                wins = (winners >> rank & 1) != 0
                # Move ordering score.
                score = 0
                if card == best_hint:
                    score = 1 << 40
                elif card == killer and tlen == 0:
                    score = 1 << 39
                elif tlen == 0:
                    top = ((others & ~mine) >> (rank + 1)) == 0
                    if top and rank != 8:
                        score = 300 + rank
                    elif rank == 8:
                        score = -200 if not top else 400
                    else:
                        score = 100 - rank
                    if row[TRUMP] == suit:
                        score -= 50
                    score += (min(history[HIST + 53 * seat + card], 1 << 24) << 12) + 2048
                else:
                    if partner_winning:
                        if rank == 8:
                            score = 500 if ten_safe else 50
                        else:
                            score = 200 - rank
                    elif wins:
                        score = 400 - rank + 50 * stake
                        if rank == 8:
                            score += 100
                    else:
                        score = 100 - rank
                        if rank == 8:
                            score = -300
                    score = (score + 1024) * (1 << 24) + min(history[HIST + 53 * seat + card], (1 << 24) - 1)
                work[ply, W_MOVES + count] = card
                work[ply, W_SCORES + count] = score
                count += 1
    if can_ask_reveal(row, params[P_REVEAL]):
        work[ply, W_MOVES + count] = REVEAL_MOVE
        work[ply, W_SCORES + count] = 0
        count += 1
    # Insertion sort by score, highest first.
    for i in range(1, count):
        move = work[ply, W_MOVES + i]
        score = work[ply, W_SCORES + i]
        j = i - 1
        while j >= 0 and work[ply, W_SCORES + j] < score:
            work[ply, W_MOVES + j + 1] = work[ply, W_MOVES + j]
            work[ply, W_SCORES + j + 1] = work[ply, W_SCORES + j]
            j -= 1
        work[ply, W_MOVES + j + 1] = move
        work[ply, W_SCORES + j + 1] = score
    return count


@_jit
def group_heads(row: Array, head: Array) -> None:
    """``head[card]``: for each legal card, the card whose search stands for it (the highest card of its group
    of equivalent cards, as ``moves`` groups them, or itself); -1 for the others."""
    for card in range(52):
        head[card] = -1
    legal, future, tlen, best_rank = _grouping_context(row)
    for suit in range(4):
        mine = (legal >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        still = (future >> (13 * suit)) & SUIT
        firsts, _ = _group_firsts(row, mine, still, suit, tlen, best_rank)
        current = -1
        for rank in range(12, -1, -1):
            if still >> rank & 1 and mine >> rank & 1:
                if firsts >> rank & 1:
                    current = 13 * suit + rank
                head[13 * suit + rank] = current
