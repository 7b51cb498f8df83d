"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests for every preset."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from dehla import PRESETS
from dehla.envs import dehla_v0
from dehla.errors import DehlaError
from dehla.features.observation import encode


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # a dict of observation and mask, as documented
@pytest.mark.parametrize("preset", list(PRESETS))
def test_api_and_seed(preset: str) -> None:
    api_test(dehla_v0.env(rules=preset), num_cycles=60)
    seed_test(functools.partial(dehla_v0.env, rules=preset), num_cycles=30)


def test_match_episode_rewards_and_rules_object() -> None:
    rules = PRESETS["mendikot"].replace(target=2)
    env = dehla_v0.env(rules=rules, episode="match", reward="match")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        totals[agent] += reward
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert env.unwrapped.table.match.is_over


def test_observation_is_the_seats_view_and_render() -> None:
    env = dehla_v0.raw_env(rules="pagat", render_mode="ansi")
    env.reset(seed=2)
    agent = env.agent_selection
    seat = int(agent.split("_")[1])
    observed = env.observe(agent)
    assert np.array_equal(observed["observation"], encode(env.table.match.observe(seat)))
    assert np.array_equal(observed["action_mask"], env.action_mask(agent))
    text = env.render()
    assert isinstance(text, str) and "holds" in text
    with pytest.raises(DehlaError):
        dehla_v0.raw_env(rules="pagat", episode="hand", reward="match")
