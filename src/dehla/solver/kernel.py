"""The compiled search kernel: a bound query ("can team 0 reach at least T?") by alpha-beta.

Everything here is numba ``njit`` code over plain int64 arrays, compiled once
and cached on disk (``cache=True``).  It plays the rules of the compiled core
``dehla.kernel.rules`` (following suit, cut trump, staged deals, band hukum
with asked or automatic reveal, the centre with two in a row and the last-trick
sweep, immediate collection) and Taash's early end, over the position
``Match.hand_state()`` gives, encoded by ``dehla.kernel.codec``;
``tests/kernel/test_core.py`` holds its legal cards and every action to the
engine move by move, and ``tests/test_solver_exact.py`` checks its values
against plain minimax over the engine.

A position is one row of ``X`` (``dehla.kernel.layout``: the common words and
the solver's, up to ``SOLVER_END``); ``X[ply + 1]`` is the position
after one more action (copy-make, so nothing needs undoing).  ``P`` holds the
fixed parameters of a solve.  Values are ``s`` numbers (see
``dehla.solver.objective``): in relative mode ``s = t0 * W + k0 * uses_tricks``
of the final captures and the transposition table stores bounds on the part of
``s`` still to come; in absolute mode ``s`` is the final level and the table
keys include the captures.

Techniques: a transposition table at trick boundaries built as DDS builds
its own: per position *shape* (suit lengths per holder, leader, trump and
streak state) a list of any number of entries keyed by the relative ranks of
the live cards (positions that differ only in cards already played share an
entry), the entry that last answered moved to the front, a new generation per
solve and, once the pool is full, replacement of the oldest entries with the
fewest cards first; the centre's tens are not in the key (an entry's bounds are
shifted by the difference, ``_entry_bounds``), with partition search (an entry covers every position that
differs only in low cards the proof never needed; a ten among those low cards
only needs the same holder; a group of equivalent cards that stood for each
other where every move failed counts as needed when its first card does);
fail-soft bound queries (every answer carries a bound on the value, which the
table keeps); one card per group of equivalent
cards (same holder, adjacent among the live cards not in the trick, same effect
on the trick so far, neither a ten); move ordering (table move first; at a lead
the last refuting lead at that depth, then a history of refuting cards, then
card-play rules; when following, card-play rules, then the history; third hand
throws a ten on the partner's card when the last seat cannot beat it); and bounds
at trick boundaries: the tens a team has already banked, the tens and tricks
still open, the sure winners of the leader or of a partner it can reach (two in
a row collect the centre with the tens the run's tricks surely hold: the
leader's among its winners, the partner's played or thrown on them, the
opponents' they must follow with; all the tricks left collect every ten), and,
two tricks from the end, a top trump that surely wins the last trick; caps on what a team can still
collect from the tricks it can still win (``_trick_caps``, asked after the table); and, when
asked (``P_ETC``, off by default: fewer nodes but dearer ones), enhanced transposition cutoffs (before a
trick's last card is searched, a move whose next position the bounds or the table already answer the right
way is played first).  Everything here is compiled without numba's reference counting (``_jit``), which
had cost two atomic operations per array passed to a helper or viewed by row.
"""

from __future__ import annotations

from typing import Any

import dehla.numba_cache  # noqa: F401 - first: a writable cache directory for numba before numba is imported

# isort: split
import numba
import numpy as np

from dehla.kernel.layout import (
    C0,
    CTENS,
    CUT_OPEN,
    DONE,
    H0,
    HIDDEN,
    K0,
    K1,
    LASTW,
    LEADER,
    LED,
    LIVE,
    MUST_TRUMP,
    NPARAMS,
    NPLAYED,
    P_ABS,
    P_CAPS,
    P_CENTRE_OUT,
    P_CHOOSER,
    P_EARLY_END,
    P_ETC,
    P_GEN,
    P_IMMEDIATE,
    P_LB,
    P_N,
    P_NODE_LIMIT,
    P_PARTITION,
    P_REVEAL,
    P_STAGED_LIMIT,
    P_STREAK_RESETS,
    P_TRICKS,
    P_USES_TRICKS,
    P_W,
    PN0,
    RELWIN,
    SOLVER_END,
    STAGED,
    SUIT,
    T0,
    T1,
    TENS,
    TFROM,
    TLEN,
    TO_ACT,
    TRUMP,
    Array,
    jit,
)
from dehla.kernel.rules import (
    can_ask_reveal,
    collects,
    complete_staged_deal,
    low_card,
    next_trick,
    pass_turn,
    play_card,
    popcount,
    trick_winner,
    turn_up,
)
from dehla.kernel.rules import legal_cards as _legal_cards

__all__ = [
    "ROW",
    "MAXPLY",
    "NPARAMS",
    "query",
    "level",
    "solve_position",
    "new_work",
    "apply_action",
    "legal_mask",
    "new_table",
]

_jit = jit


def _jit_allocating(function: Any) -> Any:
    """``numba.njit`` with the on-disk cache and reference counting, for the few functions that make arrays."""
    return numba.njit(cache=True, nogil=True)(function)


#: The solver's row: the layout's words up to its own (``dehla.kernel.layout``); copy-make copies these.
ROW = SOLVER_END
MAXPLY = 128

REVEAL_MOVE = 52
KEYW = 5  # key words: four suit-length words (cards per holder code), the rest of the state
PATW = 4  # pattern words: per suit the holders of the live cards from the top, count, ten position
TW = 8  # table columns: a row is one 64-byte cache line, and a probe reads an entry's first six words
# Table row 0: bookkeeping.
M_ALLOC = 0  # pool rows handed out in this generation
M_SHAPE_ID = 1  # the next shape's serial number
M_GEN = 2  # the generation the pool count belongs to
M_SHAPES = 3  # shape rows (a power of two)
M_POOL = 4  # pool rows
# A shape row: the key, then
S_HEAD = KEYW  # the first entry of its list (-1: none)
S_STAMP = KEYW + 1  # generation << 8 | live cards
S_ID = KEYW + 2  # serial number (an entry names its shape by row and serial number)
SHAPE_WAYS = 4  # shape rows a key may sit in
# An entry row: the pattern, then
E_DATA = PATW  # lo (8 bits) | hi (8) | best move (8) | depth (8) | centre tens (4)
E_NEXT = PATW + 1
E_PREV = PATW + 2
E_OWNER = PATW + 3  # its shape's row | the shape's serial number << OWNER_BITS
OWNER_BITS = 28  # enough for the row of any table (``table_bits`` at most 26)
OWNER_ID_MASK = (1 << (63 - OWNER_BITS)) - 1  # the low bits of the serial number kept with an entry
EVICT_WINDOW = 4
# Tricks left between which ``_trick_caps`` answers from a team's trick count alone while tens are still open (the
# team is then credited with every one of them): that bound is loose, so where it answers a query the solve's later
# queries (about other levels) find no table entries, history or tight bounds from that subtree.  Two tricks from
# the end the search costs a few nodes and finds the tens too; early on the open tens make it too loose to pay
# (measured on the positions of ``tests/test_solver_nodes.py``).  With no ten open the trick count is the whole
# bound and it answers at any depth.
TRICK_CAP_LEFT = (3, 6)
WALK = 48  # entries of a shape's list a probe looks at (the list is kept most recently useful first)

