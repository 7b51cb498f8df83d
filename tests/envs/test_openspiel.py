"""The OpenSpiel game: random_sim_test for every preset, resampling that reveals nothing, ISMCTS in the arena."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from dehla import PRESETS, Match  # noqa: E402
from dehla.bots.base import BOTS, make_bot, plugin_names  # noqa: E402
from dehla.envs import openspiel  # noqa: E402
from dehla.envs.ismcts import NAME, OpenSpielISMCTSBot, register_bot  # noqa: E402
from dehla.play import play_hand  # noqa: E402


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_sim_test(preset: str) -> None:
    game = pyspiel.load_game("python_dehla", {"rules": preset})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_rules_json_parameter() -> None:
    game = openspiel.load(PRESETS["taash"].replace(target=200))
    assert game.rules.target == 200
    assert game.num_players() == 4
    assert pyspiel.load_game("python_dehla", {"rules": "mendikot-8"}).num_players() == 8


def _play_to_decision(game, rng: random.Random, decisions: int):
    state = game.new_initial_state()
    while state.is_chance_node() or decisions > 0:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state


def _hands(state) -> list[tuple[int, ...]]:
    match = state.hand.match
    return [match.observe(seat).hand for seat in range(match.players)]


@pytest.mark.parametrize("preset", ["pagat", "pagat-cut", "mendikot-band", "mendikot-band-auto", "mendikot-6"])
def test_resample_keeps_the_information_state_and_reveals_nothing(preset: str) -> None:
    """Two states the seat cannot tell apart resample to the same worlds: the real hidden cards never matter."""
    game = pyspiel.load_game("python_dehla", {"rules": preset})
    rng = random.Random(11)
    for decisions in (0, 5, 17, 30):
        state = _play_to_decision(game, rng, decisions)
        if state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        twin = openspiel.state_from_observation(game, state.observation_of(player), random.Random(decisions))
        assert twin.information_state_string(player) == key
        assert twin.legal_actions() == state.legal_actions()
        for draw in (0.1, 0.7):
            first = state.resample_from_infostate(player, lambda draw=draw: draw)
            second = twin.resample_from_infostate(player, lambda draw=draw: draw)
            assert first.information_state_string(player) == key == second.information_state_string(player)
            assert _hands(first) == _hands(second)  # the same world, whichever real deal it came from
            assert first.legal_actions() == state.legal_actions()


def test_ismcts_bot_plays_a_hand_from_observations() -> None:
    bot = OpenSpielISMCTSBot(seed=3, simulations=8)
    others = [make_bot("random", seat) for seat in range(4)]
    rng = random.Random(4)
    match = Match.new("mendikot-band", rng)
    match.apply(match.random_deal(rng))
    play_hand(match, lambda seat, observation: (bot if seat % 2 == 0 else others[seat]).act(observation))
    assert match.results


def test_the_arena_finds_the_bot_through_its_entry_point() -> None:
    """``make_bot`` registers ``openspiel-ismcts`` from the ``dehla.bots`` entry point in any process that asks."""
    known = NAME in BOTS
    try:
        if not known:
            assert NAME in plugin_names()
        assert make_bot(NAME, 1).name == NAME
        assert register_bot()
    finally:
        if not known:  # other tests list the registered bots
            BOTS.pop(NAME, None)
