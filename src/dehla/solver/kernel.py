"""The compiled search kernel: a bound query ("can team 0 reach at least T?") by alpha-beta.

Everything here is numba ``njit`` code over plain int64 arrays, compiled once
and cached on disk (``cache=True``).  It mirrors ``dehla.engine.state.Match``
rule for rule (following suit, cut trump, staged deals, band hukum with asked
or automatic reveal, the centre with two in a row and the last-trick sweep,
immediate collection, Taash's early end); ``tests/test_solver_exact.py``
checks it against plain minimax over the engine.

A position is one row of ``X`` (layout below); ``X[ply + 1]`` is the position
after one more action (copy-make, so nothing needs undoing).  ``P`` holds the
fixed parameters of a solve.  Values are ``s`` numbers (see
``dehla.solver.objective``): in relative mode ``s = t0 * W + k0 * uses_tricks``
of the final captures and the transposition table stores bounds on the part of
``s`` still to come; in absolute mode ``s`` is the final level and the table
keys include the captures.

Techniques: a transposition table at trick boundaries keyed by the relative
ranks of the live cards (positions that differ only in cards already played
share an entry), one card per group of equivalent cards (same holder, adjacent
among live cards of the suit, neither a ten), move ordering (table move first,
then cheap card-play rules), and bounds from sure wins (the tens a team has
already banked, the tens and tricks still open).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

__all__ = [
    "ROW",
    "MAXPLY",
    "NPARAMS",
    "query",
    "solve_position",
    "new_work",
    "apply_action",
    "legal_mask",
    "new_table",
]

F = TypeVar("F", bound=Callable[..., Any])


def _jit(function: F) -> F:
    """``numba.njit`` with the on-disk cache, typed for mypy."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


Array = npt.NDArray[np.int64]

# Row layout -------------------------------------------------------------------------------
TO_ACT = 0
LEADER = 1
LED = 2
TLEN = 3
TRUMP = 4
TFROM = 5
CUT_OPEN = 6
STAGED = 7
HIDDEN = 8
MUST_TRUMP = 9
FREE_PLAY = 10
CTENS = 11
LASTW = 12
T0 = 13
T1 = 14
K0 = 15
K1 = 16
NPLAYED = 17
DONE = 18
LIVE = 19  # every card not yet out of play: hands, still to be dealt, hidden, in the trick
H0 = 20  # hands[0..7]
PN0 = 28  # pending[0..7]
C0 = 36  # trick cards[0..7]
ROW = 44
MAXPLY = 128
NOT_YET = 99

# Parameters ---------------------------------------------------------------------------------
P_N = 0
P_TRICKS = 1
P_IMMEDIATE = 2
P_STREAK_RESETS = 3
P_REVEAL = 4  # 0: no hidden trump, 1: asked for, 2: automatic
P_CHOOSER = 5
P_ABS = 6
P_W = 7
P_USES_TRICKS = 8
P_EARLY_END = 9
P_STAGED_LIMIT = 10
P_HB = 11  # bits per holder code in table keys
P_GEN = 12
P_TTMASK = 13
NPARAMS = 16

REVEAL_MOVE = 52
KEYW = 5

# Per-ply work row of the explicit search stack.
W_MOVES = 0  # 16 candidate moves
W_COUNT = 16
W_NEXT = 17
W_BEST = 18
W_MAX = 19
W_BOUNDARY = 20
W_BOUND = 21
W_ENTRY = 22
W_SLOT = 23
W_KEY = 24  # KEYW words
W_SCORES = 32  # 16 move-ordering scores
W_SIZE = 48
TENS = (1 << 8) | (1 << 21) | (1 << 34) | (1 << 47)
SUIT = 0x1FFF


@_jit
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@_jit
def legal_mask(row: Array) -> int:
    """The cards the seat to act may play (the engine's ``_legal_mask``)."""
    seat = row[TO_ACT]
    hand = row[H0 + seat]
    if row[TLEN] == 0 or row[FREE_PLAY]:
        return hand
    led = row[LED]
    follow = hand & (SUIT << (13 * led))
    if follow:
        return follow
    if row[MUST_TRUMP] and row[TRUMP] >= 0:
        trumps = hand & (SUIT << (13 * row[TRUMP]))
        if trumps:
            return trumps
    return hand


