"""One action applied to a row (``Match.apply`` in compiled code), shared by the batch simulator and the playouts.

Actions are codes: ``0..51`` play a card, ``CALL0 + suit`` call trump, ``HIDE0 + card`` hide a card,
``REVEAL`` ask for the band-hukum card (the environments' action indices).  ``apply_code`` keeps the batch
simulator's words of the row (``dehla.kernel.layout``: the captures as masks, the logs, the hand's result from
the table ``dehla.kernel.scoring`` builds out of ``engine.scoring``) around the rules of a trick
(``dehla.kernel.rules``).  tests/kernel/test_core.py holds it to ``Match``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dehla.kernel.jit import inline
from dehla.kernel.layout import (
    ACTLOG,
    CAP0,
    CAP1,
    CENTRE,
    CHOOSER,
    DEALER,
    EARLY,
    H0,
    HIDDEN,
    K0,
    K1,
    LEADER,
    MOVER,
    MSCORE0,
    MSTREAK0,
    MUST_TRUMP,
    NACTIONS,
    NEXT_DEALER,
    NPLAYED,
    ORDER,
    P_EARLY_END,
    P_IMMEDIATE,
    P_N,
    P_RESULTS,
    P_REVEAL,
    P_REWARD,
    P_STAGED_LIMIT,
    P_STREAK_RESETS,
    P_TRICKS,
    PH_DONE,
    PH_PLAY,
    PHASE,
    PTS0,
    PTS1,
    REVEALED,
    RW_POINTS,
    SWEEP,
    TENS,
    TFROM,
    TL_COLLECTED,
    TL_LEADER,
    TL_WINNER,
    TLEN,
    TMASK,
    TO_ACT,
    TRUMP,
    WHITEWASH,
    WINNER,
    Array,
)
from dehla.kernel.rules import (
    begin_turn,
    collects,
    complete_staged_deal,
    deal_rest,
    next_trick,
    pass_turn,
    play_card,
    popcount,
    trick_winner,
    turn_up,
)
from dehla.kernel.scoring import FIELD_8, MAX_TRICKS, R_GAINED, R_NEXT, R_OVER, R_POINTS, R_STREAK, R_WINNER

__all__ = [
    "CALL0",
    "HIDE0",
    "REVEAL",
    "NCODES",
    "Params",
    "FloatArray",
    "unpack_params",
    "wrap_seat",
    "result_of",
    "apply_code",
]

Params = tuple[int, ...]  # the parameter vector's settings as a tuple: the compiler sees they never change
FloatArray = npt.NDArray[np.float32]

CALL0 = 52
HIDE0 = 56
REVEAL = 108
NCODES = 109

_popcount = popcount


@inline
def unpack_params(params: Array) -> Params:
    """The parameter vector's settings (``0 .. NPARAMS``) as a tuple: values the compiler knows cannot change
    while a batch is played."""
    return (
        params[0],
        params[1],
        params[2],
        params[3],
        params[4],
        params[5],
        params[6],
        params[7],
        params[8],
        params[9],
        params[10],
        params[11],
        params[12],
        params[13],
        params[14],
        params[15],
        params[16],
        params[17],
        params[18],
        params[19],
        params[20],
        params[21],
        params[22],
        params[23],
        params[24],
        params[25],
    )


@inline
def wrap_seat(seat: int, n: int) -> int:
    """``seat % n`` for ``seat`` in ``-n .. 2n - 1``, without a division."""
    if seat >= n:
        return seat - n
    if seat < 0:
        return seat + n
    return seat


# Applying actions ----------------------------------------------------------------------------------


@inline
def result_of(row: Array, results: Array) -> int:
    """The hand's entry in the table of hand results (``dehla.kernel.scoring``): -1 while it goes on."""
    t0 = _popcount(row[CAP0] & TENS)
    t1 = _popcount(row[CAP1] & TENS)
    index = (((row[DEALER] * 5 + t0) * 5 + t1) * (MAX_TRICKS + 1) + row[K0]) * (MAX_TRICKS + 1) + row[K1]
    return int(results[P_RESULTS + index])


