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

The solver is split by concern, as DDS splits its own: ``layout`` (its part
of a row, the work row of the search stack, the statistics), ``position``
(the rules with the solver's accounting), ``table`` (the transposition
table), ``ordering`` (move ordering), ``bounds`` (bounds at trick
boundaries); this module is the search that puts them together.

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
shifted by the difference, ``table.entry_bounds``), with partition search (an entry covers every position that
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
collect from the tricks it can still win (``bounds.trick_caps``, asked after the table); and, when
asked (``P_ETC``, off by default: fewer nodes but dearer ones), enhanced transposition cutoffs (before a
trick's last card is searched, a move whose next position the bounds or the table already answer the right
way is played first).  Everything here is compiled without numba's reference counting (``_jit``), which
had cost two atomic operations per array passed to a helper or viewed by row.
"""

from __future__ import annotations

import numpy as np

from dehla.kernel.jit import jit, jit_allocating
from dehla.kernel.layout import (
    C0,
    CTENS,
    CUT_OPEN,
    DONE,
    HIDDEN,
    K0,
    K1,
    LEADER,
    LIVE,
    NPARAMS,
    NPLAYED,
    P_ABS,
    P_CAPS,
    P_ETC,
    P_IMMEDIATE,
    P_N,
    P_NODE_LIMIT,
    P_TRICKS,
    P_USES_TRICKS,
    P_W,
    RELWIN,
    STAGED,
    T0,
    T1,
    TLEN,
    TO_ACT,
    TRUMP,
    Array,
)
from dehla.kernel.rules import low_card
from dehla.solver.bounds import last_trick_bound, open_tens, sure_run_bound, trick_caps
from dehla.solver.layout import (
    HIST,
    MAXPLY,
    REVEAL_MOVE,
    ROW,
    ST_BOUNDARY_AFTER,
    ST_BOUNDARY_NODES,
    ST_CAPPED,
    ST_CUTOFFS,
    ST_LIMIT_REACHED,
    ST_NODES,
    ST_TABLE_HITS,
    STATS,
    UNBOUNDED,
    W_ACC,
    W_BEST,
    W_BOUND,
    W_BOUNDARY,
    W_COUNT,
    W_ENTRY,
    W_KILLER,
    W_MAX,
    W_MOVES,
    W_NEXT,
    W_REL,
    W_SCORES,
    W_SIZE,
    W_VAL,
)
from dehla.solver.ordering import group_floors, group_heads, moves
from dehla.solver.position import apply_action, legal_mask, s_at, s_now
from dehla.solver.table import (
    E_DATA,
    centre_in_key,
    centre_of,
    decode_best,
    encode_best,
    entry_bounds,
    make_key,
    new_table,
    probe,
    relevant_top,
    store,
)

__all__ = [
    "ROW",
    "MAXPLY",
    "NPARAMS",
    "REVEAL_MOVE",
    "STATS",
    "query",
    "level",
    "solve_position",
    "new_work",
    "apply_action",
    "legal_mask",
    "new_table",
]

_jit = jit


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
    X: Array,
    ply: int,
    params: Array,
    final: Array,
    table: Array,
    work: Array,
    stats: Array,
    target: int,
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
            now = s_now(row, params)
            need = target - now
            if need <= 0:
                work[ply, W_VAL] = now
                return 1
            left = params[P_TRICKS] - row[NPLAYED]
            most = open_tens(row, params) * params[P_W]
            if params[P_USES_TRICKS]:
                most += left
            if most < need:
                work[ply, W_VAL] = now + most
                return 0
            if row[STAGED] == 0 and row[HIDDEN] < 0 and row[CUT_OPEN] == 0:
                capped = row[TRUMP] >= 0 and params[P_CAPS] != 0
                answer = sure_run_bound(row, params, work, ply, need, most, left)
                if answer < 0 and left == 2 and not params[P_IMMEDIATE] and not params[P_USES_TRICKS]:
                    answer = last_trick_bound(row, params, work, ply, need, most)
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
                apply_action(scratch, params, final, low_card(mask))
            if complete:
                if scratch[RELWIN] >= 0 and _last_rank_matters(row, scratch, params):
                    work[ply, W_REL] = 1 << scratch[RELWIN]
                if absolute:
                    done = scratch[DONE]
                    if done < 0:
                        done = final[scratch[T0], scratch[T1], scratch[K0], scratch[K1], 2]
                    work[ply, W_VAL] = done
                    return 1 if done >= target else 0
                work[ply, W_VAL] = s_now(scratch, params)
                return 1 if work[ply, W_VAL] >= target else 0
        if not peek:
            stats[ST_BOUNDARY_NODES] += 1
            stats[ST_BOUNDARY_AFTER + row[NPLAYED]] += 1
        work[ply, W_BOUNDARY] = 1
        work[ply, W_BOUND] = bound
        make_key(row, params, work, ply)
        slot = probe(table, params, work, ply, bound, centre_of(row, params), stats)
        work[ply, W_ENTRY] = slot
        if slot >= 0:
            data = table[slot, E_DATA]
            lo, hi = entry_bounds(data, centre_of(row, params), params[P_W])
            if lo >= bound or hi < bound:
                if not peek:
                    stats[ST_TABLE_HITS] += 1
                work[ply, W_REL] = relevant_top(row, table, slot)
                if lo >= bound:
                    work[ply, W_VAL] = s_now(row, params) + lo
                    return 1
                work[ply, W_VAL] = s_now(row, params) + hi
                return 0
            best_hint = decode_best(row, params, (data >> 16) & 0xFF)
        if capped:
            # After the table, whose entries carry tighter bounds and need fewer cards when they answer.
            answer = trick_caps(row, params, work, ply, need, most, left)
            if answer >= 0:
                if not peek:
                    stats[ST_CAPPED] += 1
                work[ply, W_VAL] += now
                return answer
    if peek:
        return -1
    work[ply, W_COUNT] = moves(row, params, work, ply, best_hint, work[ply, W_KILLER], stats)
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
    code = encode_best(live, best) if best >= 0 else 255
    centre = 0 if centre_in_key(params) else X[ply, CTENS]
    store(
        table,
        params,
        live,
        work,
        ply,
        work[ply, W_REL],
        result == 1,
        work[ply, W_VAL] - s_at(X, ply, params),
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
    stats[ST_NODES] += 1
    limit = params[P_NODE_LIMIT]
    if stats[ST_LIMIT_REACHED]:
        return False
    answer = _enter(X, ply, params, final, table, work, stats, target, False)
    if answer < 0:
        _cutoff_first(X, ply, params, final, table, work, stats, target)
    while True:
        if limit and stats[ST_NODES] > limit:
            stats[ST_LIMIT_REACHED] = 1
            return False
        if answer < 0:
            # Expand the next move of the node at ply, or finish it.
            index = work[ply, W_NEXT]
            if index == work[ply, W_COUNT]:
                answer = 1 - work[ply, W_MAX]
                work[ply, W_VAL] = work[ply, W_ACC]
                # Every move failed, but only one card of each group was tried: where the answer rests on
                # the rank of a group's first card, it also rests on the group staying together.
                work[ply, W_REL] |= group_floors(X[ply], params, work[ply, W_REL])
                _close(X, ply, params, table, work, answer)
            else:
                work[ply, W_NEXT] = index + 1
                move = work[ply, W_MOVES + index]
                for field in range(ROW):
                    X[ply + 1, field] = X[ply, field]
                apply_action(X[ply + 1], params, final, move)
                ply += 1
                stats[ST_NODES] += 1
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
            stats[ST_CUTOFFS + work[ply, W_NEXT] - 1] += 1
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
def query(X: Array, params: Array, final: Array, table: Array, stats: Array, work: Array, target: int) -> bool:
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
        if stats[ST_LIMIT_REACHED]:
            return -1
        reached = _level_of(thresholds, work[root, W_VAL])
        if found:
            low = max(probe, min(reached, high))
        else:
            high = min(probe - 1, max(reached, low))
        probe = -1
    return low


@_jit
def level(X: Array, params: Array, final: Array, thresholds: Array, table: Array, stats: Array, work: Array) -> int:
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


@jit_allocating
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
    if stats[ST_LIMIT_REACHED]:
        return
    for move in range(53):
        out[1 + move] = -1
    row = X[0]
    maximise = row[TO_ACT] % 2 == 0
    count = moves(row, params, work, 0, -1, -1, stats)
    candidates = work[0, W_MOVES : W_MOVES + 16].copy()
    head = np.empty(52, dtype=np.int64)
    group_heads(row, head)
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
        if stats[ST_LIMIT_REACHED]:
            return
        out[1 + move] = level
    # Spread each group's value over the equivalent cards it stands for (the grouping of ``moves``).
    for card in range(52):
        if head[card] >= 0 and head[card] != card:
            out[1 + card] = out[1 + head[card]]


@jit_allocating
def new_work() -> Array:
    """The search stack of one solver."""
    work = np.zeros((MAXPLY, W_SIZE), dtype=np.int64)
    work[:, W_KILLER] = -1
    return work
