"""Properties that hold for every match: checked with hypothesis over random seeds, presets and options.

* cards are conserved at every step (hands + hidden + undealt + trick + centre + captures = the pack);
* someone is to act exactly when there are legal actions, and those are never empty;
* collected tens only grow during a hand; a full hand ends with all four tens collected;
* every hand ends within its tricks, and its result agrees with its tens and tricks;
* ``clone()`` is independent of the original and continues identically;
* a saved record replays to the identical ``replay_json`` and identical observations;
* an illegal action is refused and leaves the state unchanged;
* rules round-trip through JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import ALL_RULES, assert_cards_conserved, in_hand, snapshot

from dehla import Match, RulesError, parse_rules
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action
from dehla.engine.events import Event, HandResult
from dehla.engine.state import Phase
from dehla.errors import IllegalActionError
from dehla.record import replay, replay_json, to_record
from dehla.rules import PRESETS

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
rules_values = st.sampled_from(ALL_RULES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
EVERY_ACTION: tuple[Action, ...] = (*PLAYS, *CALLS, *HIDES, REVEAL)


def _step(match: Match, rng: random.Random) -> tuple[Event, ...]:
    if match.is_chance:
        return match.apply(match.random_deal(rng))
    return match.apply(rng.choice(match.legal_actions()))


def _check_result(match: Match, result: HandResult) -> None:
    rules = match.rules
    tricks = len(result.tricks)
    assert tricks <= rules.tricks_per_hand
    assert sum(result.tricks_won) == tricks
    assert sum(result.tens) <= 4
    if result.ended_early:
        assert rules.scoring == "taash" and tricks < rules.tricks_per_hand
        assert not result.whitewash
    else:
        assert tricks == rules.tricks_per_hand
        assert sum(result.tens) == 4  # at the end of a full hand every ten is collected
        assert result.whitewash == (0 in result.tricks_won)
    assert result.sweep == (result.winner is not None and result.tens[result.winner] == 4)
    if result.winner is None:
        assert result.points == (0, 0)
    else:
        assert result.points[1 - result.winner] == 0 and result.points[result.winner] > 0
        if rules.scoring != "pagat":
            assert result.tens[result.winner] >= result.tens[1 - result.winner]
        else:
            assert result.tens[result.winner] >= 2
    for trick in result.tricks:
        assert len(trick.cards) == rules.players
        assert trick.collected_by in (None, trick.winner)


@SETTINGS
@given(rules=rules_values, seed=seeds)
def test_every_step_conserves_cards_and_every_hand_ends_within_its_tricks(rules: Any, seed: int) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    pack = match.rules.deck_size
    steps_in_hand = 0
    tens_before = (0, 0)
    hands = 0
    expected_dealer = match.dealer
    while not match.is_over and hands < 6:
        if match.is_chance:
            assert match.dealer == expected_dealer
            assert match.to_act is None and match.legal_actions() == ()
            steps_in_hand = 0
            tens_before = (0, 0)
            hands += 1
        else:
            assert match.to_act is not None and match.legal_actions()
        events = _step(match, rng)
        steps_in_hand += 1
        assert steps_in_hand <= pack + 3  # every card once, plus call/hide/reveal
        assert_cards_conserved(match)
        tens = match.observe(0).tens
        if in_hand(match) or any(isinstance(event, HandResult) for event in events):
            assert tens[0] >= tens_before[0] and tens[1] >= tens_before[1]  # collected tens only grow
        tens_before = tens
        for event in events:
            if isinstance(event, HandResult):
                _check_result(match, event)
                if event.next_dealer is not None:
                    expected_dealer = event.next_dealer
    if match.is_over:
        assert match.to_act is None and match.legal_actions() == ()
        assert match.results[-1].next_dealer is None
        assert match.winner is not None


@SETTINGS
@given(rules=rules_values, seed=seeds)
def test_the_match_score_is_the_sum_of_what_the_hands_earned(rules: Any, seed: int) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    while not match.is_over and len(match.results) < 40:
        _step(match, rng)
    score = [0, 0]
    for result in match.results:
        if match.rules.scoring == "pagat":
            if result.kot:
                score[result.winner] += 1  # type: ignore[index]
        else:
            score[0] += result.points[0]
            score[1] += result.points[1]
        assert list(result.score) == score
    assert list(match.score) == score


@SETTINGS
@given(rules=rules_values, seed=seeds, split=st.integers(min_value=0, max_value=400))
def test_clone_is_independent_and_continues_identically(rules: Any, seed: int, split: int) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    for _ in range(split):
        if match.is_over:
            break
        _step(match, rng)
    before = snapshot(match)
    copy = match.clone()
    assert snapshot(copy) == before
    # Mutating the clone leaves the original alone.
    scratch = random.Random(seed + 1)
    for _ in range(30):
        if copy.is_over:
            break
        _step(copy, scratch)
    assert snapshot(match) == before
    # Both continue identically from the same chance and choices.
    again = match.clone()
    first, second = random.Random(seed + 2), random.Random(seed + 2)
    for _ in range(120):
        if match.is_over:
            break
        assert _step(match, first) == _step(again, second)
    assert snapshot(match) == snapshot(again)


@SETTINGS
@given(rules=rules_values, seed=seeds, cut=st.integers(min_value=0, max_value=600))
def test_a_saved_record_replays_to_identical_json_and_observations(rules: Any, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    for _ in range(cut):
        if match.is_over:
            break
        _step(match, rng)
    record = json.loads(json.dumps(to_record(match)))
    again = replay(record)
    assert replay_json(again) == replay_json(match)
    for seat in range(match.players):
        assert again.observe(seat).to_json() == match.observe(seat).to_json()
    assert again.legal_actions() == match.legal_actions()
    assert to_record(again) == record


@SETTINGS
@given(rules=rules_values, seed=seeds, steps=st.integers(min_value=1, max_value=300), pick=st.randoms())
def test_an_illegal_action_is_refused_and_changes_nothing(
    rules: Any, seed: int, steps: int, pick: random.Random
) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    for _ in range(steps):
        if match.is_over:
            break
        _step(match, rng)
    legal = set(match.legal_actions())
    illegal = [action for action in EVERY_ACTION if action not in legal]
    before = snapshot(match)
    for action in pick.sample(illegal, 6):
        try:
            match.apply(action)
        except IllegalActionError as error:
            assert str(error)
        else:
            raise AssertionError(f"{action} was accepted though not legal in {match!r}")
        assert snapshot(match) == before
    if match.phase is Phase.DEAL:
        assert all(action not in legal for action in EVERY_ACTION)


# ---------------------------------------------------------------------------------------------
# Rules JSON

option_values = st.fixed_dictionaries(
    {},
    optional={
        "target": st.integers(min_value=1, max_value=500),
        "streak_resets": st.booleans(),
        "rotation": st.sampled_from(["rules", "simple"]),
        "after_whitewash": st.sampled_from(["partner", "next"]),
        "direction": st.sampled_from(["anticlockwise", "clockwise"]),
        "trick_minimum": st.booleans(),
        "trump": st.sampled_from(["called", "cut", "hidden", "hidden_auto", "open_draw"]),
        "staged_deal": st.booleans(),
        "collection": st.sampled_from(["centre", "immediate"]),
        "sweep_bonus": st.sampled_from(["none", "double", "match"]),
    },
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(name=st.sampled_from(list(PRESETS)), options=option_values)
def test_rules_round_trip_through_json(name: str, options: dict[str, Any]) -> None:
    try:
        rules = parse_rules({"preset": name, **options})
    except RulesError as error:
        assert str(error)  # a combination that makes no sense says why
        return
    form = json.loads(json.dumps(rules.to_json()))
    assert parse_rules(form) == rules
    assert parse_rules(form).options() == rules.options()
    for key, value in options.items():
        assert getattr(rules, key) == value


@settings(max_examples=30, deadline=None, derandomize=True)
@given(name=st.sampled_from(list(PRESETS)), options=option_values, seed=seeds)
def test_any_valid_option_combination_plays_whole_hands(name: str, options: dict[str, Any], seed: int) -> None:
    try:
        rules = parse_rules({"preset": name, **options})
    except RulesError:
        return
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    while not match.is_over and len(match.results) < 3:
        _step(match, rng)
        assert_cards_conserved(match)
    again = replay(json.loads(json.dumps(to_record(match))))
    assert again.results == match.results
