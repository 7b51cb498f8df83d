"""The search's settling test on numpy arrays (``settled``) against the plain loop it replaced, on random
value matrices; and seeded playout searches that give the same moves."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dehla import Match
from dehla.bots.search import Samples, SearchBot, SearchSettings, settled
from dehla.cards import Card
from dehla.engine.actions import Action, Play


def _settled_by_loop(values: dict[Action, list[float]], best: Action, z: float, ties: int) -> bool:
    """``settled`` written as a plain loop over the actions and the samples: the reference."""
    mine = values[best]
    n = len(mine)
    if n < 2:
        return False
    for action, column in values.items():
        if action == best:
            continue
        differences = [a - b for a, b in zip(mine, column)]
        if min(differences) >= 0.0:
            if max(differences) > 0.0 or n >= ties:
                continue
            return False
        mean = sum(differences) / n
        variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
        if mean - z * math.sqrt(variance / n) <= 0.0:
            return False
    return True


_ACTIONS = [Play(Card(card)) for card in range(4)]


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    samples=st.integers(0, 40),
    actions=st.integers(2, 4),
    z=st.sampled_from([1.0, 3.0]),  # (with z = 0 a mean of 0 could round either way)
    ties=st.integers(0, 30),
)
def test_settled_on_arrays_agrees_with_the_plain_loop(
    data: st.DataObject, samples: int, actions: int, z: float, ties: int
) -> None:
    level = st.sampled_from([0.0, 0.5, 1.0, 1.02, -0.03])  # results and tie-breaks, often equal
    values = {action: data.draw(st.lists(level, min_size=samples, max_size=samples)) for action in _ACTIONS[:actions]}
    best = data.draw(st.sampled_from(_ACTIONS[:actions]))
    expected = _settled_by_loop(values, best, z, ties)
    assert settled(Samples(values), best, z, ties) == expected


def test_samples_grow_past_their_first_room_and_keep_their_order() -> None:
    low, high = _ACTIONS[:2]
    samples = Samples.empty([low, high])
    for index in range(40):
        samples.add({low: float(index), high: -float(index)})
    assert len(samples) == 40
    assert samples.mean(low) == pytest.approx(19.5) and samples.mean(high) == pytest.approx(-19.5)
    assert samples.values[-1].tolist() == [39.0, -39.0]


@pytest.mark.parametrize("rules", ["pagat", "taash", "mendikot-band"])
def test_seeded_playout_searches_make_the_same_moves(rules: str) -> None:
    """With ``sample_nodes`` a search bot ignores the clock: the same seed gives the same moves and the same
    number of worlds."""
    rng = random.Random(11)
    match = Match.new(rules, rng)
    match.apply(match.random_deal(rng))
    for _ in range(6):
        seat = match.to_act
        assert seat is not None
        observation = match.observe(seat)
        moves = []
        for _ in range(2):
            bot = SearchBot(4, settings=SearchSettings(sample_nodes=500, playout_worlds=64))
            moves.append((bot.act(observation), bot.last_playouts))
        assert moves[0] == moves[1]
        match.apply(moves[0][0])
