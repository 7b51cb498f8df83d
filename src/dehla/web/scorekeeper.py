"""The scorekeeper for people playing with real cards: each hand's tens (and tricks) in, the match out.

Every rule comes from ``dehla.engine.scoring`` (``hand_outcome``,
``next_dealer``, ``MatchScore``), the same functions the engine scores with.
"""

from __future__ import annotations

from typing import Any

from dehla.engine.scoring import MatchScore, hand_outcome, next_dealer
from dehla.errors import DehlaError
from dehla.rules import Rules, parse_rules

__all__ = ["score_hands", "needs_tricks", "MAX_HANDS"]

MAX_HANDS = 500


def needs_tricks(rules: Rules) -> bool:
    """Pagat rules never count tricks; Mendikot and Taash do (2-2 hands, whitewash, Taash's minimum)."""
    return rules.scoring != "pagat"


def _pair(value: object, name: str, hand: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(item, int) and not isinstance(item, bool) and item >= 0 for item in value)
    ):
        raise DehlaError(f"hand {hand + 1}: {name} must be two whole numbers, one per team")
    return value[0], value[1]


def score_hands(request: object) -> dict[str, Any]:
    """Score ``{"rules": ..., "first_dealer": SEAT, "hands": [{"tens": [a, b], "tricks": [x, y]}, ...]}``."""
    if not isinstance(request, dict):
        raise DehlaError("send {\"rules\": PRESET, \"first_dealer\": SEAT, \"hands\": [...]}")
    rules = parse_rules(request.get("rules", "pagat"))
    dealer = request.get("first_dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise DehlaError(f"first_dealer must be a seat number 0..{rules.players - 1}")
    hands = request.get("hands", [])
    if not isinstance(hands, list) or len(hands) > MAX_HANDS:
        raise DehlaError(f"hands must be a list of at most {MAX_HANDS} hands")
    score = MatchScore()
    rows = []
    full = rules.tricks_per_hand
    for index, hand in enumerate(hands):
        if score.over:
            raise DehlaError(f"hand {index + 1}: the match was already over (team {score.winner} won)")
        if not isinstance(hand, dict):
            raise DehlaError(f"hand {index + 1} must be an object with \"tens\" and \"tricks\"")
        tens = _pair(hand.get("tens"), "tens", index)
        if rules.scoring == "taash":
            if sum(tens) > 4:
                raise DehlaError(f"hand {index + 1}: there are only four tens")
        elif sum(tens) != 4:
            raise DehlaError(f"hand {index + 1}: the tens of the two teams must add up to 4")
        if needs_tricks(rules):
            tricks = _pair(hand.get("tricks"), "tricks", index)
            if rules.scoring == "taash":
                if sum(tricks) > full:
                    raise DehlaError(f"hand {index + 1}: a hand has at most {full} tricks")
            elif sum(tricks) != full:
                raise DehlaError(f"hand {index + 1}: the tricks of the two teams must add up to {full}")
        else:
            tricks = (0, 0)
        outcome = hand_outcome(rules, dealer, tens, tricks)
        sweep = outcome.winner is not None and tens[outcome.winner] == 4
        score, kot = score.after_hand(rules, outcome, sweep)
        following = None if score.over else next_dealer(rules, dealer, outcome.winner, tricks)
        rows.append({
            "dealer": dealer,
            "tens": list(tens),
            "tricks": list(tricks) if needs_tricks(rules) else None,
            "winner": outcome.winner,
            "points": list(outcome.points),
            "sweep": sweep,
            "kot": kot,
            "score": list(score.score),
            "streak": list(score.streaks()),
            "next_dealer": following,
        })
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