@inline
def _finish(row: Array, params: Params, result: int, early: bool, rewards: FloatArray) -> None:
    """The hand is over (``Match._finish_hand``): its result, the match after it, and each team's reward."""
    winner = ((result >> R_WINNER) & 3) - 1
    points = (result >> R_POINTS) & FIELD_8
    row[PHASE] = PH_DONE
    row[TO_ACT] = -1
    row[WINNER] = winner
    row[PTS0] = points if winner == 0 else 0
    row[PTS1] = points if winner == 1 else 0
    row[EARLY] = 1 if early else 0
    tens0 = _popcount(row[CAP0] & TENS)
    tens1 = _popcount(row[CAP1] & TENS)
    row[SWEEP] = 1 if winner >= 0 and (tens0 if winner == 0 else tens1) == 4 else 0
    full = not early and row[NPLAYED] == params[P_TRICKS]
    row[WHITEWASH] = 1 if full and (row[K0] == 0 or row[K1] == 0) else 0
    if winner >= 0:
        row[MSCORE0 + winner] = (result >> R_GAINED) & FIELD_8
        row[MSTREAK0 + winner] = (result >> R_STREAK) & 1
        row[MOVER] = (result >> R_OVER) & 1
    row[NEXT_DEALER] = ((result >> R_NEXT) & 0xF) - 1
    if params[P_REWARD] == RW_POINTS:
        rewards[0] = row[PTS0] - row[PTS1]
        rewards[1] = row[PTS1] - row[PTS0]
    elif winner >= 0:
        rewards[winner] = 1.0
        rewards[1 - winner] = -1.0


@inline
def _end_trick(row: Array, params: Params, results: Array, rewards: FloatArray) -> None:
    """A trick is complete (``Match._end_trick``): its winner, the collection, the hand's end, the staged deal."""
    n = params[P_N]
    leader = row[LEADER]
    winner = wrap_seat(leader + trick_winner(row, n), n)
    team = winner & 1
    row[K0 + team] += 1
    number = row[NPLAYED] + 1
    last = number == params[P_TRICKS]
    row[CENTRE] |= row[TMASK]
    collected = -1
    if collects(row, params[P_IMMEDIATE], params[P_STREAK_RESETS], winner, last):
        row[CAP0 + team] |= row[CENTRE]
        row[CENTRE] = 0
        collected = winner
    row[TL_LEADER + number - 1] = leader
    row[TL_WINNER + number - 1] = winner
    row[TL_COLLECTED + number - 1] = collected
    row[NPLAYED] = number
    if last or params[P_EARLY_END]:
        result = result_of(row, results)
        if result >= 0:
            _finish(row, params, result, not last, rewards)
            return
    complete_staged_deal(row, n, number, params[P_STAGED_LIMIT])
    row[TMASK] = 0
    revealed = next_trick(row, params[P_REVEAL], row[CHOOSER], winner)
    if revealed >= 0:
        row[REVEALED] = revealed


@inline
def apply_code(row: Array, params: Params, results: Array, code: int, rewards: FloatArray) -> None:
    """Apply one legal action (checked before) to the hand (``Match.apply``); ``rewards`` gets the result if it
    ends.  ``results`` is the parameter vector, whose table of hand results ``_end_trick`` reads."""
    row[ACTLOG + row[NACTIONS]] = code
    row[NACTIONS] += 1
    n = params[P_N]
    seat = row[TO_ACT]
    revealed = -1
    if code < 52:
        position = row[TLEN]
        play_card(row, code)
        row[TMASK] |= 1 << code
        row[ORDER + row[NPLAYED] * n + position] = code
        if position + 1 == n:
            _end_trick(row, params, results, rewards)
            return
        revealed = pass_turn(row, params[P_REVEAL], row[CHOOSER], seat + 1 if seat + 1 < n else 0)
    elif code < HIDE0:
        # Called trump: the rest of every hand arrives; the caller leads with trump known.
        row[TRUMP] = code - CALL0
        deal_rest(row, n)
        row[PHASE] = PH_PLAY
        row[LEADER] = seat
        row[TFROM] = 0
    elif code < REVEAL:
        card = code - HIDE0
        row[H0 + seat] ^= 1 << card
        row[HIDDEN] = card
        row[PHASE] = PH_PLAY
        row[LEADER] = seat
        revealed = begin_turn(row, params[P_REVEAL], row[CHOOSER], seat)
    else:
        revealed = turn_up(row, row[CHOOSER])
        row[MUST_TRUMP] = 1
    if revealed >= 0:
        row[REVEALED] = revealed
