"""The PettingZoo AEC environment: every seat an agent, named as PettingZoo names its own.

    from dehla.envs import dehla_v0
    env = dehla_v0.env(rules="pagat")          # any preset, rules JSON or Rules value
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

Agents are ``seat_0 .. seat_{P-1}``; ``observe(agent)`` is ``{"observation": encode(obs), "action_mask":
action_mask(obs)}`` for that seat's ``Observation`` (``dehla.features.observation``), so no agent sees another's
cards.  ``episode="hand"`` (default) ends after one hand with +1 / -1 / 0 to each seat for its team's
win, loss or a drawn hand; ``episode="match"`` plays a whole match, with those rewards at every hand's
end (``reward="hand"``) or +1 / -1 only when the match is won (``reward="match"``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from dehla.engine.actions import Action
from dehla.envs.common import Episode, Table, hand_reward, match_reward, render_text
from dehla.errors import DehlaError
from dehla.features.observation import ACTIONS, NUM_ACTIONS, action_index, action_mask, encode, observation_size
from dehla.rules import Rules

__all__ = ["env", "raw_env"]

ObservationDict = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv[str, ObservationDict, int]:
    """The environment with PettingZoo's usual wrappers (an illegal action ends the episode with -1 to its
    agent, out-of-range actions are caught, and the order of calls is enforced)."""
    wrapped: AECEnv[str, ObservationDict, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv[str, ObservationDict, int]):  # PettingZoo's own name for the unwrapped class
    """Dehla Pakad / Mendikot as an AEC game: one agent per seat, the deal is the environment's chance."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "dehla_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: Rules | str | dict[str, object] = "pagat",
        episode: Episode = "hand",
        reward: Episode | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(rules, episode)
        self.rules = self.table.rules
        self.reward_mode: Episode = reward or episode
        if self.reward_mode not in ("hand", "match"):
            raise DehlaError(f"reward must be 'hand' or 'match', not {reward!r}")
        if episode == "hand" and self.reward_mode == "match":
            raise DehlaError("reward='match' needs episode='match': a one-hand episode never ends a match")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DehlaError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        players = self.rules.players
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = observation_size(players)
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        if seed is not None:
            for number, space in enumerate(self.action_spaces.values()):
                space.seed(seed + number)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._acting_agent()

    def _acting_agent(self) -> str:
        to_act = self.table.match.to_act
        assert to_act is not None
        return self.possible_agents[to_act]

    def observe(self, agent: str) -> ObservationDict:
        """The agent's seat's view, encoded: never built from anything but ``Match.observe(seat)``."""
        observation = self.table.observe(self._seats[agent])
        return {"observation": encode(observation), "action_mask": action_mask(observation)}

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The agent's legal actions as a mask, without encoding its whole observation."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        match = self.table.match
        if match.to_act == self._seats[agent] and not self.terminations.get(agent, True):
            mask[[action_index(action) for action in match.legal_actions()]] = 1
        return mask

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise DehlaError(f"{agent} must act: None is only for an agent whose episode ended")
        move: Action = ACTIONS[int(action)]
        table = self.table
        try:
            result = table.apply(move)  # the engine checks the action; an illegal one changes nothing
        except DehlaError as error:
            raise DehlaError(f"{agent} may not {move} now: {error}") from None
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for name in rewards:
            rewards[name] = 0.0
        if result is not None and self.reward_mode == "hand":
            for name in rewards:
                rewards[name] = hand_reward(result, self._seats[name])
        if table.done:
            if self.reward_mode == "match":
                for name in rewards:
                    rewards[name] = match_reward(table.match, self._seats[name])
            for name in self.terminations:
                self.terminations[name] = True
        else:
            self.agent_selection = self._acting_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The seat to act's view in words (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        seat = self.table.match.to_act
        text = render_text(self.table.observe(0 if seat is None else seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
