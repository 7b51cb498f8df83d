"""The search bots' playout search: legal moves in every preset (the call and the hide included), and the
move's source says the playouts chose it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.bots.search import SearchBot, SearchSettings, move_source
from dehla.errors import DehlaError


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_a_search_bot_playing_out_the_first_tricks_makes_only_legal_moves(rules: Any) -> None:
    """Every seat a search bot (no exact solve fits its tiny node budget early on); the first hand's first 16
    decisions, each valued by 24 worlds played out."""
    rng = random.Random(5)
    match = Match.new(rules, rng)
    match.apply(match.random_deal(rng))
    bots = [
        SearchBot(seat, settings=SearchSettings(sample_nodes=500, playout_worlds=24))
        for seat in range(match.rules.players)
    ]
    played_out = 0
    for _ in range(16):
        if match.results:
            break
        seat = match.to_act
        assert seat is not None
        observation = match.observe(seat)
        action = bots[seat].act(observation)
        assert action in observation.legal_actions
        played_out += move_source(bots[seat], observation) == "playout"
        match.apply(action)
    assert played_out > 0


def test_search_settings_refuse_a_bad_playout_setting() -> None:
    with pytest.raises(DehlaError, match="playout worlds"):
        SearchSettings(playout_worlds=0)
