"""The shared action space and observation vector (dehla.features.observation): layout, range, masks."""

from __future__ import annotations

import dataclasses
import itertools
import random

import numpy as np
import pytest

from dehla import PRESETS, Match
from dehla.cards import Card
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Play, parse_action
from dehla.features.observation import (
    ACTIONS,
    FIELDS,
    NUM_ACTIONS,
    RULES_FEATURES,
    action_index,
    action_mask,
    action_of,
    encode,
    layout,
    observation_size,
    rules_ones,
)


def test_action_space_is_fixed_and_round_trips() -> None:
    assert NUM_ACTIONS == 109
    assert ACTIONS[:52] == PLAYS and ACTIONS[52:56] == CALLS and ACTIONS[56:108] == HIDES and ACTIONS[108] == REVEAL
    for index, action in enumerate(ACTIONS):
        assert action_index(action) == index
        assert action_of(index) == action


def test_equal_values_encode_alike_whatever_the_object() -> None:
    """Actions and rules are looked up by value: a copy (not the interned object) gets the same index and field."""
    copies = [Play(Card(int(a.card))) if isinstance(a, Play) else parse_action(str(a)) for a in ACTIONS]
    assert all(copy is not action for copy, action in zip(copies[:52], ACTIONS[:52]))
    assert [action_index(action) for action in copies] == list(range(NUM_ACTIONS))
    for rules in PRESETS.values():
        copy = dataclasses.replace(rules)
        assert copy is not rules and rules_ones(copy) == rules_ones(rules)
        wanted = [index for index, (name, value) in enumerate(RULES_FEATURES) if getattr(rules, name) == value]
        assert list(rules_ones(copy)) == wanted


def test_sizes_follow_the_documented_formula() -> None:
    for players in (4, 6, 8):
        lay = layout(players)
        assert observation_size(players) == 452 + 111 * players == lay.size
        ends = [lay.field_slice(name) for name, _fixed, _per in FIELDS]
        assert ends[0].start == 0 and ends[-1].stop == lay.size
        assert all(a.stop == b.start for a, b in itertools.pairwise(ends))


def _observations(preset: str, seed: int, hands: int = 2):
    """Every seat's observation at every decision of a few random hands."""
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    done = 0
    while not match.is_over and done < hands:
        if match.is_chance:
            match.apply(match.random_deal(rng))
            done += 1
            continue
        for seat in range(match.players):
            yield match.observe(seat)
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_encoding_range_fields_and_mask(preset: str) -> None:
    for observation in _observations(preset, seed=3):
        vector = encode(observation)
        lay = layout(observation.players)
        assert vector.dtype == np.float32 and vector.shape == (lay.size,)
        assert vector.min() >= 0.0 and vector.max() <= 1.0
        hand = vector[lay.field_slice("hand")]
        assert sorted(np.flatnonzero(hand)) == sorted(observation.hand)
        to_act = vector[lay.field_slice("to_act")]
        if observation.to_act is not None:
            assert np.flatnonzero(to_act).tolist() == [(observation.to_act - observation.seat) % observation.players]
        trick = vector[lay.field_slice("trick")].reshape(observation.players, 52)
        for seat, card in observation.trick:
            assert trick[(seat - observation.seat) % observation.players, card] == 1.0
        assert int(trick.sum()) == len(observation.trick)
        mask = action_mask(observation)
        assert mask.dtype == np.int8
        assert {ACTIONS[i] for i in np.flatnonzero(mask)} == set(observation.legal_actions)


def test_encoding_shows_only_the_seats_own_cards() -> None:
    """The vector is a function of the observation: another seat's cards never reach it."""
    rng = random.Random(5)
    match = Match.new("mendikot-band", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act or 0)
    vector = encode(observation)
    lay = layout(4)
    own = set(observation.hand) | ({observation.hidden_card} if observation.hidden_card is not None else set())
    private = (
        np.flatnonzero(vector[lay.field_slice("hand")]).tolist()
        + np.flatnonzero(vector[lay.field_slice("hidden_card")]).tolist()
    )
    assert set(private) <= own