@_jit
def _can_reveal(row: Array, params: Array) -> bool:
    if params[P_REVEAL] != 1 or row[HIDDEN] < 0 or row[TLEN] == 0:
        return False
    hand = row[H0 + row[TO_ACT]]
    return (hand & (SUIT << (13 * row[LED]))) == 0


@_jit
def _turn_up(row: Array, params: Array) -> None:
    card = row[HIDDEN]
    row[HIDDEN] = -1
    chooser = params[P_CHOOSER]
    row[H0 + chooser] |= 1 << card
    row[TRUMP] = card // 13
    row[TFROM] = row[TLEN]


@_jit
def _begin_turn(row: Array, params: Array, seat: int) -> None:
    row[TO_ACT] = seat
    row[MUST_TRUMP] = 0
    row[FREE_PLAY] = 0
    if row[HIDDEN] >= 0:
        if seat == params[P_CHOOSER] and row[H0 + seat] == 0:
            _turn_up(row, params)
        elif params[P_REVEAL] == 2 and row[TLEN] > 0 and (row[H0 + seat] & (SUIT << (13 * row[LED]))) == 0:
            _turn_up(row, params)
            row[FREE_PLAY] = 1


@_jit
def _trick_winner_index(row: Array, count: int) -> int:
    """Index in the trick of the card winning it so far (the engine's ``_end_trick`` rule)."""
    led = row[LED]
    trump = row[TRUMP]
    best_index = -1
    best = -1
    if trump >= 0 and trump != led:
        for index in range(row[TFROM], count):
            card = row[C0 + index]
            if card // 13 == trump and card > best:
                best = card
                best_index = index
    if best_index < 0:
        best = -1
        for index in range(count):
            card = row[C0 + index]
            if card // 13 == led and card > best:
                best = card
                best_index = index
    return best_index


@_jit
def _end_trick(row: Array, params: Array, final: Array) -> None:
    n = params[P_N]
    winner = (row[LEADER] + _trick_winner_index(row, n)) % n
    team = winner % 2
    row[K0 + team] += 1
    played = row[NPLAYED] + 1
    row[NPLAYED] = played
    last = played == params[P_TRICKS]
    tens = 0
    for index in range(n):
        if row[C0 + index] % 13 == 8:
            tens += 1
    if params[P_IMMEDIATE]:
        row[T0 + team] += tens
    else:
        row[CTENS] += tens
        if last or row[LASTW] == winner:
            row[T0 + team] += row[CTENS]
            row[CTENS] = 0
            row[LASTW] = -1 if params[P_STREAK_RESETS] else winner
        else:
            row[LASTW] = winner
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
    if row[STAGED] and (row[TRUMP] >= 0 or played == params[P_STAGED_LIMIT]):
        row[STAGED] = 0
        row[CUT_OPEN] = 0
        for seat in range(n):
            row[H0 + seat] |= row[PN0 + seat]
            row[PN0 + seat] = 0
    row[LEADER] = winner
    row[TFROM] = 0 if row[TRUMP] >= 0 else NOT_YET
    _begin_turn(row, params, winner)


@_jit
def apply_action(row: Array, params: Array, final: Array, move: int) -> None:
    """Play a card (0..51) or ask for the reveal (``REVEAL_MOVE``) in ``row``, in place."""
    if move == REVEAL_MOVE:
        _turn_up(row, params)
        row[MUST_TRUMP] = 1
        return
    n = params[P_N]
    seat = row[TO_ACT]
    hand = row[H0 + seat]
    row[H0 + seat] = hand ^ (1 << move)
    tlen = row[TLEN]
    if tlen == 0:
        row[LED] = move // 13
    elif row[CUT_OPEN] and (hand & (SUIT << (13 * row[LED]))) == 0:
        row[CUT_OPEN] = 0
        row[TRUMP] = move // 13
        row[TFROM] = tlen
    row[C0 + tlen] = move
    tlen += 1
    row[TLEN] = tlen
    if tlen == n:
        _end_trick(row, params, final)
        return
    following = seat + 1 if seat + 1 < n else 0
    if row[MUST_TRUMP] or row[FREE_PLAY] or row[HIDDEN] >= 0:
        _begin_turn(row, params, following)
    else:
        row[TO_ACT] = following


