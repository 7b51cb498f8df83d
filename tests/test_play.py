"""Running matches (``dehla.play``): the hand loop every runner shares, and the arena's shared statistics."""

from __future__ import annotations

import random

import pytest

from dehla import PRESETS, Match
from dehla.arena.stats import percentile
from dehla.bots import RandomBot
from dehla.engine.observe import Observation
from dehla.play import checked_act, play_hand, play_match


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_play_hand_plays_one_hand_exactly_as_play_match_does(preset: str) -> None:
    rules = PRESETS[preset]
    seen: list[tuple[int, int | None]] = []
    rng = random.Random(5)
    match = Match.new(rules, rng)
    bots = [RandomBot(seat) for seat in range(rules.players)]

    def choose(seat: int, observation: Observation) -> object:
        seen.append((seat, observation.seat))
        return checked_act(bots[seat], observation)

    match.apply(match.random_deal(rng))
    play_hand(match, choose)  # type: ignore[arg-type]
    assert len(match.results) == 1 and (match.is_chance or match.is_over)
    assert seen and all(seat == shown for seat, shown in seen)  # each seat is shown its own observation
    play_hand(match, choose)  # type: ignore[arg-type]  # nothing to decide between hands
    assert len(match.results) == 1

    # the same seeds through play_match give the same first hand
    chance = random.Random(5)
    again = play_match(rules, [RandomBot(seat) for seat in range(rules.players)], chance,
                       match=Match.new(rules, chance))
    assert again.hand_actions(0) == match.hand_actions(0)


def test_percentile_is_the_nearest_rank() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 0.0) == 1.0
    assert percentile(values, 0.5) == 3.0
    assert percentile(values, 0.99) == 5.0
    assert percentile(values, 1.0) == 5.0
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([], 0.5) == 0.0
    assert percentile([float(value) for value in range(101)], 0.95) == 95.0