# Per-ply work row of the explicit search stack.
W_MOVES = 0  # 16 candidate moves
W_COUNT = 16
W_NEXT = 17
W_BEST = 18
W_MAX = 19
W_BOUNDARY = 20
W_BOUND = 21
W_ENTRY = 22  # table slot that matched (or -1)
W_REL = 23  # relevant cards of the node's answer (see ``_query``)
W_KEY = 24  # KEYW words
W_PAT = 29  # PATW words
W_SCORES = 33  # 16 move-ordering scores
W_KILLER = 49  # the move that last refuted a node at this ply (tried early at its siblings and cousins)
W_VAL = 50  # an answered node's bound on the final ``s``: at least this (answer 1) or at most this (answer 0)
W_ACC = 51  # while a node's moves run: the loosest child bound so far (see ``_query``)
W_SIZE = 52
UNBOUNDED = 1 << 40
# stats: [0] nodes, [1] trick-boundary nodes, [2] table hits, [3] node limit reached, [4] table entries looked at,
# [5] table probes that found their shape, [6] nodes answered by ``_trick_caps``, [8 + k] cutoffs by the k-th move,
# [16 + t] boundary nodes after t tricks.
HIST = 32  # stats[HIST + 53 * seat + card]: how often (weighted by depth) playing ``card`` refuted a node
STATS = HIST + 53 * 8


_popcount = popcount
_first_card = low_card


@_jit
def legal_mask(row: Array) -> int:
    """The cards the seat to act may play (``tricks.legal_cards``)."""
    return _legal_cards(row)


@_jit
def _trick_winner_index(row: Array, count: int) -> int:
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
def _live(row: Array, params: Array) -> int:
    """Every card still to be played, or in the trick in progress."""
    return int(row[LIVE])


@_jit
def _holder(row: Array, params: Array, bit: int) -> int:
    n = params[P_N]
    for seat in range(n):
        if row[H0 + seat] & bit:
            return seat
    for seat in range(n):
        if row[PN0 + seat] & bit:
            return int(n + seat)
    return int(n + params[P_CHOOSER])  # the hidden card


@_jit
def _make_key(row: Array, params: Array, work: Array, ply: int) -> None:
    """The table key of a trick-boundary position and its suit patterns.

    Written to ``work[ply]``: the key words ``W_KEY + 0..3``, per suit, how many live cards each holder code
    has (hands, cards still to be dealt, the hidden card); ``W_KEY + 4``: leader, trump state,
    streak holder, centre tens (and the captures in absolute mode).
    The pattern words ``W_PAT + s``: the holder codes of suit ``s``'s live cards from the top (4
    bits each) | count << 52 | position of the live ten from the top << 56.
    """
    lb = params[P_LB]
    live = row[LIVE]
    for suit in range(4):
        word = 0
        lengths = 0
        count = 0
        ten_at = 0
        cards = (live >> (13 * suit)) & SUIT
        for rank in range(12, -1, -1):
            if cards >> rank & 1:
                code = _holder(row, params, 1 << (13 * suit + rank))
                word |= code << (4 * count)
                lengths += 1 << (lb * code)
                count += 1
                if rank == 8:
                    ten_at = count
        work[ply, W_KEY + suit] = lengths
        work[ply, W_PAT + suit] = word | (count << 52) | (ten_at << 56)
    misc = (
        row[LEADER]
        | ((row[TRUMP] + 1) << 4)
        | (row[CUT_OPEN] << 7)
        | (row[STAGED] << 8)
        | ((1 if row[HIDDEN] >= 0 else 0) << 9)
        | ((row[LASTW] + 1) << 10)
    )
    if _centre_in_key(params):
        misc |= row[CTENS] << 14
    if params[P_ABS]:
        misc |= (row[T0] << 17) | (row[T1] << 20) | (row[K0] << 23) | (row[DONE] + 1) << 28
    work[ply, W_KEY + 4] = misc


@_jit
def _centre_in_key(params: Array) -> bool:
    """Absolute mode keys the centre's tens; relative mode keeps them with each entry (``_entry_bounds``)."""
    return bool(params[P_ABS] or not params[P_CENTRE_OUT])


@_jit
def _centre_of(row: Array, params: Array) -> int:
    """The centre's tens as an entry records them: 0 where the key holds them."""
    return 0 if _centre_in_key(params) else int(row[CTENS])


@_jit
def _hash(work: Array, ply: int) -> int:
    """The hash of the key in ``work[ply]``."""
    h = 0x12345
    for index in range(KEYW):
        h = (h ^ work[ply, W_KEY + index]) * 0x100000001B3
        h ^= h >> 29
    return int(h)


@_jit_allocating
def new_table(bits: int) -> Array:
    """An empty transposition table with a pool of ``2**bits`` entries (and a quarter as many shapes).

    Row 0 keeps the bookkeeping (``M_*``), then come the shape rows, then the pool of entries: each
    shape (the key: suit lengths per holder and the rest of the state) heads a doubly linked list of
    entries (relative-rank patterns with their bounds), as many as the position needs.
    """
    shapes = 1 << max(bits - 2, 2)
    pool = 1 << bits
    table = np.zeros((1 + shapes + pool, TW), dtype=np.int64)
    table[0, M_SHAPES] = shapes
    table[0, M_POOL] = pool
    table[0, M_GEN] = -1
    for row in range(1, 1 + shapes):
        table[row, S_STAMP] = -1 << 8
    return table


@_jit
def _key_matches(table: Array, shape: int, work: Array, ply: int) -> bool:
    """Does a shape row hold the key in ``work[ply]``?"""
    for index in range(KEYW):  # noqa: SIM110 - a plain loop: numba does not compile all() over a generator
        if table[shape, index] != work[ply, W_KEY + index]:
            return False
    return True


@_jit
def _pattern_matches(table: Array, entry: int, work: Array, ply: int) -> bool:
    for suit in range(4):
        stored = table[entry, suit]
        probe = work[ply, W_PAT + suit]
        top = (stored >> 52) & 0xF  # how many top cards the entry depends on
        stored_ten = (stored >> 56) & 0xF
        probe_ten = (probe >> 56) & 0xF
        if stored_ten <= top:
            if probe_ten != stored_ten:
                return False
        elif probe_ten <= top or (probe >> (4 * (probe_ten - 1))) & 0xF != (stored >> 60) & 0xF:
            # A ten below the relevant cards may sit anywhere among the low cards, with the same holder.
            return False
        mask = (1 << (4 * top)) - 1
        if (stored & mask) != (probe & mask):
            return False
    return True


@_jit
def _find_shape(table: Array, params: Array, work: Array, ply: int) -> int:
    """The shape row holding the key in ``work[ply]`` in this generation, or -1."""
    gen = params[P_GEN]
    base = 1 + ((_hash(work, ply) & (table[0, M_SHAPES] - 1)) & ~(SHAPE_WAYS - 1))
    for shape in range(base, base + SHAPE_WAYS):
        if table[shape, S_STAMP] >> 8 == gen and _key_matches(table, shape, work, ply):
            return shape
    return -1


