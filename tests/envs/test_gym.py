"""The Gymnasium environment: registered id, env_checker, opponents by name, ``cmd:`` or object."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from tests.helpers import ROOT  # noqa: E402

import dehla.envs  # noqa: E402,F401  (registers dehla/Dehla-v0)
from dehla import PRESETS  # noqa: E402
from dehla.bots.base import RandomBot  # noqa: E402
from dehla.envs.gym_env import DehlaEnv  # noqa: E402
from dehla.errors import DehlaError  # noqa: E402
from dehla.protocol.host import python_command  # noqa: E402


@pytest.mark.parametrize("preset", list(PRESETS))
def test_check_env(preset: str) -> None:
    env = gymnasium.make("dehla/Dehla-v0", rules=preset, opponents="heuristic")
    check_env(env.unwrapped, skip_render_check=True)


def test_dict_observation_random_seat_and_masks() -> None:
    env = DehlaEnv(rules="mendikot-band", opponents="random", seat=None, mask_in_observation=True)
    check_env(env, skip_render_check=True)
    observation, info = env.reset(seed=9)
    assert np.array_equal(observation["action_mask"], info["action_mask"])
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    rng = np.random.default_rng(1)
    for _ in range(30):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, terminated, _, info = env.step(action)
        if terminated:
            assert reward in (-1.0, 0.0, 1.0)
            observation, info = env.reset()


def test_illegal_action_loses_or_raises() -> None:
    env = DehlaEnv(rules="pagat", opponents="random")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    strict = DehlaEnv(rules="pagat", opponents="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(DehlaError):
        strict.step(illegal)


def test_outside_program_and_bot_object_opponents() -> None:
    program = python_command(str(ROOT / "examples" / "simple_bot.py"))
    env = DehlaEnv(rules="pagat", opponents=[program, RandomBot(3), "heuristic"])
    try:
        _, info = env.reset(seed=2)
        rng = np.random.default_rng(2)
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    finally:
        env.close()