@_jit
def _live(row: Array, params: Array) -> int:
    """Every card still to be played, or in the trick in progress."""
    return row[LIVE]


@_jit
def _holder(row: Array, params: Array, bit: int) -> int:
    n = params[P_N]
    for seat in range(n):
        if row[H0 + seat] & bit:
            return seat
    for seat in range(n):
        if row[PN0 + seat] & bit:
            return n + seat
    return n + params[P_CHOOSER]  # the hidden card


@_jit
def _make_key(row: Array, params: Array, key: Array) -> None:
    """The table key of a trick-boundary position: each suit's live cards as relative ranks."""
    hb = params[P_HB]
    live = _live(row, params)
    for suit in range(4):
        word = 0
        count = 0
        ten_at = 0
        cards = (live >> (13 * suit)) & SUIT
        for rank in range(12, -1, -1):
            if cards >> rank & 1:
                count += 1
                word = (word << hb) | _holder(row, params, 1 << (13 * suit + rank))
                if rank == 8:
                    ten_at = count
        key[suit] = word | (ten_at << 52) | (count << 56)
    misc = (
        row[LEADER]
        | ((row[TRUMP] + 1) << 4)
        | (row[CUT_OPEN] << 7)
        | (row[STAGED] << 8)
        | ((1 if row[HIDDEN] >= 0 else 0) << 9)
        | ((row[LASTW] + 1) << 10)
        | (row[CTENS] << 14)
    )
    if params[P_ABS]:
        misc |= (row[T0] << 17) | (row[T1] << 20) | (row[K0] << 23) | (row[DONE] + 1) << 28
    key[4] = misc


@_jit
def _hash(key: Array) -> int:
    h = 0x12345
    for index in range(KEYW):
        h = (h ^ key[index]) * 0x100000001B3
        h ^= h >> 29
    return h


@_jit
def new_table(bits: int) -> tuple[Array, Array]:
    """An empty transposition table of ``2**bits`` entries (keys, packed data)."""
    size = 1 << bits
    keys = np.zeros((size, KEYW), dtype=np.int64)
    data = np.zeros(size, dtype=np.int64)
    return keys, data


# Packed table data: lo (8 bits) | hi (8) | best move (8) | depth (8) | generation (32).
@_jit
def _probe(keys: Array, data: Array, params: Array, key: Array, slot_out: Array) -> int:
    mask = params[P_TTMASK]
    gen = params[P_GEN]
    base = (_hash(key) & mask) & ~1
    for slot in range(base, base + 2):
        entry = data[slot]
        if entry >> 32 != gen:
            continue
        same = True
        for index in range(KEYW):
            if keys[slot, index] != key[index]:
                same = False
                break
        if same:
            slot_out[0] = slot
            return entry
    slot_out[0] = -1
    return -1


@_jit
def _store(
    keys: Array, data: Array, params: Array, key: Array, found_slot: int, lo: int, hi: int, best: int, depth: int
) -> None:
    gen = params[P_GEN]
    packed = lo | (hi << 8) | (best << 16) | (depth << 24) | (gen << 32)
    if found_slot >= 0:
        data[found_slot] = packed
        return
    mask = params[P_TTMASK]
    base = (_hash(key) & mask) & ~1
    # Slot 0 keeps the deeper entry; slot 1 takes whatever is newest.
    first = data[base]
    if first >> 32 != gen or ((first >> 24) & 0xFF) <= depth:
        slot = base
        if first >> 32 == gen:
            data[base + 1] = first
            for index in range(KEYW):
                keys[base + 1, index] = keys[base, index]
    else:
        slot = base + 1
    data[slot] = packed
    for index in range(KEYW):
        keys[slot, index] = key[index]


@_jit
def _s_now(row: Array, params: Array) -> int:
    if params[P_ABS]:
        return 0
    s = row[T0] * params[P_W]
    if params[P_USES_TRICKS]:
        s += row[K0]
    return s