@_jit
def _entry_bounds(data: int, centre: int, weight: int) -> tuple[int, int]:
    """An entry's bounds on the ``s`` still to come, moved to a position with ``centre`` tens in the centre.

    The centre's tens go to whichever team collects the centre next, and the play does not depend on how
    many there are: every line's payoff rises by ``weight`` per ten for team 0 or not at all, so the value
    is monotone in the centre's tens and rises by at most ``weight`` per ten.  An entry stored with ``c0``
    tens is a lower bound for more tens and an upper bound for fewer, and shifts by ``weight`` a ten the
    other way.  (Absolute mode keeps the centre in the key and stores 0 here.)
    """
    lo = data & 0xFF
    hi = (data >> 8) & 0xFF
    stored = (data >> 32) & 0xF
    if centre < stored:
        lo -= weight * (stored - centre)
    elif centre > stored and hi < 255:
        hi += weight * (centre - stored)
    return lo, hi


@_jit
def _probe(table: Array, params: Array, work: Array, ply: int, bound: int, centre: int, stats: Array) -> int:
    """An entry that matches the position keyed in ``work[ply]``: one whose bounds decide ``bound`` if any, else
    any match, else -1."""
    shape = _find_shape(table, params, work, ply)
    if shape < 0:
        return -1
    weight = params[P_W]
    found = -1
    decided = -1
    tightest = 0
    entry = table[shape, S_HEAD]
    stats[5] += 1
    walked = 0
    while entry >= 0 and walked < WALK:
        walked += 1
        stats[4] += 1
        if _pattern_matches(table, entry, work, ply):
            lo, hi = _entry_bounds(table[entry, E_DATA], centre, weight)
            # Of the entries that decide, the one with the tightest bound (fail-soft: the parents learn it).
            if lo >= bound and (decided < 0 or lo > tightest):
                decided = entry
                tightest = lo
            elif hi < bound and (decided < 0 or -hi > tightest):
                decided = entry
                tightest = -hi
            if found < 0:
                found = entry
        entry = table[entry, E_NEXT]
    if decided >= 0 and table[decided, E_PREV] >= 0:
        # Move the entry that answered to the front of its list: the next probe of the shape finds it first.
        _unlink(table, params, decided)
        head = table[shape, S_HEAD]
        table[decided, E_PREV] = -1
        table[decided, E_NEXT] = head
        if head >= 0:
            table[head, E_PREV] = decided
        table[shape, S_HEAD] = decided
    return int(decided if decided >= 0 else found)


@_jit
def _relevant_top(row: Array, table: Array, slot: int) -> int:
    """The cards a table entry's answer depends on, in this position: the top cards of each suit it kept."""
    live = row[LIVE]
    rel = 0
    for suit in range(4):
        top = (table[slot, suit] >> 52) & 0xF
        cards = (live >> (13 * suit)) & SUIT
        rank = 12
        while top > 0 and rank >= 0:
            if cards >> rank & 1:
                rel |= 1 << (13 * suit + rank)
                top -= 1
            rank -= 1
    return rel


@_jit
def _new_shape(table: Array, params: Array, work: Array, ply: int, depth: int) -> int:
    """A shape row for the key in ``work[ply]``: a free way of its bucket, else the one with the fewest cards
    (the cheapest to search again), the oldest among those.  An evicted shape's entries become orphans the pool
    reuses."""
    gen = params[P_GEN]
    base = 1 + ((_hash(work, ply) & (table[0, M_SHAPES] - 1)) & ~(SHAPE_WAYS - 1))
    victim = -1
    victim_depth = 1 << 30
    victim_id = 1 << 62
    for shape in range(base, base + SHAPE_WAYS):
        stamp = table[shape, S_STAMP]
        if stamp >> 8 != gen:
            victim = shape
            break
        if stamp & 0xFF < victim_depth or (stamp & 0xFF == victim_depth and table[shape, S_ID] < victim_id):
            victim = shape
            victim_depth = stamp & 0xFF
            victim_id = table[shape, S_ID]
    for index in range(KEYW):
        table[victim, index] = work[ply, W_KEY + index]
    table[victim, S_HEAD] = -1
    table[victim, S_STAMP] = gen << 8 | depth
    table[victim, S_ID] = table[0, M_SHAPE_ID]
    table[0, M_SHAPE_ID] += 1
    return victim


@_jit
def _unlink(table: Array, params: Array, entry: int) -> None:
    """Take an entry out of its shape's list (nothing to do if the shape was evicted: the entry is an orphan)."""
    owner = table[entry, E_OWNER] & ((1 << OWNER_BITS) - 1)
    if (
        table[owner, S_STAMP] >> 8 != params[P_GEN]
        or table[owner, S_ID] & OWNER_ID_MASK != table[entry, E_OWNER] >> OWNER_BITS
    ):
        return
    before = table[entry, E_PREV]
    after = table[entry, E_NEXT]
    if before >= 0:
        table[before, E_NEXT] = after
    else:
        table[owner, S_HEAD] = after
    if after >= 0:
        table[after, E_PREV] = before


@_jit
def _alloc(table: Array, params: Array) -> int:
    """A pool row for a new entry: the next unused one, or once the pool is full, among the ``EVICT_WINDOW``
    oldest the one with the fewest cards (replacement by age, then depth)."""
    if table[0, M_GEN] != params[P_GEN]:  # a new generation starts with an empty pool
        table[0, M_GEN] = params[P_GEN]
        table[0, M_ALLOC] = 0
    pool = table[0, M_POOL]
    start = 1 + table[0, M_SHAPES]
    handed = table[0, M_ALLOC]
    table[0, M_ALLOC] = handed + 1
    if handed < pool:
        return int(start + handed)
    base = handed % pool
    victim = -1
    victim_depth = 1 << 30
    for step in range(EVICT_WINDOW):
        entry = start + (base + step) % pool
        depth = (table[entry, E_DATA] >> 24) & 0xFF
        if depth < victim_depth:
            victim = entry
            victim_depth = depth
    _unlink(table, params, victim)
    return int(victim)


@_jit
def _entry_word(word: int, rel: int, live: int, suit: int, partition: bool) -> int:
    """One suit's word of a stored entry: the holders of the top live cards the answer needed (all of them
    without partition search), how many, and where the ten lies (with its holder when it is below them)."""
    count = (word >> 52) & 0xF
    ten_at = (word >> 56) & 0xF
    top = count
    if partition:
        relevant = (rel >> (13 * suit)) & SUIT
        top = 0
        if relevant:
            lowest = 0
            while not (relevant >> lowest) & 1:
                lowest += 1
            top = _popcount(((live >> (13 * suit)) & SUIT) >> lowest)
    stored = (word & ((1 << (4 * top)) - 1)) | (top << 52) | (ten_at << 56)
    if ten_at > top:
        # The ten is among the irrelevant low cards: only its holder matters.
        stored |= ((word >> (4 * (ten_at - 1))) & 0xF) << 60
    return int(stored)


