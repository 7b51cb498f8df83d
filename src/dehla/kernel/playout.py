"""Compiled playouts: a fast rule-based policy for every seat, and sampled worlds played to the end of the hand.

The search bots value an action by playing many sampled deals ("worlds") to the end of the hand from the
position after it; this is the part that must be fast, so it runs here in numba over rows
(``dehla.kernel.layout``), with the rules of ``dehla.kernel.rules`` and ``dehla.kernel.step.apply_code``
(no rule is written again).

The policy (``policy_code``) follows the ``heuristic`` bot's main rules (docs/bots.md), from what the seat to
act may know: its own cards, the cards played and the set of cards still out (not who holds them).

* Call trump / hide the band-hukum card: the longest suit, honours breaking ties; hide its lowest card.
* Lead: a trump while holding more trumps than are out; else the top card of a side suit when no card out
  beats it (the highest such); else the lowest card of the longest side suit, never a ten if avoidable.
* Partner winning: on a sure trick (last to play, or its card unbeatable by any card out) drop a ten;
  otherwise follow low, never overtaking it.
* Opponent winning: the last to play takes the trick with a ten if one wins, else with the lowest card that
  wins; earlier in the trick it takes with the lowest winner no card out beats, or when the trick (or the
  centre) holds a ten with its highest winner; otherwise it plays its lowest card that is not a ten.
* Band hukum: the chooser asks for its card whenever it may; anyone else when an opponent is winning.

``tests/kernel/test_playout.py`` holds the playouts to the engine (the same cards and plays give the same
result) and checks every action the policy takes is legal.
"""

from __future__ import annotations

from dehla.kernel.jit import inline, jit
from dehla.kernel.layout import (
    C0,
    CAP0,
    CAP1,
    CENTRE,
    CHOOSER,
    CUT_OPEN,
    H0,
    HIDDEN,
    LEADER,
    LED,
    P_N,
    P_REVEAL,
    PH_CALL,
    PH_DONE,
    PH_HIDE,
    PHASE,
    PN0,
    PTS0,
    PTS1,
    R_PTS0,
    R_PTS1,
    R_TENS0,
    R_TENS1,
    R_WINNER,
    RESULT_WORDS,
    ROW,
    SUIT,
    TENS,
    TFROM,
    TLEN,
    TO_ACT,
    TRUMP,
    WINNER,
    Array,
)
from dehla.kernel.rules import can_ask_reveal, legal_cards, low_card, play_card, popcount, trick_winner
from dehla.kernel.step import CALL0, HIDE0, REVEAL, FloatArray, Params, apply_code, unpack_params

__all__ = [
    "RESULT_WORDS",
    "R_WINNER",
    "R_PTS0",
    "R_PTS1",
    "R_TENS0",
    "R_TENS1",
    "policy_code",
    "policy_action",
    "play_out",
    "play_worlds",
    "warm_playouts",
]

_RANKS = 1 | (1 << 13) | (1 << 26) | (1 << 39)  # one card of each suit at rank 0 (the two)
_HONOUR = (0, 0, 0, 0, 0, 0, 0, 0, 40, 30, 45, 60, 80)  # 10, J, Q, K, A: the heuristic's honours x 100


@inline
def _high_card(mask: int) -> int:
    """The highest card of a non-empty mask."""
    card = 0
    for index in range(52):
        if (mask >> index) & 1:
            card = index
    return card


@inline
def _suit_mask(suit: int) -> int:
    return int(SUIT << (13 * suit)) if suit >= 0 else 0


@inline
def _lowest(mask: int, trump: int) -> int:
    """The lowest-ranked card of a non-empty mask, a side-suit card before a trump of the same rank."""
    side = mask & ~_suit_mask(trump)
    for pool in (side, mask):
        for rank in range(13):
            cards = pool & (_RANKS << rank)
            if cards:
                return low_card(cards)
    return low_card(mask)


@inline
def _highest(mask: int, trump: int) -> int:
    """The highest-ranked card of a non-empty mask, a trump before a side-suit card of the same rank."""
    trumps = mask & _suit_mask(trump)
    for pool in (trumps, mask):
        for rank in range(12, -1, -1):
            cards = pool & (_RANKS << rank)
            if cards:
                return low_card(cards)
    return low_card(mask)


