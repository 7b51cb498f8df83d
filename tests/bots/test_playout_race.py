"""Actions leave the playout race: ``playout_batches`` values only the actions still listed, and a search
drops an action clearly behind the best while keeping the rest compared world by world."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import dehla.bots.playout as playout
from dehla import Match
from dehla.bots.playout import playout_batches
from dehla.bots.search import Samples, SearchBot, SearchSettings
from dehla.cards import Card
from dehla.engine.actions import Play


def test_each_batch_values_the_actions_still_listed() -> None:
    rng = random.Random(2)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    actions = list(observation.legal_actions)
    asked = [0]

    def more() -> bool:
        asked[0] += 1
        return asked[0] <= 24

    widths = []
    for values in playout_batches(observation, actions, random.Random(1), more, batch=8):
        widths.append(values.shape[1])
        del actions[1:3]  # two actions leave the race after each batch
    assert widths == [13, 11, 9]


def test_a_subset_of_samples_keeps_the_worlds_of_its_actions() -> None:
    low, middle, high = (Play(Card(card)) for card in (0, 5, 12))
    samples = Samples({low: [1.0, 0.0, 1.0], middle: [0.0, 0.5, 0.5], high: [0.0, 1.0, 1.0]})
    kept = samples.subset([high, low])
    assert kept.actions == [high, low] and len(kept) == 3
    assert kept.mean(high) == samples.mean(high) and kept.mean(low) == samples.mean(low)
    assert middle not in kept


def test_a_playout_search_spends_its_worlds_on_the_actions_in_the_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 13 legal leads and a few hundred worlds the race narrows: fewer actions are played out at the end
    than at the start (seeded, node-count mode, so the test is repeatable)."""
    rng = random.Random(3)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    widths: list[int] = []
    original = playout.playout_batches

    def watched(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for values in original(*args, **kwargs):
            widths.append(values.shape[1])
            yield values

    monkeypatch.setattr(playout, "playout_batches", watched)
    bot = SearchBot(1, settings=SearchSettings(sample_nodes=500, playout_worlds=400))
    assert bot.act(observation) in observation.legal_actions
    assert widths[0] == 13
    assert widths[-1] < 13