@_jit
def _store(
    table: Array,
    params: Array,
    live: int,
    work: Array,
    ply: int,
    rel: int,
    result: bool,
    amount: int,
    best: int,
    centre: int,
) -> None:
    """Record that team 0 makes at least (``result``) or at most ``amount`` more ``s`` from the position keyed in
    ``work[ply]`` (``live``: its live cards), and
    from every position that differs from it only in live cards below the relevant ones (``rel``) of each suit
    (and, moved by ``_entry_bounds``, in the centre's tens: ``centre`` is this position's)."""
    if result:
        amount = min(max(amount, 0), 254)
    else:
        amount = min(max(amount, 0), 255)
    partition = params[P_PARTITION] != 0
    word0 = _entry_word(work[ply, W_PAT], rel, live, 0, partition)
    word1 = _entry_word(work[ply, W_PAT + 1], rel, live, 1, partition)
    word2 = _entry_word(work[ply, W_PAT + 2], rel, live, 2, partition)
    word3 = _entry_word(work[ply, W_PAT + 3], rel, live, 3, partition)
    depth = _popcount(live)
    shape = _find_shape(table, params, work, ply)
    if shape >= 0:
        entry = table[shape, S_HEAD]
        walked = 0
        while entry >= 0 and walked < WALK:
            walked += 1
            data = table[entry, E_DATA]
            if (
                table[entry, 0] == word0
                and table[entry, 1] == word1
                and table[entry, 2] == word2
                and table[entry, 3] == word3
                and (data >> 32) & 0xF == centre
            ):
                lo = data & 0xFF
                hi = (data >> 8) & 0xFF
                if result:
                    lo = max(lo, amount)
                else:
                    hi = min(hi, amount)
                code = best if best != 255 else (data >> 16) & 0xFF
                table[entry, E_DATA] = lo | (hi << 8) | (code << 16) | (depth << 24) | (centre << 32)
                return
            entry = table[entry, E_NEXT]
    entry = _alloc(table, params)
    if shape < 0 or table[shape, S_STAMP] >> 8 != params[P_GEN]:
        shape = _new_shape(table, params, work, ply, depth)
    table[entry, 0] = word0
    table[entry, 1] = word1
    table[entry, 2] = word2
    table[entry, 3] = word3
    lo = amount if result else 0
    hi = 255 if result else amount
    table[entry, E_DATA] = lo | (hi << 8) | (best << 16) | (depth << 24) | (centre << 32)
    head = table[shape, S_HEAD]
    table[entry, E_NEXT] = head
    table[entry, E_PREV] = -1
    table[entry, E_OWNER] = shape | ((table[shape, S_ID] & OWNER_ID_MASK) << OWNER_BITS)
    if head >= 0:
        table[head, E_PREV] = entry
    table[shape, S_HEAD] = entry


@_jit
def _s_now(row: Array, params: Array) -> int:
    if params[P_ABS]:
        return 0
    s = row[T0] * params[P_W]
    if params[P_USES_TRICKS]:
        s += row[K0]
    return int(s)


@_jit
def _s_at(X: Array, ply: int, params: Array) -> int:
    """``_s_now`` of ``X[ply]``, read without a row view."""
    if params[P_ABS]:
        return 0
    s = X[ply, T0] * params[P_W]
    if params[P_USES_TRICKS]:
        s += X[ply, K0]
    return int(s)


@_jit
def _winning_now(row: Array, params: Array) -> int:
    """Seat winning the trick in progress so far."""
    return int((row[LEADER] + _trick_winner_index(row, row[TLEN])) % params[P_N])


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
def _trick_cards(row: Array) -> int:
    """The cards of the trick in progress."""
    cards = 0
    for index in range(row[TLEN]):
        cards |= 1 << row[C0 + index]
    return cards


@_jit
def _grouping_context(row: Array) -> tuple[int, int, int, int, bool]:
    """What the grouping of equivalent cards reads from a position: the legal cards, the cards still to come
    (live, not in the trick), the trick's length, its best card so far (-1 at a lead) and whether the seat
    to act is void in the suit led."""
    tlen = row[TLEN]
    best_card = -1
    void = False
    if tlen > 0:
        best_card = row[C0 + _trick_winner_index(row, tlen)]
        void = (row[H0 + row[TO_ACT]] & (SUIT << (13 * row[LED]))) == 0
    return legal_mask(row), int(row[LIVE] & ~_trick_cards(row)), int(tlen), int(best_card), void


