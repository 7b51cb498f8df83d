"""The scorekeeper for people playing with real cards: each hand's tens (and tricks) in, the match out.

Every rule comes from ``dehla.engine.scoring`` (``hand_outcome``,
``settled_outcome``, ``next_dealer``, ``MatchScore``), the same functions the
engine scores with.  A result that no real hand can have is refused with a
``WebError`` whose code and params the browser words in the player's language
(the templates are registered below, and the catalogs translate them).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from dehla.engine.scoring import MatchScore, hand_outcome, next_dealer, settled_outcome
from dehla.errors import RulesError
from dehla.rules import Rules, RulesJSON, parse_rules
from dehla.web.messages import WebError, register

__all__ = [
    "score_hands",
    "needs_tricks",
    "check_hand",
    "MAX_HANDS",
    "SCOREKEEPER_TEMPLATES",
    "ScoreSheet",
    "ScoredHand",
]

MAX_HANDS = 500
#: How many tens a pack has: every preset plays with all four.
TENS = 4

#: The scorekeeper's refusals (code -> English template); ``hand`` is the 1-based number of the hand.
SCOREKEEPER_TEMPLATES: dict[str, str] = {
    "scorekeeper_request": "Send the rules, the first dealer and the list of hands.",
    "scorekeeper_rules": "The scorekeeper knows no rules called {text}.",
    "scorekeeper_options": "The scorekeeper cannot use these rules options.",
    "first_dealer": "The first dealer (first_dealer) must be a seat number from 0 to {max}.",
    "too_many_hands": "The scorekeeper keeps at most {max} hands in one match.",
    "hand_format": "Hand {hand}: give the tens (and, where they count, the tricks) of each team.",
    "tens_numbers": "Hand {hand}: the tens must be two whole numbers, one per team.",
    "tricks_numbers": "Hand {hand}: the tricks must be two whole numbers, one per team.",
    "tens_range": "Hand {hand}: a team cannot take more than {max} tens.",
    "tricks_range": "Hand {hand}: a team cannot take more than {max} tricks.",
    "tens_sum": "Hand {hand}: the tens of the two teams must add up to 4, not {n}.",
    "tricks_sum": "Hand {hand}: the tricks of the two teams must add up to {max}, not {n}.",
    "tens_over": "Hand {hand}: there are only 4 tens, not {n}.",
    "tricks_over": "Hand {hand}: a hand has only {max} tricks, not {n}.",
    "tens_without_tricks": "Hand {hand}: a team that took tens must have taken at least one trick.",
    "all_tricks_all_tens": "Hand {hand}: when all {max} tricks have been played, all 4 tens have been taken.",
    "not_settled": "Hand {hand}: a Taash hand ends early only when its result can no longer change; "
    "with these tens and tricks it still could, so give the tens and tricks of the whole hand.",
    "match_over_already": "Hand {hand}: the match was already over; start a new match.",
}
register(SCOREKEEPER_TEMPLATES)


class ScoredHand(TypedDict):
    """One entered hand, scored: who won it and how, and the match after it (``tricks`` null under Pagat rules)."""

    dealer: int
    tens: list[int]
    tricks: list[int] | None
    winner: int | None
    points: list[int]
    sweep: bool
    kot: bool
    ended_early: bool
    score: list[int]
    streak: list[int]
    next_dealer: int | None


class ScoreSheet(TypedDict):
    """The scorekeeper's answer: the rules, every hand scored, who deals next and the match's standing."""

    rules: RulesJSON
    needs_tricks: bool
    tricks_per_hand: int
    unit: Literal["kots", "points"]
    target: int
    hands: list[ScoredHand]
    dealer: int | None
    score: list[int]
    streak: list[int]
    over: bool
    winner: int | None


def needs_tricks(rules: Rules) -> bool:
    """Pagat rules never count tricks; Mendikot and Taash do (2-2 hands, whitewash, Taash's minimum)."""
    return rules.scoring != "pagat"


def _pair(value: object, code: str, hand: int) -> tuple[int, int]:
    """Two counts, one per team: whole numbers, never negative (a bool is not a number here)."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(item, int) and not isinstance(item, bool) and item >= 0 for item in value)
    ):
        raise WebError(code, hand=hand + 1)
    return value[0], value[1]


def check_hand(rules: Rules, dealer: int, index: int, hand: object) -> tuple[tuple[int, int], tuple[int, int]]:
    """The tens and tricks of one entered hand, or a ``WebError`` saying why no real hand ends like that."""
    number = index + 1
    if not isinstance(hand, dict):
        raise WebError("hand_format", hand=number)
    full = rules.tricks_per_hand
    tens = _pair(hand.get("tens"), "tens_numbers", index)
    if max(tens) > TENS:
        raise WebError("tens_range", hand=number, max=TENS)
    if not needs_tricks(rules):
        if sum(tens) != TENS:
            raise WebError("tens_sum", hand=number, n=sum(tens))
        return tens, (0, 0)
    tricks = _pair(hand.get("tricks"), "tricks_numbers", index)
    if max(tricks) > full:
        raise WebError("tricks_range", hand=number, max=full)
    if not rules.early_end:
        if sum(tens) != TENS:
            raise WebError("tens_sum", hand=number, n=sum(tens))
        if sum(tricks) != full:
            raise WebError("tricks_sum", hand=number, max=full, n=sum(tricks))
    else:
        if sum(tens) > TENS:
            raise WebError("tens_over", hand=number, n=sum(tens))
        if sum(tricks) > full:
            raise WebError("tricks_over", hand=number, max=full, n=sum(tricks))
        if sum(tricks) == full and sum(tens) != TENS:
            # the winner of the last trick takes whatever is left in the centre
            raise WebError("all_tricks_all_tens", hand=number, max=full)
    if any(tens[team] and not tricks[team] for team in (0, 1)):
        raise WebError("tens_without_tricks", hand=number)
    # SPEC 3.7: a Taash hand stops before its last trick only once its result can no longer change
    early = rules.early_end and sum(tricks) < full
    if early and settled_outcome(rules, dealer, tens, tricks, TENS - sum(tens), full - sum(tricks)) is None:
        raise WebError("not_settled", hand=number)
    return tens, tricks


def score_hands(request: object) -> ScoreSheet:
    """Score ``{"rules": ..., "first_dealer": SEAT, "hands": [{"tens": [a, b], "tricks": [x, y]}, ...]}``."""
    if not isinstance(request, dict):
        raise WebError("scorekeeper_request")
    value = request.get("rules", "pagat")
    try:
        rules = parse_rules(value)
    except RulesError:
        # the page sends a preset it was offered: only a program gets here, and the name says enough
        if isinstance(value, str):
            raise WebError("scorekeeper_rules", text=value[:32]) from None
        raise WebError("scorekeeper_options") from None
    dealer = request.get("first_dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise WebError("first_dealer", max=rules.players - 1)
    hands = request.get("hands", [])
    if not isinstance(hands, list):
        raise WebError("scorekeeper_request")
    if len(hands) > MAX_HANDS:
        raise WebError("too_many_hands", max=MAX_HANDS)
    score = MatchScore()
    rows: list[ScoredHand] = []
    full = rules.tricks_per_hand
    for index, hand in enumerate(hands):
        if score.over:
            raise WebError("match_over_already", hand=index + 1)
        tens, tricks = check_hand(rules, dealer, index, hand)
        outcome = hand_outcome(rules, dealer, tens, tricks)
        sweep = outcome.winner is not None and tens[outcome.winner] == TENS
        score, kot = score.after_hand(rules, outcome, sweep)
        following = None if score.over else next_dealer(rules, dealer, outcome.winner, tricks)
        rows.append(
            {
                "dealer": dealer,
                "tens": list(tens),
                "tricks": list(tricks) if needs_tricks(rules) else None,
                "winner": outcome.winner,
                "points": list(outcome.points),
                "sweep": sweep,
                "kot": kot,
                "ended_early": rules.early_end and sum(tricks) < full,
                "score": list(score.score),
                "streak": list(score.streaks()),
                "next_dealer": following,
            }
        )
        if following is not None:
            dealer = following
    return {
        "rules": rules.to_json(),
        "needs_tricks": needs_tricks(rules),
        "tricks_per_hand": full,
        "unit": "kots" if rules.scoring == "pagat" else "points",
        "target": rules.target,
        "hands": rows,
        "dealer": None if score.over else dealer,
        "score": list(score.score),
        "streak": list(score.streaks()),
        "over": score.over,
        "winner": score.winner,
    }