@_jit
def _winning_now(row: Array, params: Array) -> int:
    """Seat winning the trick in progress so far."""
    return (row[LEADER] + _trick_winner_index(row, row[TLEN])) % params[P_N]


@_jit
def _beats(row: Array, card: int, best: int, void: bool) -> bool:
    """Would ``card`` beat the trick's current best card ``best``?"""
    trump = row[TRUMP]
    suit = card // 13
    best_suit = best // 13
    if trump < 0 and row[CUT_OPEN] and void:
        return True  # the first cut sets trump and wins unless overtrumped
    if trump >= 0 and suit == trump and trump != row[LED]:
        if best_suit != trump:
            return True
        return card > best
    return suit == best_suit and card > best


@_jit
def _moves(row: Array, params: Array, moves: Array, scores: Array, best_hint: int) -> int:
    """Candidate moves (one per group of equivalent cards), best first; returns how many."""
    seat = row[TO_ACT]
    legal = legal_mask(row)
    live = _live(row, params)
    n = params[P_N]
    count = 0
    tlen = row[TLEN]
    team = seat % 2
    partner_winning = False
    best_card = -1
    last = tlen == n - 1
    trick_tens = 0
    void = False
    if tlen > 0:
        winner = _winning_now(row, params)
        partner_winning = winner % 2 == team
        best_card = row[C0 + (winner - row[LEADER]) % n]
        for index in range(tlen):
            if row[C0 + index] % 13 == 8:
                trick_tens += 1
        void = (row[H0 + seat] & (SUIT << (13 * row[LED]))) == 0
    stake = trick_tens + (row[CTENS] if not params[P_IMMEDIATE] else 0)
    for suit in range(4):
        mine = (legal >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        others = (live >> (13 * suit)) & SUIT
        in_run = False
        for rank in range(12, -1, -1):
            if not (others >> rank & 1):
                continue
            if mine >> rank & 1:
                if rank == 8:
                    in_run = False
                elif in_run:
                    continue
                else:
                    in_run = True
                card = 13 * suit + rank
                # Move ordering score.
                score = 0
                if card == best_hint:
                    score = 1 << 20
                elif tlen == 0:
                    top = True
                    for higher in range(rank + 1, 13):
                        if (others >> higher & 1) and not (mine >> higher & 1):
                            top = False
                            break
                    if top and rank != 8:
                        score = 300 + rank
                    elif rank == 8:
                        score = -200 if not top else 400
                    else:
                        score = 100 - rank
                    if row[TRUMP] == suit:
                        score -= 50
                else:
                    wins = _beats(row, card, best_card, void)
                    if partner_winning:
                        if rank == 8:
                            score = 500 if last else 50
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
                moves[count] = card
                scores[count] = score
                count += 1
            else:
                in_run = False
    if _can_reveal(row, params):
        moves[count] = REVEAL_MOVE
        scores[count] = 0
        count += 1
    # Insertion sort by score, highest first.
    for i in range(1, count):
        move = moves[i]
        score = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < score:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = move
        scores[j + 1] = score
    return count


@_jit
def _encode_best(row: Array, params: Array, card: int) -> int:
    if card == REVEAL_MOVE or card < 0:
        return 255
    suit = card // 13
    live = (_live(row, params) >> (13 * suit)) & SUIT
    index = 0
    for rank in range(12, card % 13, -1):
        if live >> rank & 1:
            index += 1
    return suit * 16 + index


@_jit
def _decode_best(row: Array, params: Array, code: int) -> int:
    if code == 255:
        return -1
    suit = code // 16
    index = code % 16
    live = (_live(row, params) >> (13 * suit)) & SUIT
    for rank in range(12, -1, -1):
        if live >> rank & 1:
            if index == 0:
                return 13 * suit + rank
            index -= 1
    return -1


@_jit
def _open_tens(row: Array, params: Array) -> int:
    """Tens not yet banked by either team (in hands, still to be dealt, hidden, in the trick or the centre)."""
    return _popcount(_live(row, params) & TENS) + row[CTENS]


@_jit
def _enter(
    X: Array, ply: int, params: Array, final: Array, keys: Array, data: Array, work: Array, stats: Array, target: int
) -> int:
    """Open the node at ``ply``: 1 or 0 if its answer is already known, else -1 (its moves are then ready)."""
    row = X[ply]
    wrow = work[ply]
    wrow[W_BOUNDARY] = 0
    wrow[W_ENTRY] = -1
    best_hint = -1
    absolute = params[P_ABS]
    if row[TLEN] == 0:
        if absolute:
            if row[DONE] >= 0:
                return 1 if row[DONE] >= target else 0
            if row[NPLAYED] == params[P_TRICKS]:
                return 1 if final[row[T0], row[T1], row[K0], row[K1], 2] >= target else 0
            if final[row[T0], row[T1], row[K0], row[K1], 0] >= target:
                return 1
            if final[row[T0], row[T1], row[K0], row[K1], 1] < target:
                return 0
            bound = target
        else:
            need = target - _s_now(row, params)
            if need <= 0:
                return 1
            left = params[P_TRICKS] - row[NPLAYED]
            most = _open_tens(row, params) * params[P_W]
            if params[P_USES_TRICKS]:
                most += left
            if most < need:
                return 0
            bound = need
        stats[1] += 1
        stats[16 + row[NPLAYED]] += 1
        wrow[W_BOUNDARY] = 1
        wrow[W_BOUND] = bound
        key = wrow[W_KEY : W_KEY + KEYW]
        _make_key(row, params, key)
        slot = wrow[W_SLOT : W_SLOT + 1]
        entry = _probe(keys, data, params, key, slot)
        wrow[W_ENTRY] = entry
        if entry >= 0:
            if (entry & 0xFF) >= bound:
                stats[2] += 1
                return 1
            if ((entry >> 8) & 0xFF) < bound:
                stats[2] += 1
                return 0
            best_hint = _decode_best(row, params, (entry >> 16) & 0xFF)
    wrow[W_COUNT] = _moves(row, params, wrow[W_MOVES : W_MOVES + 16], wrow[W_SCORES : W_SCORES + 16], best_hint)
    wrow[W_NEXT] = 0
    wrow[W_BEST] = -1
    wrow[W_MAX] = 1 if row[TO_ACT] % 2 == 0 else 0
    return -1


@_jit
def _close(X: Array, ply: int, params: Array, keys: Array, data: Array, work: Array, result: int) -> None:
    """Record a finished node's answer in the table (trick boundaries only)."""
    wrow = work[ply]
    if not wrow[W_BOUNDARY]:
        return
    row = X[ply]
    entry = wrow[W_ENTRY]
    if entry >= 0:
        lo = entry & 0xFF
        hi = (entry >> 8) & 0xFF
        old_best = (entry >> 16) & 0xFF
    else:
        lo = 0
        hi = 255
        old_best = 255
    bound = wrow[W_BOUND]
    if result:
        if bound > lo:
            lo = bound
    elif bound - 1 < hi:
        hi = bound - 1
    best = wrow[W_BEST]
    code = _encode_best(row, params, best) if best >= 0 else old_best
    depth = _popcount(_live(row, params))
    _store(keys, data, params, wrow[W_KEY : W_KEY + KEYW], wrow[W_SLOT], lo, hi, code, depth)


@_jit
def _query(
    X: Array, root: int, params: Array, final: Array, keys: Array, data: Array, stats: Array, work: Array, target: int
) -> bool:
    """Can team 0 make the final ``s`` at least ``target`` from ``X[root]``, against best defence?

    Alpha-beta on a boolean question, written as a loop over an explicit stack
    (numba cannot cache recursive functions).
    """
    ply = root
    stats[0] += 1
    answer = _enter(X, ply, params, final, keys, data, work, stats, target)
    while True:
        if answer < 0:
            # Expand the next move of the node at ply, or finish it.
            wrow = work[ply]
            index = wrow[W_NEXT]
            if index == wrow[W_COUNT]:
                answer = 1 - wrow[W_MAX]
                _close(X, ply, params, keys, data, work, answer)
            else:
                wrow[W_NEXT] = index + 1
                move = wrow[W_MOVES + index]
                row = X[ply]
                child = X[ply + 1]
                for field in range(ROW):
                    child[field] = row[field]
                apply_action(child, params, final, move)
                ply += 1
                stats[0] += 1
                answer = _enter(X, ply, params, final, keys, data, work, stats, target)
                continue
        # The node at ply is answered: hand the answer to its parent.
        if ply == root:
            return answer == 1
        ply -= 1
        wrow = work[ply]
        if answer == wrow[W_MAX]:
            stats[8 + wrow[W_NEXT] - 1] += 1
            wrow[W_BEST] = wrow[W_MOVES + wrow[W_NEXT] - 1]
            _close(X, ply, params, keys, data, work, answer)
        else:
            answer = -1


@_jit
def query(
    X: Array, params: Array, final: Array, keys: Array, data: Array, stats: Array, work: Array, target: int
) -> bool:
    """The bound query for ``X[0]``: can team 0 make the final ``s`` at least ``target``?"""
    return _query(X, 0, params, final, keys, data, stats, work, target)


@_jit
def _level(
    X: Array,
    root: int,
    params: Array,
    final: Array,
    thresholds: Array,
    keys: Array,
    data: Array,
    stats: Array,
    work: Array,
    low: int,
    high: int,
    first: int,
) -> int:
    """The level of ``X[root]``, known to lie in ``low..high``; ``first`` is the first probe (or -1)."""
    probe = first
    while low < high:
        if not low < probe <= high:
            probe = (low + high + 1) // 2
        if _query(X, root, params, final, keys, data, stats, work, thresholds[probe]):
            low = probe
        else:
            high = probe - 1
        probe = -1
    return low


@_jit
def solve_position(
    X: Array,
    params: Array,
    final: Array,
    thresholds: Array,
    keys: Array,
    data: Array,
    stats: Array,
    work: Array,
    guess: int,
    out: Array,
) -> None:
    """The level of ``X[0]`` in ``out[0]`` and the level after each legal move in ``out[1 + move]``.

    ``thresholds[k]`` is the target of the query "level at least k"; levels run
    ``0 .. len(thresholds) - 1``.  Moves: cards 0..51 and ``REVEAL_MOVE``; ``-1`` marks
    moves that are not legal.  Equivalent cards get their group's value.
    """
    top = len(thresholds) - 1
    root_level = _level(X, 0, params, final, thresholds, keys, data, stats, work, 0, top, guess)
    out[0] = root_level
    for move in range(53):
        out[1 + move] = -1
    row = X[0]
    maximise = row[TO_ACT] % 2 == 0
    count = _moves(row, params, work[0, W_MOVES : W_MOVES + 16], work[0, W_SCORES : W_SCORES + 16], -1)
    candidates = work[0, W_MOVES : W_MOVES + 16].copy()
    child = X[1]
    for index in range(count):
        move = candidates[index]
        for field in range(ROW):
            child[field] = row[field]
        apply_action(child, params, final, move)
        if maximise:
            if _query(X, 1, params, final, keys, data, stats, work, thresholds[root_level]):
                level = root_level
            else:
                level = _level(X, 1, params, final, thresholds, keys, data, stats, work, 0, root_level - 1, -1)
        elif root_level == top or not _query(X, 1, params, final, keys, data, stats, work, thresholds[root_level + 1]):
            level = root_level
        else:
            level = _level(X, 1, params, final, thresholds, keys, data, stats, work, root_level + 1, top, -1)
        out[1 + move] = level
    # Spread each group's value over the equivalent cards it stands for.
    legal = legal_mask(row)
    live = row[LIVE]
    for suit in range(4):
        mine = (legal >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        others = (live >> (13 * suit)) & SUIT
        current = -1
        for rank in range(12, -1, -1):
            if not (others >> rank & 1):
                continue
            card = 13 * suit + rank
            if mine >> rank & 1:
                if rank == 8:
                    current = -1
                elif current >= 0:
                    out[1 + card] = out[1 + current]
                else:
                    current = card
            else:
                current = -1


@_jit
def new_work() -> Array:
    """The search stack of one solver."""
    return np.zeros((MAXPLY, W_SIZE), dtype=np.int64)