@_jit
def _group_firsts(
    row: Array, mine: int, still: int, suit: int, tlen: int, best_card: int, void: bool
) -> tuple[int, int]:
    """The cards of one suit that stand for their groups of equivalent cards, and which of those beat the trick.

    A group is a run of the player's own cards adjacent among the cards still to come, that all beat the
    trick's best card or all do not; a ten is always a group of its own.  ``mine`` and ``still`` are the
    suit's 13-bit masks (the player's legal cards, the cards not yet played).  ``_moves`` plays the first
    card of each group and ``_group_floors`` pins the rest: both read the grouping from here.
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
        wins = tlen > 0 and _beats(row, 13 * suit + rank, best_card, void)
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
def _group_floors(row: Array, params: Array, rel: int) -> int:
    """The cards ``_moves`` left out because an equivalent card above stood for them (its grouping), in the
    groups whose first card lies among the relevant ones (``rel`` and every card above them in its suit).

    Below the relevant cards any card of a holder stands for any other, grouped or not; among them,
    a position that differs only in low cards may split the group, so the group's cards become relevant.
    """
    legal, future, tlen, best_card, void = _grouping_context(row)
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
        firsts, _ = _group_firsts(row, mine, still, suit, tlen, best_card, void)
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
def _moves(
    row: Array, params: Array, work: Array, ply: int, best_hint: int, killer: int, history: Array
) -> int:
    """Candidate moves (one per group of equivalent cards), best first, in ``work[ply, W_MOVES:]``; returns how many."""
    seat = row[TO_ACT]
    legal = legal_mask(row)
    live = _live(row, params)
    n = params[P_N]
    count = 0
    tlen = row[TLEN]
    team = seat % 2
    partner_winning = False
    best_card = -1
    ten_safe = tlen == n - 1  # a ten thrown on the partner's winning card stays with the team
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
        firsts, winners = _group_firsts(row, mine, still, suit, tlen, best_card, void)
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
def _encode_best(live_mask: int, card: int) -> int:
    if card == REVEAL_MOVE or card < 0:
        return 255
    suit = card // 13
    live = (live_mask >> (13 * suit)) & SUIT
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
    return int(_popcount(_live(row, params) & TENS) + row[CTENS])


@_jit
def _sure_run(row: Array, params: Array, seat: int, leader: int) -> tuple[int, int, int]:
    """How many tricks in a row ``seat`` surely wins from now on, with the leader leading to it, the cards
    that rests on, and how many of them in each suit (4 bits a suit); ``0, 0, 0`` if it cannot be reached.

    Its sure winners are its top cards of a suit that no opponent can ruff (each holds at least as many
    of the suit, or no trump).  Partners may discard instead of ruffing, but only while they have a card
    that is not a trump: when one might run out, only the trump winners count.  A partner of the leader
    needs an entry: the leader must hold a card of one of the suits to lead to it.
    """
    n = params[P_N]
    hand = row[H0 + seat]
    lead_hand = row[H0 + leader]
    live = row[LIVE]
    trump = row[TRUMP]
    team = seat % 2
    run = 0
    trump_run = 0
    rel = 0
    trump_rel = 0
    per_suit = 0
    entry = seat == leader
    trump_entry = seat == leader
    for suit in range(4):
        mine = (hand >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        cards = (live >> (13 * suit)) & SUIT
        held = 0
        rank = 12
        while rank >= 0:
            if cards >> rank & 1:
                if not (mine >> rank & 1):
                    break
                held += 1
            rank -= 1
        if held == 0:
            continue
        if trump >= 0 and suit != trump:
            for other in range(n):
                if other % 2 == team:
                    continue
                cards_of = row[H0 + other]
                if (cards_of >> (13 * trump)) & SUIT:
                    length = _popcount((cards_of >> (13 * suit)) & SUIT)
                    if length < held:
                        held = length
        if held == 0:
            continue
        # The lowest card of the run kept: the pattern then pins every card above it.
        rank = 12
        kept = 0
        lowest = 0
        while kept < held:
            if mine >> rank & 1:
                kept += 1
                lowest = rank
            rank -= 1
        reached = ((lead_hand >> (13 * suit)) & SUIT) != 0
        rel |= 1 << (13 * suit + lowest)
        run += held
        per_suit |= held << (4 * suit)
        entry = entry or reached
        if suit == trump:
            trump_run = held
            trump_rel = 1 << (13 * suit + lowest)
            trump_entry = trump_entry or reached
    if trump >= 0:
        side_rounds = run - trump_run
        for other in range(n):
            if other == seat or other % 2 != team:
                continue
            cards_of = row[H0 + other]
            if (cards_of >> (13 * trump)) & SUIT and _popcount(cards_of & ~(SUIT << (13 * trump))) < side_rounds:
                run = trump_run
                rel = trump_rel
                entry = trump_entry
                per_suit = trump_run << (4 * trump)
                break
    if not entry:
        return 0, 0, 0
    return run, rel, per_suit


@_jit
def _sure_run_bound(row: Array, params: Array, work: Array, ply: int, need: int, most: int, left: int) -> int:
    """1 or 0 when sure winners of the leader's team settle the query, else -1 (relative mode, trick boundary).

    A run of sure winners (``_sure_run``) by the leader or a partner it can reach wins that many tricks
    in a row: two in a row collect the centre for the leader's team (one if the leader won the last
    trick too); winning every trick left collects every open ten.  The answer rests on the ranks of
    the run's top cards, left in ``work[ply, W_REL]``; the value bound found is left in ``work[ply, W_VAL]``,
    relative to the captures so far.
    """
    n = params[P_N]
    leader = row[LEADER]
    team = leader % 2
    run, rel, per_suit = _sure_run(row, params, leader, leader)
    collects = run >= 2 or (run >= 1 and row[LASTW] == leader)
    everything = run >= left
    dumped = 0
    if collects:
        # Tens the run's collected tricks surely hold: the leader's own tens among its winners; the partner's
        # tens, played to the leader's winners of their suit or (not trumps) thrown on winners of a suit it has
        # none of; and, when every trick of the run is collected, the opponents' tens they must play to
        # follow suit.  The leader plays the tricks with tens first and, if the run is odd, a winner without a
        # ten last, uncollected.
        collected = run if (run + (1 if row[LASTW] == leader else 0)) % 2 == 0 else run - 1
        live = row[LIVE]
        lead_hand = row[H0 + leader]
        partner_hand = row[H0 + (leader + 2) % 4] if n == 4 else 0
        void_rounds = 0
        loose_tens = 0
        forced = 0
        for suit in range(4):
            held = (per_suit >> (4 * suit)) & 0xF
            ten = 13 * suit + 8
            if held == 0:
                if (partner_hand >> ten) & 1 and suit != row[TRUMP]:
                    loose_tens += 1
                continue
            if n == 4 and (partner_hand >> (13 * suit)) & SUIT == 0:
                void_rounds += held
            if not (live >> ten) & 1:
                continue
            if (lead_hand >> ten) & 1:
                if _popcount(((live >> (13 * suit)) & SUIT) >> 9) < held:
                    dumped += 1
            elif (partner_hand >> ten) & 1:
                dumped += 1
            else:
                for other in range(n):
                    opponent = row[H0 + other]
                    length = _popcount((opponent >> (13 * suit)) & SUIT)
                    if other % 2 != team and (opponent >> ten) & 1 and length <= held:
                        forced += 1
        dumped += min(loose_tens, void_rounds)
        dumped = min(dumped, collected)
        if collected == run:
            dumped += forced
    for seat in range(n):
        if seat == leader or seat % 2 != team or everything:
            continue
        other_run, other_rel, _ = _sure_run(row, params, seat, leader)
        if other_run >= left:
            everything = True
            rel = other_rel
        elif other_run >= 2 and not collects:
            collects = True
            rel = other_rel
    if everything:
        work[ply, W_REL] = rel
        gain = 0
        if team == 0:
            gain = _open_tens(row, params) * params[P_W]
            if params[P_USES_TRICKS]:
                gain += left
        work[ply, W_VAL] = gain
        return 1 if gain >= need else 0
    if collects:
        centre = (row[CTENS] + dumped) * params[P_W]
        if team == 0:
            if centre >= need:
                work[ply, W_REL] = rel
                work[ply, W_VAL] = centre
                return 1
        elif most - centre < need:
            work[ply, W_REL] = rel
            work[ply, W_VAL] = most - centre
            return 0
    return -1


@_jit
def _last_trick_bound(row: Array, params: Array, work: Array, ply: int, need: int, most: int) -> int:
    """1 or 0 when the last two tricks are settled for the centre's tens, else -1 (relative mode, trick boundary
    with two tricks left, tens collected from the centre, trick counts irrelevant).

    The holder of the top trump surely wins the last trick if it holds more trumps than the other seats
    together, or nothing but trumps: it is never forced to play the top trump before.  The last trick
    collects the centre, so the other team gains nothing unless the seat that won the trick before is
    theirs (only it can collect by winning the next trick too).  The answer rests on the top trump's rank
    (left in ``work[ply, W_REL]``) and on suit lengths (in the key); the bound found is left in ``work[ply, W_VAL]``.
    """
    trump = row[TRUMP]
    if trump < 0:
        return -1
    n = params[P_N]
    trumps = (row[LIVE] >> (13 * trump)) & SUIT
    if trumps == 0:
        return -1
    rank = 12
    while not (trumps >> rank) & 1:
        rank -= 1
    top = 13 * trump + rank
    holder = -1
    others = 0
    for seat in range(n):
        mine = row[H0 + seat]
        if (mine >> top) & 1:
            holder = seat
        else:
            others += _popcount((mine >> (13 * trump)) & SUIT)
    if holder < 0:
        return -1
    hand = row[H0 + holder]
    mine = _popcount((hand >> (13 * trump)) & SUIT)
    if mine <= others and hand & ~(SUIT << (13 * trump)):
        return -1
    keeper = holder % 2
    if row[LASTW] >= 0 and row[LASTW] % 2 != keeper:
        return -1
    work[ply, W_REL] = 1 << top
    if keeper == 1:
        work[ply, W_VAL] = 0
        return 0
    work[ply, W_VAL] = most
    return 1 if most >= need else 0


@_jit
def _trick_caps(row: Array, params: Array, work: Array, ply: int, need: int, most: int, left: int) -> int:
    """1 or 0 when a team that can collect nothing more settles the query, else -1 (relative mode, trick
    boundary, trump known).

    Tricks a team can still win: each trick in which an opponent plays a trump above all of the team's trumps
    is lost to it, so a team wins at most the tricks left less the most such trumps one opponent holds.
    A team that wins no trick collects nothing; in centre collection neither does one that wins at most one
    trick, does not hold the streak, and cannot win the last trick (an opponent keeps the top trump to the
    end: more trumps than the other seats together, or nothing but trumps).  Every ten not yet banked then
    goes to the other team.  With trick counts in the value, a team's tricks are bounded the same way, but
    that bound alone (every open ten credited) is used, while tens are open, only between ``TRICK_CAP_LEFT``
    tricks left.
    The answer rests on the top trumps counted (left in ``work[ply, W_REL]``) and on suit lengths (in the
    key); the bound found is left in ``work[ply, W_VAL]``, relative to the captures so far.
    """
    trump = row[TRUMP]
    n = params[P_N]
    shift = 13 * trump
    top_card = -1
    trumps = (row[LIVE] >> shift) & SUIT
    if trumps == 0:
        return -1
    rank = 12
    while not (trumps >> rank) & 1:
        rank -= 1
    top_card = shift + rank
    uses_tricks = params[P_USES_TRICKS] != 0
    centre = params[P_IMMEDIATE] == 0
    tens_open = most > (left if uses_tricks else 0)
    upper = most
    lower = 0
    rel = 0
    for team in range(2):
        # The team's highest trump, then the opponents' trumps above it, counted per seat.
        highest = -1
        for seat in range(team, n, 2):
            mine = (row[H0 + seat] >> shift) & SUIT
            if mine:
                at = 12
                while not (mine >> at) & 1:
                    at -= 1
                highest = max(highest, at)
        most_above = 0
        lowest_counted = -1
        keeper = False
        for seat in range(1 - team, n, 2):
            hand = row[H0 + seat]
            mine = (hand >> shift) & SUIT
            above = mine >> (highest + 1)
            count = _popcount(above)
            if count > most_above:
                most_above = count
                low = 0
                while not (above >> low) & 1:
                    low += 1
                lowest_counted = shift + highest + 1 + low
            if (hand >> top_card) & 1:
                others = _popcount(trumps) - _popcount(mine)
                keeper = _popcount(mine) > others or (hand & ~(SUIT << shift)) == 0
        wins = left - most_above
        streak = row[LASTW] >= 0 and row[LASTW] % 2 == team
        kept = wins == 1 and centre and keeper and not streak  # the keeper's top trump decides
        nothing = wins <= 0 or kept
        tricks = max(wins, 0)
        if not nothing and tens_open and not TRICK_CAP_LEFT[0] <= left <= TRICK_CAP_LEFT[1]:
            continue  # only the trick count is bounded here, every open ten credited (see ``TRICK_CAP_LEFT``)
        if team == 0:
            bound = (0 if nothing else most - (left if uses_tricks else 0)) + (min(left, tricks) if uses_tricks else 0)
            if bound < upper:
                upper = bound
                if upper < need:
                    rel = (1 << lowest_counted if lowest_counted >= 0 else 0) | (1 << top_card if kept else 0)
                    work[ply, W_REL] = rel
                    work[ply, W_VAL] = upper
                    return 0
        else:
            bound = (most - (left if uses_tricks else 0) if nothing else 0) + (left - tricks if uses_tricks else 0)
            if bound > lower:
                lower = bound
                if lower >= need:
                    rel = (1 << lowest_counted if lowest_counted >= 0 else 0) | (1 << top_card if kept else 0)
                    work[ply, W_REL] = rel
                    work[ply, W_VAL] = lower
                    return 1
    return -1


@_jit
def _last_rank_matters(before: Array, after: Array, params: Array) -> bool:
    """Does the result of the last trick (played out from ``before`` to ``after``) rest on the rank of the
    card that won it?  Only the winning team counts now, and only for the tens it takes (or the trick
    itself, when trick counts matter): it does not if nothing is at stake, or if the winner beat only
    its partners' cards of its kind."""
    n = params[P_N]
    tens = before[CTENS]
    for index in range(n):
        if after[C0 + index] % 13 == 8:
            tens += 1
    if tens == 0 and not params[P_USES_TRICKS] and not params[P_ABS]:
        return False
    winner_card = after[RELWIN]
    suit = winner_card // 13
    winner_team = -1
    for index in range(n):
        if after[C0 + index] == winner_card:
            winner_team = (before[LEADER] + index) % n % 2
    for index in range(n):
        card = after[C0 + index]
        if card != winner_card and card // 13 == suit and (before[LEADER] + index) % n % 2 != winner_team:
            return True
    return False


