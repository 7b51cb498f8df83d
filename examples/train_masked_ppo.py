#!/usr/bin/env python3
"""Train a masked policy for Dehla Pakad through the Gymnasium environment, and show it beating ``random``.

It uses sb3-contrib's ``MaskablePPO`` (PPO that samples only legal actions, from the mask that
``DehlaEnv.action_masks()`` gives) on ``dehla/Dehla-v0``: the agent plays seat 0 of a ``pagat`` hand
against ``random`` bots, one hand an episode, +1 for a hand its team wins and -1 for one it loses.
Then it plays evaluation hands, new deals, with the trained policy in both seats of team 0 against
two ``random`` bots, and with ``random`` there instead, and prints both hand-win rates with 95%
intervals.  Install: ``pip install 'dehla[train]'`` (torch 2.13.0 CPU build, sb3-contrib).

    python examples/train_masked_ppo.py --minutes 4           # about 4 minutes on one core
    python examples/train_masked_ppo.py --steps 256 --envs 1 --eval-hands 10   # a smoke run (the tests do this)
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from dehla.arena.stats import wilson
from dehla.bots.base import RandomBot
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.envs.gym_env import DehlaEnv
from dehla.features.observation import ACTIONS, action_index, action_mask, encode


class PolicyBot:
    """The trained policy as a dehla bot: it acts from the seat's observation, through the same encoding."""

    name = "ppo"

    def __init__(self, model: Any) -> None:
        self.model = model

    def act(self, observation: Observation) -> Action:
        mask = action_mask(observation).astype(bool)
        action, _ = self.model.predict(encode(observation), action_masks=mask, deterministic=True)
        return ACTIONS[int(action)]


class _Deadline(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` of wall time."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.end = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.end


def train(rules: str, steps: int, minutes: float | None, seed: int, envs: int = 8) -> Any:
    """A MaskablePPO policy for seat 0 against random bots, from ``envs`` environments stepped together."""
    vector = DummyVecEnv([lambda number=number: _seeded(rules, seed * 1000 + number) for number in range(envs)])
    model = MaskablePPO(
        "MlpPolicy",
        vector,
        n_steps=256,  # per environment: 2048 decisions a rollout with 8 environments
        batch_size=256,
        n_epochs=4,
        learning_rate=5e-4,
        gamma=1.0,  # one hand an episode, the reward at its end
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        verbose=0,
    )
    callback = _Deadline(minutes * 60) if minutes is not None else None
    model.learn(total_timesteps=steps, callback=callback)
    return model


def _seeded(rules: str, seed: int) -> DehlaEnv:
    env = DehlaEnv(rules=rules, opponents="random", seat=0)
    env.reset(seed=seed)
    return env


def win_rate(rules: str, partner_and_self: Any, hands: int, seed: int) -> tuple[float, float, float]:
    """Team 0's hand-win rate with ``partner_and_self`` (a bot maker) at seats 0 and 2, random at 1 and 3."""
    rng = random.Random(seed)
    wins = 0
    for _ in range(hands):
        agent_seed = rng.randrange(2**31)
        env = DehlaEnv(
            rules=rules, opponents=[RandomBot(rng.randrange(2**31)), partner_and_self(), RandomBot(agent_seed)]
        )
        env.reset(seed=agent_seed)
        me = partner_and_self()
        done = False
        reward = 0.0
        while not done:
            action = action_index(me.act(env.table.observe(0)))
            _, reward, done, _, _ = env.step(action)
        wins += reward > 0
    interval = wilson(wins, hands)
    return interval["value"], interval["low"], interval["high"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--minutes", type=float, default=None, help="stop training after this many minutes")
    parser.add_argument("--steps", type=int, default=2_000_000, help="at most this many agent decisions")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together (default 8)")
    parser.add_argument("--eval-hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    np.random.seed(args.seed)
    start = time.monotonic()
    model = train(args.rules, args.steps, args.minutes, args.seed, args.envs)
    print(f"trained {model.num_timesteps} decisions in {time.monotonic() - start:.0f} s")
    trained = win_rate(args.rules, lambda: PolicyBot(model), args.eval_hands, args.seed + 1)
    baseline = win_rate(args.rules, lambda: RandomBot(random.randrange(2**31)), args.eval_hands, args.seed + 1)
    for label, (value, low, high) in (("policy + policy", trained), ("random + random", baseline)):
        print(
            f"{label} vs random + random: hand-win rate {value:.1%} [{low:.1%}, {high:.1%}] "
            f"over {args.eval_hands} hands"
        )


if __name__ == "__main__":
    main()
