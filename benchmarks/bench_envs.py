"""Environment speed: random hands per second through PettingZoo, Gymnasium and OpenSpiel (python_dehla).

Beside them, in the same run and in alternating slices, OpenSpiel's spades random full games through
``pyspiel`` (as ``bench_engine.py`` measures it), the peer figure of issue 20's target.  Loops:

* ``pettingzoo``: ``dehla_v0.env()`` (PettingZoo's wrappers), the usual ``agent_iter`` / ``last()`` /
  ``step`` loop, a random legal action from the observation's mask: every decision encodes an observation.
* ``pettingzoo-raw``: the same loop on ``dehla_v0.raw_env`` (no wrappers).
* ``pettingzoo-mask``: ``raw_env``, ``last(observe=False)`` and ``action_mask(agent)``: no observation
  encoded, as a random or scripted player needs none.
* ``gymnasium``: ``DehlaEnv`` against three ``random`` bots, the agent random from ``info["action_mask"]``.
* ``openspiel``: random full games of ``python_dehla`` through pyspiel, chance included.
* ``floor`` and ``floor-raw``: the ``pettingzoo`` and ``pettingzoo-raw`` loops on an environment that plays
  no game (``NullAEC``: four agents, 52 decisions a hand, the same spaces, one prebuilt observation): what
  PettingZoo's own API costs a hand, the most any environment behind it could reach.

    python benchmarks/bench_envs.py [--seconds 1] [--rounds 3] [--rules pagat] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import _load_average, _load_text, spades_games_per_second
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from dehla.envs import dehla_v0
from dehla.envs.gym_env import DehlaEnv
from dehla.features.observation import NUM_ACTIONS, observation_size

DECISIONS_PER_HAND = 52


class NullAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """An AEC environment with the shape of ``dehla_v0`` that plays no game: every action is legal, every
    observation is the same prebuilt array, a hand ends after 52 decisions."""

    metadata: ClassVar[dict[str, object]] = {"name": "null_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = [f"player_{seat}" for seat in range(4)]
        self._observation = {
            "observation": np.zeros(observation_size(4), np.float32),
            "action_mask": np.ones(NUM_ACTIONS, np.int8),
        }
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (observation_size(4),), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[dict[str, np.ndarray]]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observation

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.next()
        self._decisions = 0

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._decisions += 1
        if self._decisions == DECISIONS_PER_HAND:
            self.terminations = {agent: True for agent in self.agents}
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    def action_mask(self, agent: str) -> np.ndarray:
        return self._observation["action_mask"]


def null_env(raw: bool) -> AECEnv[str, dict[str, np.ndarray], int]:
    """``NullAEC`` bare, or under the wrappers ``dehla_v0.env`` puts around ``dehla_v0.raw_env``."""
    if raw:
        return NullAEC()
    wrapped: AECEnv[str, dict[str, np.ndarray], int] = wrappers.TerminateIllegalWrapper(NullAEC(), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def pettingzoo_hands(
    rules: str, seconds: float, seed: int, raw: bool = False, observe: bool = True, null: bool = False
) -> float:
    env: AECEnv[str, dict[str, np.ndarray], int]
    if null:
        env = null_env(raw)
    else:
        env = dehla_v0.raw_env(rules=rules) if raw else dehla_v0.env(rules=rules)
    rng = random.Random(seed)
    pick = rng.random
    hands = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last(observe)
            if termination or truncation:
                env.step(None)
                continue
            mask = observation["action_mask"] if observation is not None else env.unwrapped.action_mask(agent)
            legal = np.flatnonzero(mask)
            env.step(int(legal[int(pick() * len(legal))]))
        hands += 1
        env.reset()
    return hands / (time.perf_counter() - start)


def gymnasium_hands(rules: str, seconds: float, seed: int) -> float:
    env = DehlaEnv(rules=rules, opponents="random")
    rng = random.Random(seed)
    pick = rng.random
    hands = 0
    _observation, info = env.reset(seed=seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        _observation, _reward, terminated, _truncated, info = env.step(int(legal[int(pick() * len(legal))]))
        if terminated:
            hands += 1
            _observation, info = env.reset()
    return hands / (time.perf_counter() - start)


def openspiel_hands(rules: str, seconds: float, seed: int) -> float | None:
    try:
        import pyspiel

        from dehla.envs.openspiel import load
    except ImportError:
        return None
    game = load(rules)
    rng = random.Random(seed)
    pick = rng.random
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(pick() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(pick() * len(legal))])
        games += 1
    del pyspiel
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement slice (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="slices per loop, alternating with spades (default 3)")
    parser.add_argument("--rules", default="pagat", help="preset (default pagat)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    loops: dict[str, Callable[[str, float, int], float | None]] = {
        "pettingzoo": lambda r, s, seed: pettingzoo_hands(r, s, seed),
        "pettingzoo-raw": lambda r, s, seed: pettingzoo_hands(r, s, seed, raw=True),
        "pettingzoo-mask": lambda r, s, seed: pettingzoo_hands(r, s, seed, raw=True, observe=False),
        "gymnasium": gymnasium_hands,
        "openspiel": openspiel_hands,
        "floor": lambda r, s, seed: pettingzoo_hands(r, s, seed, null=True),
        "floor-raw": lambda r, s, seed: pettingzoo_hands(r, s, seed, raw=True, null=True),
    }
    load_before = _load_average()
    figures: dict[str, float] = {}
    ratios: dict[str, float] = {}
    peers: list[float] = []
    for name, loop in loops.items():
        ours, pairs = [], []
        for round_number in range(args.rounds):
            peer = spades_games_per_second(args.seconds, seed=round_number)
            rate = loop(args.rules, args.seconds, round_number)
            if rate is None:
                break
            ours.append(rate)
            if peer:
                peers.append(peer)
                pairs.append(rate / peer)
        if ours:
            figures[name] = statistics.median(ours)
        if pairs:
            ratios[name] = statistics.median(pairs)
    peer_figure = statistics.median(peers) if peers else None
    load = {"before": load_before, "after": _load_average()}
    if args.json:
        print(
            json.dumps(
                {
                    "rules": args.rules,
                    "hands_per_second": figures,
                    "ratio_to_openspiel_spades": ratios,
                    "openspiel_spades_games_per_second": peer_figure,
                    "load_average": load,
                }
            )
        )
        return 0
    print(f"load average (1, 5, 15 min): {_load_text(load['before'])} before, {_load_text(load['after'])} after")
    if peer_figure is not None:
        print(f"OpenSpiel spades, random full games/s (median of {len(peers)} slices): {peer_figure:8.0f}")
    for name, rate in figures.items():
        ratio = f"  {ratios[name]:6.3f}x OpenSpiel spades" if name in ratios else ""
        print(f"{args.rules} {name:<16} random hands/s: {rate:8.1f}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
