"""The scoring of ``dehla.engine.scoring`` as a table the compiled code reads, one word per way a hand can stand.

``hand_results(rules)[result_index(dealer, t0, t1, k0, k1)]`` is, for a hand dealt by ``dealer`` whose teams
have collected ``t0`` and ``t1`` tens and won ``k0`` and ``k1`` tricks, -1 while the hand goes on, else its
result packed in one word (``R_*``): the winning team + 1, its points, and the match after it were it the first
hand of a new match (the winner's score and hand-win streak, whether the match is over) and the next dealer
+ 1 (0 once the match is over).  A hand is over after its last trick (``hand_outcome``) or, with
``early_end``, once its result can no longer change (``settled_outcome``).  The table is built from the
engine's functions, never re-written: the batch simulator reads it after ``NPARAMS`` in its parameter vector.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from dehla.engine.scoring import MatchScore, Outcome, hand_outcome, next_dealer, settled_outcome
from dehla.kernel.layout import Array
from dehla.rules import Rules

__all__ = ["RESULTS_SIZE", "MAX_TRICKS", "result_index", "hand_results"]

MAX_TRICKS = 13
MAX_SEATS = 8
#: Words of the table: every dealer, tens per team and tricks per team.
RESULTS_SIZE = MAX_SEATS * 5 * 5 * (MAX_TRICKS + 1) * (MAX_TRICKS + 1)

# The fields of a result word.
R_WINNER = 0  # the winning team + 1 (0: nobody), 2 bits
R_POINTS = 2  # its points for the hand, 8 bits
R_GAINED = 10  # what the winner's match score is after the hand, 8 bits
R_STREAK = 18  # the winner's hand-win streak after it (Pagat: 1 unless the hand made a kot), 1 bit
R_OVER = 19  # the match is over after it, 1 bit
R_NEXT = 20  # the next dealer + 1 (0 once the match is over), 4 bits
FIELD_8 = 0xFF


def result_index(dealer: int, t0: int, t1: int, k0: int, k1: int) -> int:
    """Where the table holds the hand with these captures (also written out in the compiled code)."""
    return (((dealer * 5 + t0) * 5 + t1) * (MAX_TRICKS + 1) + k0) * (MAX_TRICKS + 1) + k1


def _pack(rules: Rules, dealer: int, outcome: Outcome, tens: tuple[int, int], tricks: tuple[int, int]) -> int:
    winner = outcome.winner
    if winner is None:
        return (1 << R_NEXT) * (next_dealer(rules, dealer, None, tricks) + 1)
    sweep = tens[winner] == 4
    after, _ = MatchScore().after_hand(rules, outcome, sweep)
    word = (winner + 1) << R_WINNER
    word |= outcome.points[winner] << R_POINTS
    word |= after.score[winner] << R_GAINED
    word |= after.streaks()[winner] << R_STREAK
    if after.over:
        word |= 1 << R_OVER
    else:
        word |= (next_dealer(rules, dealer, winner, tricks) + 1) << R_NEXT
    return word


@cache
def hand_results(rules: Rules) -> Array:
    """The table of hand results for ``rules`` (made once per rules value; do not write to it)."""
    table = np.full(RESULTS_SIZE, -1, dtype=np.int64)
    tricks = rules.tricks_per_hand
    for dealer in range(rules.players):
        for t0 in range(5):
            for t1 in range(5 - t0):
                for k0 in range(tricks + 1):
                    for k1 in range(tricks + 1 - k0):
                        left = tricks - k0 - k1
                        outcome: Outcome | None
                        if left == 0:
                            outcome = hand_outcome(rules, dealer, (t0, t1), (k0, k1))
                        elif rules.early_end:
                            outcome = settled_outcome(rules, dealer, (t0, t1), (k0, k1), 4 - t0 - t1, left)
                        else:
                            outcome = None
                        if outcome is not None:
                            table[result_index(dealer, t0, t1, k0, k1)] = _pack(
                                rules, dealer, outcome, (t0, t1), (k0, k1)
                            )
    table.flags.writeable = False
    return table
