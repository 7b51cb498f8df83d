"""Thousands of random hands of every preset (and some option variants), with checks on every hand.

Random legal play through the public API must never fail, every hand must
end within its tricks with a result that agrees with its tens and tricks,
every card must be played exactly once in a full hand, and over so many hands
every kind of event the rules allow must actually happen (so the random games
really exercise the rules: reveals, cuts, early ends, drawn hands, kots...).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from tests.helpers import VARIANTS, pack_of, rules_id

from dehla import Match
from dehla.engine.events import (
    CentreCollected,
    HandResult,
    KotAwarded,
    MatchOver,
    StagedDeal,
    TrumpRevealed,
    TrumpSet,
)
from dehla.rules import PRESETS, parse_rules

HANDS_PER_PRESET = 3000
HANDS_PER_VARIANT = 500

# What must happen at least once in that many random hands of each preset.
EXPECTED: dict[str, set[str]] = {
    "pagat": {"call", "collect", "kot: four tens", "hand won by each team", "match over"},
    "pagat-cut": {"cut", "staged deal with trump", "collect", "kot: four tens"},
    "taash": {"cut", "staged deal with trump", "ended early", "points 20", "points 30", "points 80", "match over"},
    "taash-b2b": {"cut", "collect", "ended early", "points 20", "points 30", "match over"},
    "mendikot": {"cut", "sweep", "match over", "same dealer again", "dealer+1"},
    "mendikot-band": {"reveal asked", "reveal of the chooser's last card", "match over"},
    "mendikot-band-auto": {"reveal automatic", "match over"},
    "mendikot-open": {"open draw", "sweep", "match over"},
    "mendikot-6": {"cut", "drawn hand", "match over"},
    "mendikot-8": {"cut", "drawn hand", "match over"},
}


def _features(match: Match, events: tuple[Any, ...], seen: Counter[str]) -> None:
    for event in events:
        if isinstance(event, TrumpSet):
            seen[{"called": "call", "cut": "cut", "open_draw": "open draw"}[event.how]] += 1
        elif isinstance(event, TrumpRevealed):
            if event.asked_by is not None:
                seen["reveal asked"] += 1
            elif match.rules.trump == "hidden_auto":
                seen["reveal automatic"] += 1
            if event.asked_by is None and not match.hand_of(event.chooser)[1:]:
                seen["reveal of the chooser's last card"] += 1
        elif isinstance(event, StagedDeal):
            seen["staged deal with trump" if event.trump is not None else "staged deal without trump"] += 1
        elif isinstance(event, CentreCollected):
            seen["collect"] += 1
        elif isinstance(event, KotAwarded):
            seen["kot: four tens" if "four tens" in event.reason else "kot: streak"] += 1
        elif isinstance(event, MatchOver):
            seen["match over"] += 1
        elif isinstance(event, HandResult):
            seen["hand"] += 1
            if event.ended_early:
                seen["ended early"] += 1
            if event.sweep:
                seen["sweep"] += 1
            if event.whitewash:
                seen["whitewash"] += 1
            if event.winner is None:
                seen["drawn hand"] += 1
            else:
                seen["hand won by each team" if event.winner == 1 else "team 0 won"] += 1
                seen[f"points {event.points[event.winner]}"] += 1
            if event.next_dealer == event.dealer:
                seen["same dealer again"] += 1
            elif event.next_dealer == (event.dealer + 1) % match.players:
                seen["dealer+1"] += 1


def _check_hand(match: Match, result: HandResult) -> None:
    rules = match.rules
    played = [card for trick in result.tricks for card in trick.cards]
    assert len(played) == len(set(played))
    if result.ended_early:
        assert len(result.tricks) < rules.tricks_per_hand
    else:
        assert len(result.tricks) == rules.tricks_per_hand
        assert set(played) == pack_of(rules)
        assert sum(result.tens) == 4
    assert sum(result.tricks_won) == len(result.tricks)
    leaders = [trick.leader for trick in result.tricks]
    assert leaders[0] == (result.dealer + 1) % rules.players
    assert leaders[1:] == [trick.winner for trick in result.tricks[:-1]]  # the winner leads the next trick
    for trick in result.tricks:
        led = trick.cards[0].suit
        winning = trick.cards[(trick.winner - trick.leader) % rules.players]
        # The winner played the suit led or a card of the suit that was trump by the end of the hand.
        assert winning.suit == led or winning.suit == result.trump


def simulate(rules: Any, hands: int, seed: int) -> Counter[str]:
    parsed = parse_rules(rules)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    while seen["hand"] < hands:
        match = Match.new(parsed, rng)
        count = 0
        while not match.is_over:
            if match.is_chance:
                count += 1
                assert count < 500, "a match did not end"
                events = match.apply(match.random_deal(rng))
            else:
                legal = match.legal_actions()
                assert legal and match.to_act is not None
                events = match.apply(rng.choice(legal))
            if events:
                _features(match, events, seen)
                for event in events:
                    if isinstance(event, HandResult):
                        _check_hand(match, event)
    return seen


@pytest.mark.parametrize("name", list(PRESETS))
def test_thousands_of_random_hands_of_every_preset(name: str) -> None:
    seen = simulate(name, HANDS_PER_PRESET, seed=2024)
    missing = EXPECTED[name] - set(seen)
    assert not missing, f"{name}: never saw {sorted(missing)} in {seen['hand']} hands"


@pytest.mark.parametrize("rules", VARIANTS, ids=[rules_id(rules) for rules in VARIANTS])
def test_random_hands_of_option_variants(rules: Any) -> None:
    seen = simulate(rules, HANDS_PER_VARIANT, seed=7)
    assert seen["hand"] >= HANDS_PER_VARIANT and seen["match over"] >= 1