@_jit
def _enter(
    X: Array, ply: int, params: Array, final: Array, table: Array, work: Array, stats: Array, target: int,
    peek: bool,
) -> int:
    """Open the node at ``ply``: 1 or 0 if its answer is already known, else -1 (its moves are then ready,
    unless ``peek``: then only the bounds and the table are asked, and nothing is counted).

    A known answer leaves in ``work[ply, W_REL]`` the cards it depends on and in ``work[ply, W_VAL]``
    the bound on the final ``s`` it proves (see ``_query``).
    """
    row = X[ply]
    work[ply, W_BOUNDARY] = 0
    work[ply, W_ENTRY] = -1
    work[ply, W_REL] = 0
    best_hint = -1
    absolute = params[P_ABS]
    capped = False  # the caps on what a team can still collect apply (asked after the table)
    now = 0
    need = 0
    most = 0
    left = 0
    if row[TLEN] == 0:
        if absolute:
            if row[DONE] >= 0:
                work[ply, W_VAL] = row[DONE]
                return 1 if row[DONE] >= target else 0
            if row[NPLAYED] == params[P_TRICKS]:
                work[ply, W_VAL] = final[row[T0], row[T1], row[K0], row[K1], 2]
                return 1 if work[ply, W_VAL] >= target else 0
            if final[row[T0], row[T1], row[K0], row[K1], 0] >= target:
                work[ply, W_VAL] = final[row[T0], row[T1], row[K0], row[K1], 0]
                return 1
            if final[row[T0], row[T1], row[K0], row[K1], 1] < target:
                work[ply, W_VAL] = final[row[T0], row[T1], row[K0], row[K1], 1]
                return 0
            bound = target
        else:
            now = _s_now(row, params)
            need = target - now
            if need <= 0:
                work[ply, W_VAL] = now
                return 1
            left = params[P_TRICKS] - row[NPLAYED]
            most = _open_tens(row, params) * params[P_W]
            if params[P_USES_TRICKS]:
                most += left
            if most < need:
                work[ply, W_VAL] = now + most
                return 0
            if row[STAGED] == 0 and row[HIDDEN] < 0 and row[CUT_OPEN] == 0:
                capped = row[TRUMP] >= 0 and params[P_CAPS] != 0
                answer = _sure_run_bound(row, params, work, ply, need, most, left)
                if answer < 0 and left == 2 and not params[P_IMMEDIATE] and not params[P_USES_TRICKS]:
                    answer = _last_trick_bound(row, params, work, ply, need, most)
                if answer >= 0:
                    work[ply, W_VAL] += now
                    return answer
            bound = need
        if row[NPLAYED] == params[P_TRICKS] - 1 and row[HIDDEN] < 0:
            # The last trick: every card is forced, so play it out instead of searching it.
            scratch = X[ply + 1]
            for field in range(ROW):
                scratch[field] = row[field]
            complete = True
            for _ in range(params[P_N]):
                mask = legal_mask(scratch)
                if mask == 0:  # pragma: no cover - only in a broken position: a seat with no card to play
                    complete = False
                    break
                apply_action(scratch, params, final, _first_card(mask))
            if complete:
                if scratch[RELWIN] >= 0 and _last_rank_matters(row, scratch, params):
                    work[ply, W_REL] = 1 << scratch[RELWIN]
                if absolute:
                    done = scratch[DONE]
                    if done < 0:
                        done = final[scratch[T0], scratch[T1], scratch[K0], scratch[K1], 2]
                    work[ply, W_VAL] = done
                    return 1 if done >= target else 0
                work[ply, W_VAL] = _s_now(scratch, params)
                return 1 if work[ply, W_VAL] >= target else 0
        if not peek:
            stats[1] += 1
            stats[16 + row[NPLAYED]] += 1
        work[ply, W_BOUNDARY] = 1
        work[ply, W_BOUND] = bound
        _make_key(row, params, work, ply)
        slot = _probe(table, params, work, ply, bound, _centre_of(row, params), stats)
        work[ply, W_ENTRY] = slot
        if slot >= 0:
            data = table[slot, E_DATA]
            lo, hi = _entry_bounds(data, _centre_of(row, params), params[P_W])
            if lo >= bound or hi < bound:
                if not peek:
                    stats[2] += 1
                work[ply, W_REL] = _relevant_top(row, table, slot)
                if lo >= bound:
                    work[ply, W_VAL] = _s_now(row, params) + lo
                    return 1
                work[ply, W_VAL] = _s_now(row, params) + hi
                return 0
            best_hint = _decode_best(row, params, (data >> 16) & 0xFF)
        if capped:
            # After the table, whose entries carry tighter bounds and need fewer cards when they answer.
            answer = _trick_caps(row, params, work, ply, need, most, left)
            if answer >= 0:
                if not peek:
                    stats[6] += 1
                work[ply, W_VAL] += now
                return answer
    if peek:
        return -1
    work[ply, W_COUNT] = _moves(row, params, work, ply, best_hint, work[ply, W_KILLER], stats)
    work[ply, W_NEXT] = 0
    work[ply, W_BEST] = -1
    work[ply, W_MAX] = 1 if row[TO_ACT] % 2 == 0 else 0
    work[ply, W_ACC] = -UNBOUNDED if work[ply, W_MAX] else UNBOUNDED
    return -1


