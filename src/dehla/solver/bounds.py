"""The solver's bounds at trick boundaries: what a team surely makes, and what it can still collect.

The tens a team has already banked, the tens and tricks still open, the sure winners of the leader or of a
partner it can reach (two in a row collect the centre with the tens the run's tricks surely hold), two
tricks from the end a top trump that surely wins the last trick, and caps on what a team can still collect
from the tricks it can still win (``trick_caps``, asked after the table).
"""

from __future__ import annotations

from dehla.kernel.jit import jit
from dehla.kernel.layout import (
    CTENS,
    H0,
    LASTW,
    LEADER,
    LIVE,
    P_IMMEDIATE,
    P_N,
    P_USES_TRICKS,
    P_W,
    SUIT,
    TENS,
    TRUMP,
    Array,
)
from dehla.kernel.rules import popcount
from dehla.solver.layout import W_REL, W_VAL
from dehla.solver.position import live_cards

_jit = jit

# Tricks left between which ``trick_caps`` answers from a team's trick count alone while tens are still open (the
# team is then credited with every one of them): that bound is loose, so where it answers a query the solve's later
# queries (about other levels) find no table entries, history or tight bounds from that subtree.  Two tricks from
# the end the search costs a few nodes and finds the tens too; early on the open tens make it too loose to pay
# (measured on the positions of ``tests/test_solver_nodes.py``).  With no ten open the trick count is the whole
# bound and it answers at any depth.
TRICK_CAP_LEFT = (3, 6)


@_jit
def open_tens(row: Array, params: Array) -> int:
    """Tens not yet banked by either team (in hands, still to be dealt, hidden, in the trick or the centre)."""
    return int(popcount(live_cards(row, params) & TENS) + row[CTENS])


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
                    length = popcount((cards_of >> (13 * suit)) & SUIT)
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
            if (cards_of >> (13 * trump)) & SUIT and popcount(cards_of & ~(SUIT << (13 * trump))) < side_rounds:
                run = trump_run
                rel = trump_rel
                entry = trump_entry
                per_suit = trump_run << (4 * trump)
                break
    if not entry:
        return 0, 0, 0
    return run, rel, per_suit


@_jit
def sure_run_bound(row: Array, params: Array, work: Array, ply: int, need: int, most: int, left: int) -> int:
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
                if popcount(((live >> (13 * suit)) & SUIT) >> 9) < held:
                    dumped += 1
            elif (partner_hand >> ten) & 1:
                dumped += 1
            else:
                for other in range(n):
                    opponent = row[H0 + other]
                    length = popcount((opponent >> (13 * suit)) & SUIT)
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
            gain = open_tens(row, params) * params[P_W]
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
def last_trick_bound(row: Array, params: Array, work: Array, ply: int, need: int, most: int) -> int:
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
            others += popcount((mine >> (13 * trump)) & SUIT)
    if holder < 0:
        return -1
    hand = row[H0 + holder]
    mine = popcount((hand >> (13 * trump)) & SUIT)
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
def trick_caps(row: Array, params: Array, work: Array, ply: int, need: int, most: int, left: int) -> int:
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
            count = popcount(above)
            if count > most_above:
                most_above = count
                low = 0
                while not (above >> low) & 1:
                    low += 1
                lowest_counted = shift + highest + 1 + low
            if (hand >> top_card) & 1:
                others = popcount(trumps) - popcount(mine)
                keeper = popcount(mine) > others or (hand & ~(SUIT << shift)) == 0
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
