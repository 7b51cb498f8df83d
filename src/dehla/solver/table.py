"""The solver's transposition table, built as DDS builds its own.

Per position *shape* (suit lengths per holder, leader, trump and streak state) a list of any number of
entries keyed by the relative ranks of the live cards (positions that differ only in cards already played
share an entry), the entry that last answered moved to the front, a new generation per solve and, once the
pool is full, replacement of the oldest entries with the fewest cards first; the centre's tens are not in
the key (an entry's bounds are shifted by the difference, ``entry_bounds``), with partition search (an
entry covers every position that differs only in low cards the proof never needed; a ten among those low
cards only needs the same holder).  The best move of an entry is kept by its rank among the live cards.
"""

from __future__ import annotations

import numpy as np

from dehla.kernel.jit import jit, jit_allocating
from dehla.kernel.layout import (
    CTENS,
    CUT_OPEN,
    DONE,
    H0,
    HIDDEN,
    K0,
    LASTW,
    LEADER,
    LIVE,
    P_ABS,
    P_CENTRE_OUT,
    P_CHOOSER,
    P_GEN,
    P_LB,
    P_N,
    P_PARTITION,
    P_W,
    PN0,
    STAGED,
    SUIT,
    T0,
    T1,
    TRUMP,
    Array,
)
from dehla.kernel.rules import popcount
from dehla.solver.layout import REVEAL_MOVE, ST_ENTRIES_WALKED, ST_SHAPES_FOUND, W_KEY, W_PAT
from dehla.solver.position import live_cards

_jit = jit


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
WALK = 48  # entries of a shape's list a probe looks at (the list is kept most recently useful first)


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
def make_key(row: Array, params: Array, work: Array, ply: int) -> None:
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
    if centre_in_key(params):
        misc |= row[CTENS] << 14
    if params[P_ABS]:
        misc |= (row[T0] << 17) | (row[T1] << 20) | (row[K0] << 23) | (row[DONE] + 1) << 28
    work[ply, W_KEY + 4] = misc


@_jit
def centre_in_key(params: Array) -> bool:
    """Absolute mode keys the centre's tens; relative mode keeps them with each entry (``entry_bounds``)."""
    return bool(params[P_ABS] or not params[P_CENTRE_OUT])


@_jit
def centre_of(row: Array, params: Array) -> int:
    """The centre's tens as an entry records them: 0 where the key holds them."""
    return 0 if centre_in_key(params) else int(row[CTENS])


@_jit
def _hash(work: Array, ply: int) -> int:
    """The hash of the key in ``work[ply]``."""
    h = 0x12345
    for index in range(KEYW):
        h = (h ^ work[ply, W_KEY + index]) * 0x100000001B3
        h ^= h >> 29
    return int(h)


@jit_allocating
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
def entry_bounds(data: int, centre: int, weight: int) -> tuple[int, int]:
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
def probe(table: Array, params: Array, work: Array, ply: int, bound: int, centre: int, stats: Array) -> int:
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
    stats[ST_SHAPES_FOUND] += 1
    walked = 0
    while entry >= 0 and walked < WALK:
        walked += 1
        stats[ST_ENTRIES_WALKED] += 1
        if _pattern_matches(table, entry, work, ply):
            lo, hi = entry_bounds(table[entry, E_DATA], centre, weight)
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
def relevant_top(row: Array, table: Array, slot: int) -> int:
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
            top = popcount(((live >> (13 * suit)) & SUIT) >> lowest)
    stored = (word & ((1 << (4 * top)) - 1)) | (top << 52) | (ten_at << 56)
    if ten_at > top:
        # The ten is among the irrelevant low cards: only its holder matters.
        stored |= ((word >> (4 * (ten_at - 1))) & 0xF) << 60
    return int(stored)


@_jit
def store(
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
    (and, moved by ``entry_bounds``, in the centre's tens: ``centre`` is this position's)."""
    if result:
        amount = min(max(amount, 0), 254)
    else:
        amount = min(max(amount, 0), 255)
    partition = params[P_PARTITION] != 0
    word0 = _entry_word(work[ply, W_PAT], rel, live, 0, partition)
    word1 = _entry_word(work[ply, W_PAT + 1], rel, live, 1, partition)
    word2 = _entry_word(work[ply, W_PAT + 2], rel, live, 2, partition)
    word3 = _entry_word(work[ply, W_PAT + 3], rel, live, 3, partition)
    depth = popcount(live)
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
def encode_best(live_mask: int, card: int) -> int:
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
def decode_best(row: Array, params: Array, code: int) -> int:
    if code == 255:
        return -1
    suit = code // 16
    index = code % 16
    live = (live_cards(row, params) >> (13 * suit)) & SUIT
    for rank in range(12, -1, -1):
        if live >> rank & 1:
            if index == 0:
                return 13 * suit + rank
            index -= 1
    return -1