@inline
def _bosses(cards: int, out: int) -> int:
    """The cards of ``cards`` that no card still out of their suit beats (by rank in the suit)."""
    result = 0
    for suit in range(4):
        mine = cards & _suit_mask(suit)
        if mine:
            top = _high_card(mine)
            above = out & _suit_mask(suit) & ~((1 << (top + 1)) - 1)
            if above == 0:
                result |= 1 << top
    return result


@inline
def _best_suit(cards: int) -> int:
    """The longest, strongest suit of ``cards`` (``heuristic.choose_trump_call``: length, then honours)."""
    best = 0
    best_value = -1
    for suit in range(4):
        value = 0
        mine = cards & _suit_mask(suit)
        for rank in range(13):
            if (mine >> (13 * suit + rank)) & 1:
                value += 100 + _HONOUR[rank]
        if value > best_value:
            best_value = value
            best = suit
    return best


@inline
def _wins_now(row: Array, card: int) -> bool:
    """Would ``card`` win the trick as it stands if played now?  Played on the row, then taken back."""
    seat = row[TO_ACT]
    hand = row[H0 + seat]
    led = row[LED]
    cut = row[CUT_OPEN]
    trump = row[TRUMP]
    tfrom = row[TFROM]
    tlen = row[TLEN]
    play_card(row, card)
    wins = trick_winner(row, tlen + 1) == tlen
    row[H0 + seat] = hand
    row[LED] = led
    row[CUT_OPEN] = cut
    row[TRUMP] = trump
    row[TFROM] = tfrom
    row[TLEN] = tlen
    return bool(wins)


@inline
def _out(row: Array, n: int, seat: int) -> int:
    """Every card not yet played and not in ``seat``'s hand (a set every seat knows, not who holds what)."""
    out = 0
    for other in range(n):
        out |= row[PN0 + other]
        if other != seat:
            out |= row[H0 + other]
    if row[HIDDEN] >= 0:
        out |= 1 << row[HIDDEN]
    return int(out)


@inline
def _lead(hand: int, out: int, trump: int) -> int:
    trumps = hand & _suit_mask(trump)
    if trumps and popcount(trumps) > popcount(out & _suit_mask(trump)):
        return _highest(trumps, trump) if _bosses(trumps, out) & trumps else _lowest(trumps, trump)
    side = hand & ~_suit_mask(trump)
    bosses = _bosses(side, out) & side
    if bosses:
        return _highest(bosses, trump)
    if side:
        longest = 0
        length = -1
        for suit in range(4):
            count = popcount(side & _suit_mask(suit) & ~TENS)
            if count > length:
                length = count
                longest = suit
        pool = side & _suit_mask(longest) & ~TENS
        if pool:
            return _lowest(pool, trump)
    plain = hand & ~TENS
    return _lowest(plain if plain else hand, trump)


@inline
def _follow(row: Array, n: int, seat: int, legal: int, out: int, trump: int) -> int:
    tlen = row[TLEN]
    leader = row[LEADER]
    best = trick_winner(row, tlen)
    partner_wins = ((leader + best) % n) % 2 == seat % 2
    last = tlen == n - 1
    winners = 0
    pool = legal
    while pool:
        card = low_card(pool)
        pool &= pool - 1
        if _wins_now(row, card):
            winners |= 1 << card
    losers = legal & ~winners
    if partner_wins:
        top = row[C0 + best]
        suit = top // 13
        unbeaten = (out & _suit_mask(suit) & ~((1 << (top + 1)) - 1)) == 0
        if last or (unbeaten and (trump < 0 or suit == trump or (out & _suit_mask(trump)) == 0)):
            tens = legal & TENS
            if tens:
                return low_card(tens)
            return _lowest(losers if losers else legal, trump)
        safe = losers & ~TENS
        return _lowest(safe if safe else (losers if losers else legal), trump)
    if winners:
        if last:
            tens = winners & TENS
            return low_card(tens) if tens else _lowest(winners, trump)
        sure = _bosses(winners, out) & winners
        if sure:
            return _lowest(sure, trump)
        trick = 0
        for index in range(tlen):
            trick |= 1 << row[C0 + index]
        if (trick | row[CENTRE]) & TENS:
            return _highest(winners, trump)
    plain = losers & ~TENS
    if plain:
        return _lowest(plain, trump)
    return _lowest(losers if losers else legal, trump)