@_jit
def _cutoff_first(
    X: Array, ply: int, params: Array, final: Array, table: Array, work: Array, stats: Array, target: int
) -> None:
    """Enhanced transposition cutoffs: before the last card of a trick is searched, look up each move's
    position (the next trick's start) in the bounds and the table, and play first a move whose known answer
    already gives the side to move what it wants (that child then answers at once, and the node with it)."""
    count = work[ply, W_COUNT]
    if not params[P_ETC] or count < 2 or X[ply, TLEN] != params[P_N] - 1:
        return
    wanted = work[ply, W_MAX]
    for index in range(count):
        move = work[ply, W_MOVES + index]
        for field in range(ROW):
            X[ply + 1, field] = X[ply, field]
        apply_action(X[ply + 1], params, final, move)
        if _enter(X, ply + 1, params, final, table, work, stats, target, True) == wanted:
            if index > 0:
                score = work[ply, W_SCORES + index]
                for shift in range(index, 0, -1):
                    work[ply, W_MOVES + shift] = work[ply, W_MOVES + shift - 1]
                    work[ply, W_SCORES + shift] = work[ply, W_SCORES + shift - 1]
                work[ply, W_MOVES] = move
                work[ply, W_SCORES] = score
            return


@_jit
def _close(X: Array, ply: int, params: Array, table: Array, work: Array, result: int) -> None:
    """Record a finished node's answer in the table (trick boundaries only)."""
    if not work[ply, W_BOUNDARY]:
        return
    best = work[ply, W_BEST]
    live = X[ply, LIVE]
    code = _encode_best(live, best) if best >= 0 else 255
    centre = 0 if _centre_in_key(params) else X[ply, CTENS]
    _store(
        table,
        params,
        live,
        work,
        ply,
        work[ply, W_REL],
        result == 1,
        work[ply, W_VAL] - _s_at(X, ply, params),
        code,
        centre,
    )


