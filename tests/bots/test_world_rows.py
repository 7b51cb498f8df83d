"""Sampled worlds built from one template row (``bots.worlds.WorldRows``) against the replay (``determinize``).

On random positions of every preset and rule variant, a world built from a sample is the world the engine's
replay of the same sample gives: the same row in its phase, and the same samples refused.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.bots.sampling import SampleRejected, determinize, public_plays
from dehla.bots.tracking import CardTracker
from dehla.bots.worlds import WorldRows, sampled_worlds, world_row
from dehla.engine.observe import Observation
from dehla.engine.state import Phase


def _positions(rules: Any, seed: int, every: int) -> Iterator[Observation]:
    """The observation of the seat to act at every ``every``-th decision of a random game's first two hands."""
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    decisions = 0
    while not match.is_over and len(match.results) < 2:
        if match.is_chance:
            match.apply(match.random_deal(rng))
            continue
        if decisions % every == 0 and match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
            seat = match.to_act
            assert seat is not None
            yield match.observe(seat)
        decisions += 1
        match.apply(rng.choice(match.legal_actions()))


def _replayed(observation: Observation, sample: Any) -> np.ndarray[Any, Any] | None:
    """The row of the world of ``sample`` replayed in the engine, or ``None`` when the replay refuses it."""
    try:
        return world_row(determinize(observation, sample))
    except SampleRejected:
        return None


def _built(builder: WorldRows, sample: Any) -> np.ndarray[Any, Any] | None:
    """The world ``builder`` builds from ``sample``, or ``None`` when it refuses the sample."""
    try:
        return builder.world(sample)
    except SampleRejected:
        return None


def _check_position(observation: Observation, rng: random.Random, samples: int) -> int:
    """Build ``samples`` worlds both ways and compare them; the number of worlds compared."""
    tracker = CardTracker(observation)
    public = public_plays(observation)
    builder: WorldRows | None = None
    compared = 0
    for _ in range(samples):
        sample = tracker.sample(rng)
        replayed = _replayed(observation, sample)
        if builder is None:
            if replayed is None:
                continue
            builder = WorldRows(observation, determinize(observation, sample), public)
        built = _built(builder, sample)
        assert (built is None) == (replayed is None), "the same samples are refused both ways"
        if built is not None and replayed is not None:
            assert np.array_equal(built, replayed), "the row in play"
            compared += 1
    return compared


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_a_world_built_from_the_template_is_the_replayed_world(rules: Any) -> None:
    rng = random.Random(f"worlds-{rules_id(rules)}")
    compared = 0
    for seed in range(2):
        for observation in _positions(rules, seed, every=3):
            compared += _check_position(observation, rng, 4)
    assert compared >= 40


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(ALL_RULES),
    seed=st.integers(0, 10_000),
    skip=st.integers(0, 60),
)
def test_built_and_replayed_worlds_agree_at_any_decision(rules: Any, seed: int, skip: int) -> None:
    """At one decision chosen by hypothesis (the ``skip``-th of a random game, or its last), many samples."""
    chosen = None
    for index, observation in enumerate(_positions(rules, seed, every=1)):
        chosen = observation
        if index == skip:
            break
    assert chosen is not None
    _check_position(chosen, random.Random(seed), 12)


@pytest.mark.parametrize("rules", ["pagat", "taash", "mendikot", "mendikot-band", "mendikot-band-auto"])
def test_sampled_worlds_are_the_replays_of_the_same_draws(rules: str) -> None:
    """``sampled_worlds`` (the first world replayed, the rest built) gives, draw for draw, the replayed worlds."""
    for observation in _positions(rules, 7, every=5):
        tracker = CardTracker(observation)
        worlds = list(sampled_worlds(observation, tracker, random.Random(3), _counter(10)))
        draws = random.Random(3)
        replays = [_replayed(observation, tracker.sample(draws)) for _ in range(len(worlds) + 200)]
        expected = [world for world in replays if world is not None][: len(worlds)]
        assert len(worlds) == len(expected)
        for built, replayed in zip(worlds, expected):
            assert np.array_equal(built, replayed)


def _counter(limit: int) -> Any:
    """A ``more`` that says yes ``limit`` times."""
    asked = [0]

    def more() -> bool:
        asked[0] += 1
        return asked[0] <= limit

    return more
