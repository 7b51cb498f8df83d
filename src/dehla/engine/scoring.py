"""Hand results, the match score and the next dealer: pure functions of the rules.

Kept apart from the play engine so that the scorekeeper (people playing with
real cards) and the engine share one definition of every scoring rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from dehla.rules import Rules

__all__ = ["Outcome", "hand_outcome", "settled_outcome", "next_dealer", "MatchScore"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A hand's result: the winning team (or ``None``) and what each team scores."""

    winner: int | None
    points: tuple[int, int]


_NOBODY = Outcome(None, (0, 0))
#: Every possible win, made once: outcomes are immutable, and every hand of every playout ends in one.
_WINS: dict[tuple[int, int], Outcome] = {
    (team, amount): Outcome(team, (amount, 0) if team == 0 else (0, amount))
    for team in (0, 1)
    for amount in (1, 20, 30, 80, 160)
}


def _win(team: int, amount: int) -> Outcome:
    return _WINS[team, amount]


def hand_outcome(rules: Rules, dealer: int, tens: tuple[int, int], tricks: tuple[int, int]) -> Outcome:
    """Who wins a finished hand with these tens and tricks per team, and the points."""
    t0, t1 = tens
    k0, k1 = tricks
    if rules.scoring == "pagat":
        # 3 or 4 tens win; 2-2 goes to the team that did not deal (SPEC 2, 3.6).
        if t0 != t1:
            return _win(0 if t0 > t1 else 1, 1)
        return _win(1 - dealer % 2, 1)
    if rules.scoring == "mendikot":
        if t0 != t1:
            return _win(0 if t0 > t1 else 1, 1)
        if k0 == k1:
            return _NOBODY  # a drawn hand: only possible with 6 or 8 players
        return _win(0 if k0 > k1 else 1, 1)
    # Taash: more tens wins, 4-0 = 80, 3-1 = 30; 2-2 = 20 to the team with more tricks.
    if t0 == t1:
        if k0 == k1:
            return _NOBODY
        return _win(0 if k0 > k1 else 1, 20)
    team = 0 if t0 > t1 else 1
    if rules.trick_minimum and 2 * (k0 if team == 0 else k1) <= k0 + k1:
        return _NOBODY  # the team with more tens also needs most of the tricks
    if max(t0, t1) == 4:
        return _win(team, 160 if rules.sweep_bonus == "double" else 80)
    return _win(team, 30)


def settled_outcome(
    rules: Rules, dealer: int, tens: tuple[int, int], tricks: tuple[int, int], tens_left: int, tricks_left: int
) -> Outcome | None:
    """The hand's result if it can no longer change (SPEC 3.7), else ``None``.

    The result is settled when it is the same whichever team takes each of the
    ``tens_left`` uncollected tens and each of the ``tricks_left`` tricks.  For a
    fixed split of the tens, the result moves monotonically with the tricks, so
    comparing the two extreme trick splits covers every split between them.
    """
    t0, t1 = tens
    k0, k1 = tricks
    if tens_left and not rules.trick_minimum:
        # Moving one ten between the teams always changes the tens split and so the points.
        return None
    first: Outcome | None = None
    for to_team0 in range(tens_left + 1):
        final_tens = (t0 + to_team0, t1 + tens_left - to_team0)
        for tricks_to_team0 in (0, tricks_left):
            final_tricks = (k0 + tricks_to_team0, k1 + tricks_left - tricks_to_team0)
            outcome = hand_outcome(rules, dealer, final_tens, final_tricks)
            if first is None:
                first = outcome
            elif outcome != first:
                return None
    return first


def next_dealer(rules: Rules, dealer: int, winner: int | None, tricks_won: tuple[int, int]) -> int:
    """Who deals the next hand."""
    players = rules.players
    after = (dealer + 1) % players
    if rules.rotation == "simple" or rules.scoring == "taash" or winner is None:
        return after
    dealing_team = dealer % 2
    if winner == dealing_team:
        return after
    if rules.scoring == "mendikot" and tricks_won[dealing_team] == 0:
        # The dealer's team lost every trick: the deal passes to the partner (or on).
        return (dealer + 2) % players if rules.after_whitewash == "partner" else after
    return dealer


class MatchScore(NamedTuple):
    """The running match: kots (Pagat scoring) or points per team, and Pagat's hand-win streak.

    An immutable named tuple: every hand of every playout makes a new one.
    """

    score: tuple[int, int] = (0, 0)
    streak_team: int | None = None
    streak: int = 0
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def streaks(self) -> tuple[int, int]:
        if self.streak_team is None:
            return (0, 0)
        return (self.streak, 0) if self.streak_team == 0 else (0, self.streak)

    def after_hand(self, rules: Rules, outcome: Outcome, sweep: bool) -> tuple[MatchScore, bool]:
        """The match after a scored hand, and whether the hand earned a kot."""
        winner = outcome.winner
        if winner is None:
            return self, False
        kot = False
        streak_team, streak = self.streak_team, self.streak
        if rules.scoring == "pagat":
            streak = streak + 1 if streak_team == winner else 1
            streak_team = winner
            kot = sweep or (rules.streak_kot > 0 and streak >= rules.streak_kot)
            gained = 1 if kot else 0
            if kot:  # after a kot of either kind both streaks restart (SPEC 3.6)
                streak_team, streak = None, 0
        else:
            gained = outcome.points[winner]
        score = (self.score[0] + gained, self.score[1]) if winner == 0 else (self.score[0], self.score[1] + gained)
        over = score[winner] >= rules.target or (rules.sweep_bonus == "match" and sweep)
        winner = winner if over else None  # from here on, the match's winner
        return MatchScore(score=score, streak_team=streak_team, streak=streak, winner=winner), kot