@_jit
def _query(
    X: Array, root: int, params: Array, final: Array, table: Array, stats: Array, work: Array, target: int
) -> bool:
    """Can team 0 make the final ``s`` at least ``target`` from ``X[root]``, against best defence?

    Alpha-beta on a boolean question, written as a loop over an explicit stack
    (numba cannot cache recursive functions), fail-soft: each answer also
    carries a bound on the final ``s`` (``W_VAL``: at least this when the answer
    is yes, at most this when no), so the table learns more than the question
    asked and the next question about the same position may need no search.  Each answer carries the set of
    cards whose ranks it depends on (``W_REL``): the cards that won a trick by
    rank in the part of the tree that proves it (the refuting line at a cut,
    every line at a node whose moves all failed).  Table entries then cover all
    positions that agree on those cards and on everything else but the ranks
    of lower cards (partition search, as in GIB and DDS).
    """
    ply = root
    stats[0] += 1
    limit = params[P_NODE_LIMIT]
    if stats[3]:
        return False
    answer = _enter(X, ply, params, final, table, work, stats, target, False)
    if answer < 0:
        _cutoff_first(X, ply, params, final, table, work, stats, target)
    while True:
        if limit and stats[0] > limit:
            stats[3] = 1
            return False
        if answer < 0:
            # Expand the next move of the node at ply, or finish it.
            index = work[ply, W_NEXT]
            if index == work[ply, W_COUNT]:
                answer = 1 - work[ply, W_MAX]
                work[ply, W_VAL] = work[ply, W_ACC]
                # Every move failed, but only one card of each group was tried: where the answer rests on
                # the rank of a group's first card, it also rests on the group staying together.
                work[ply, W_REL] |= _group_floors(X[ply], params, work[ply, W_REL])
                _close(X, ply, params, table, work, answer)
            else:
                work[ply, W_NEXT] = index + 1
                move = work[ply, W_MOVES + index]
                for field in range(ROW):
                    X[ply + 1, field] = X[ply, field]
                apply_action(X[ply + 1], params, final, move)
                ply += 1
                stats[0] += 1
                answer = _enter(X, ply, params, final, table, work, stats, target, False)
                if answer < 0:
                    _cutoff_first(X, ply, params, final, table, work, stats, target)
                continue
        # The node at ply is answered: hand the answer (and the cards it rests on) to its parent.
        if ply == root:
            return answer == 1
        rel = work[ply, W_REL]
        value = work[ply, W_VAL]
        won = X[ply, RELWIN]
        if won >= 0:
            rel |= 1 << won  # the move into this node finished a trick, won by rank
        ply -= 1
        if answer == work[ply, W_MAX]:
            stats[8 + work[ply, W_NEXT] - 1] += 1
            work[ply, W_BEST] = work[ply, W_MOVES + work[ply, W_NEXT] - 1]
            work[ply, W_KILLER] = work[ply, W_BEST]
            if work[ply, W_BEST] < 52:
                tricks_left = params[P_TRICKS] - X[ply, NPLAYED]
                stats[HIST + 53 * X[ply, TO_ACT] + work[ply, W_BEST]] += tricks_left * tricks_left
            work[ply, W_REL] = rel
            work[ply, W_VAL] = value
            _close(X, ply, params, table, work, answer)
        else:
            work[ply, W_REL] |= rel
            if work[ply, W_MAX]:
                work[ply, W_ACC] = max(work[ply, W_ACC], value)
            else:
                work[ply, W_ACC] = min(work[ply, W_ACC], value)
            answer = -1


@_jit
def query(
    X: Array, params: Array, final: Array, table: Array, stats: Array, work: Array, target: int
) -> bool:
    """The bound query for ``X[0]``: can team 0 make the final ``s`` at least ``target``?"""
    return _query(X, 0, params, final, table, stats, work, target)


@_jit
def _level(
    X: Array,
    root: int,
    params: Array,
    final: Array,
    thresholds: Array,
    table: Array,
    stats: Array,
    work: Array,
    low: int,
    high: int,
    first: int,
    step: int,
) -> int:
    """The level of ``X[root]``, known to lie in ``low..high``; ``first`` is the first probe (or -1).

    ``step``: 0 bisects; -1 probes the highest level still open next, +1 the lowest.
    Each query's fail-soft bound may settle more than the level it asked about.
    """
    probe = first
    while low < high:
        if not low < probe <= high:
            if step < 0:
                probe = high
            elif step > 0:
                probe = low + 1
            else:
                probe = (low + high + 1) // 2
        found = _query(X, root, params, final, table, stats, work, thresholds[probe])
        if stats[3]:
            return -1
        reached = _level_of(thresholds, work[root, W_VAL])
        if found:
            low = max(probe, min(reached, high))
        else:
            high = min(probe - 1, max(reached, low))
        probe = -1
    return low


@_jit
def level(
    X: Array, params: Array, final: Array, thresholds: Array, table: Array, stats: Array, work: Array
) -> int:
    """The level of ``X[0]`` (``-1`` if the node limit stopped the search)."""
    return _level(X, 0, params, final, thresholds, table, stats, work, 0, len(thresholds) - 1, -1, 0)


@_jit
def _level_of(thresholds: Array, s: int) -> int:
    """The level of a final ``s``: the highest level whose threshold it reaches."""
    level = 0
    for index in range(1, len(thresholds)):
        if thresholds[index] <= s:
            level = index
    return level


@_jit_allocating
def solve_position(
    X: Array,
    params: Array,
    final: Array,
    thresholds: Array,
    table: Array,
    stats: Array,
    work: Array,
    guess: int,
    only: int,
    out: Array,
) -> None:
    """The level of ``X[0]`` in ``out[0]`` and the level after each legal move in ``out[1 + move]``.

    ``thresholds[k]`` is the target of the query "level at least k"; levels run
    ``0 .. len(thresholds) - 1``.  Moves: cards 0..51 and ``REVEAL_MOVE``; ``-1`` marks
    moves that are not legal.  Equivalent cards get their group's value.  ``only``,
    when not 0, is a mask of the moves wanted (bit ``move``): the others are not
    searched and get ``-1`` too (the position's own level is always exact).
    """
    top = len(thresholds) - 1
    root_level = _level(X, 0, params, final, thresholds, table, stats, work, 0, top, guess, 0)
    out[0] = root_level
    if stats[3]:
        return
    for move in range(53):
        out[1 + move] = -1
    row = X[0]
    maximise = row[TO_ACT] % 2 == 0
    count = _moves(row, params, work, 0, -1, -1, stats)
    candidates = work[0, W_MOVES : W_MOVES + 16].copy()
    head = np.empty(52, dtype=np.int64)
    _group_heads(row, head)
    wanted = -1  # every move
    if only != 0:
        wanted = only & (1 << REVEAL_MOVE)
        for card in range(52):
            if only >> card & 1 and head[card] >= 0:
                wanted |= 1 << head[card]
    child = X[1]
    for index in range(count):
        move = candidates[index]
        if not (wanted >> move) & 1:
            continue
        for field in range(ROW):
            child[field] = row[field]
        apply_action(child, params, final, move)
        # A move is at most as good as the position for the side to move: ask first whether it keeps the value,
        # then, if not, one level worse at a time (a move that loses usually loses little).
        if maximise:
            level = _level(X, 1, params, final, thresholds, table, stats, work, 0, root_level, root_level, -1)
        else:
            level = _level(X, 1, params, final, thresholds, table, stats, work, root_level, top, root_level + 1, 1)
        if stats[3]:
            return
        out[1 + move] = level
    # Spread each group's value over the equivalent cards it stands for (the grouping of ``_moves``).
    for card in range(52):
        if head[card] >= 0 and head[card] != card:
            out[1 + card] = out[1 + head[card]]


@_jit
def _group_heads(row: Array, head: Array) -> None:
    """``head[card]``: for each legal card, the card whose search stands for it (the highest card of its group
    of equivalent cards, as ``_moves`` groups them, or itself); -1 for the others."""
    for card in range(52):
        head[card] = -1
    legal, future, tlen, best_card, void = _grouping_context(row)
    for suit in range(4):
        mine = (legal >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        still = (future >> (13 * suit)) & SUIT
        firsts, _ = _group_firsts(row, mine, still, suit, tlen, best_card, void)
        current = -1
        for rank in range(12, -1, -1):
            if still >> rank & 1 and mine >> rank & 1:
                if firsts >> rank & 1:
                    current = 13 * suit + rank
                head[13 * suit + rank] = current


@_jit_allocating
def new_work() -> Array:
    """The search stack of one solver."""
    work = np.zeros((MAXPLY, W_SIZE), dtype=np.int64)
    work[:, W_KILLER] = -1
    return work