@inline
def policy_code(row: Array, params: Params) -> int:
    """The policy's action code for the seat to act in ``row`` (-1 once the hand is over)."""
    phase = row[PHASE]
    if phase == PH_DONE:
        return -1
    seat = row[TO_ACT]
    if phase == PH_CALL:
        return CALL0 + _best_suit(row[H0 + seat])
    if phase == PH_HIDE:
        cards = row[H0 + seat] | row[PN0 + seat]
        return HIDE0 + low_card(cards & _suit_mask(_best_suit(cards)))
    n = params[P_N]
    trump = row[TRUMP]
    out = _out(row, n, seat)
    if can_ask_reveal(row, params[P_REVEAL]):
        if seat == row[CHOOSER]:
            return REVEAL
        best = trick_winner(row, row[TLEN])
        if ((row[LEADER] + best) % n) % 2 != seat % 2:
            return REVEAL
    legal = legal_cards(row)
    if row[TLEN] == 0:
        return _lead(row[H0 + seat], out, trump)
    return _follow(row, n, seat, legal, out, trump)


@jit
def policy_action(row: Array, params: Array) -> int:
    """``policy_code`` for one row (tests and the agreement measure call it; the row is left as it was)."""
    return policy_code(row, unpack_params(params))


@inline
def _finish_out(row: Array, params: Params, results: Array, rewards: FloatArray, out: Array) -> None:
    while row[PHASE] != PH_DONE:
        apply_code(row, params, results, policy_code(row, params), rewards)
    out[R_WINNER] = row[WINNER]
    out[R_PTS0] = row[PTS0]
    out[R_PTS1] = row[PTS1]
    out[R_TENS0] = popcount(row[CAP0] & TENS)
    out[R_TENS1] = popcount(row[CAP1] & TENS)


@jit
def play_out(rows: Array, params: Array, rewards: FloatArray, out: Array) -> None:
    """Play every row to the end of its hand with the policy for every seat; ``out[i]``: row ``i``'s result
    (``RESULT_WORDS``).  The rows are played in place (their logs then hold the actions taken)."""
    p = unpack_params(params)
    for index in range(rows.shape[0]):
        _finish_out(rows[index], p, params, rewards, out[index])


@jit
def play_worlds(worlds: Array, params: Array, codes: Array, scratch: Array, rewards: FloatArray, out: Array) -> None:
    """For every world (a row) and every action code: the action, then the policy to the end of the hand.

    ``out[w, a]`` is the result (``RESULT_WORDS``) of world ``w`` after ``codes[a]``; the worlds are left as
    they were (each playout runs on ``scratch``, one row).
    """
    p = unpack_params(params)
    for world in range(worlds.shape[0]):
        for action in range(codes.shape[0]):
            for word in range(ROW):
                scratch[word] = worlds[world, word]
            apply_code(scratch, p, params, codes[action], rewards)
            _finish_out(scratch, p, params, rewards, out[world, action])


def warm_playouts() -> None:
    """Compile (or load from the cache) every playout entry point the search bots call, with their types.

    On rows of a finished hand and no action, so nothing is played: ``dehla.solver.warm`` calls it beside
    the solver's kernel, so a served bot's first playout does not wait for a compile.
    """
    import numpy as np

    from dehla.kernel.layout import NPARAMS
    from dehla.kernel.scoring import RESULTS_SIZE

    params = np.zeros(NPARAMS + RESULTS_SIZE, dtype=np.int64)
    params[P_N] = 4
    worlds = np.zeros((1, ROW), dtype=np.int64)
    worlds[0, PHASE] = PH_DONE
    codes = np.zeros(0, dtype=np.int64)
    rewards = np.zeros(2, dtype=np.float32)
    out = np.zeros((1, 0, RESULT_WORDS), dtype=np.int64)
    play_worlds(worlds, params, codes, np.zeros(ROW, dtype=np.int64), rewards, out)
