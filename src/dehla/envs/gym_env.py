"""The Gymnasium environment: the agent plays one seat, registered bots or ``cmd:`` programs the others.

    import gymnasium, dehla.envs                      # importing dehla.envs registers the id
    env = gymnasium.make("dehla/Dehla-v0", rules="pagat", opponents="heuristic")
    observation, info = env.reset(seed=1)
    mask = info["action_mask"]                        # also env.unwrapped.action_masks()

The observation is the seat's encoded ``Observation`` (``dehla.features.observation``; with
``mask_in_observation=True`` a dict of it and the mask), the action an index into ``ACTIONS``.
Opponents see only their own observations too, through the same ``Bot.act`` the arena uses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from dehla.bots.base import Bot, make_bot
from dehla.engine.actions import Action
from dehla.envs.common import Episode, Table, hand_reward, match_reward, render_text
from dehla.errors import DehlaError
from dehla.features.observation import ACTIONS, NUM_ACTIONS, action_index, action_mask, encode, observation_size
from dehla.play import checked_act, close_bots
from dehla.protocol.host import make_player
from dehla.rules import Rules

__all__ = ["DehlaEnv"]


class DehlaEnv(gymnasium.Env[Any, int]):
    """One seat of a match against bots: ``opponents`` is one name for every other seat, or one per other seat
    (the other seats in increasing order; a registered bot's name, ``cmd:COMMAND``, or a ``Bot`` object).

    ``seat`` is the agent's seat, or ``None`` for a seat drawn at every reset.  Rewards are those of the
    PettingZoo environment (``dehla_v0``): +1 / -1 / 0 for the agent's team at each hand's end, or at
    the match's end with ``reward="match"``.  An illegal action ends the episode with -1 (``illegal="lose"``,
    as PettingZoo's classic games do) or raises ``DehlaError`` (``illegal="raise"``); the mask lists the
    legal ones (``info["action_mask"]``, ``action_masks()`` as sb3-contrib's MaskablePPO asks).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 - Env's own field

    def __init__(
        self,
        rules: Rules | str | dict[str, object] = "pagat",
        opponents: str | Sequence[str | Bot] = "random",
        seat: int | None = 0,
        episode: Episode = "hand",
        reward: Episode | None = None,
        mask_in_observation: bool = False,
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(rules, episode)
        self.rules = self.table.rules
        players = self.rules.players
        self.reward_mode: Episode = reward or episode
        if self.reward_mode not in ("hand", "match") or (episode == "hand" and self.reward_mode == "match"):
            raise DehlaError("reward must be 'hand', or 'match' with episode='match'")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
            raise DehlaError(f"seat must be 0..{players - 1} or None, not {seat!r}")
        names: list[str | Bot] = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise DehlaError(f"give one opponent name, or {players - 1} (one per other seat), not {len(names)}")
        for name in names:
            if isinstance(name, str) and not name.startswith("cmd:"):
                make_bot(name)  # an unknown name fails here, not at the first reset
        self.opponent_names = names
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.mask_in_observation = mask_in_observation
        if illegal not in ("lose", "raise"):
            raise DehlaError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DehlaError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        vector = spaces.Box(0.0, 1.0, (observation_size(players),), np.float32)
        self.observation_space: spaces.Space[Any] = (
            spaces.Dict({"observation": vector, "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
            if mask_in_observation
            else vector
        )
        self.action_space: spaces.Space[Any] = spaces.Discrete(NUM_ACTIONS)
        self._bot_list: list[Bot] = []
        self.bots: dict[int, Bot] = {}

    # ------------------------------------------------------------------------------------------

    def _make_bots(self, seed: int | None) -> None:
        """One player per opponent name (seeded from ``seed``), kept across resets until the next seed."""
        close_bots(self._bot_list)
        source = random.Random(seed)
        self._bot_list = [
            make_player(name, None if seed is None else source.randrange(2**31)) if isinstance(name, str) else name
            for name in self.opponent_names
        ]

    def _observation(self) -> tuple[Any, dict[str, Any]]:
        observation = self.table.observe(self.seat)
        vector = encode(observation)
        mask = action_mask(observation)
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if self.mask_in_observation:
            return {"observation": vector, "action_mask": mask}, info
        return vector, info

    def _run_opponents(self) -> float:
        """Let the bots act until it is the agent's turn or the episode is over; the agent's reward meanwhile."""
        table = self.table
        reward = 0.0
        while not table.done and table.match.to_act != self.seat:
            seat = table.match.to_act
            assert seat is not None
            result = table.apply(checked_act(self.bots[seat], table.observe(seat)))
            reward += self._reward(result)
        return reward

    def _reward(self, result: Any) -> float:
        if result is not None and self.reward_mode == "hand":
            return hand_reward(result, self.seat)
        if self.table.done and self.reward_mode == "match":
            return match_reward(self.table.match, self.seat)
        return 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.table.reset(seed)
        if seed is not None or not self._bot_list:
            self._make_bots(seed)
        if self.fixed_seat is None:
            self.seat = self.table.rng.randrange(self.rules.players)
        others = [s for s in range(self.rules.players) if s != self.seat]
        self.bots = dict(zip(others, self._bot_list))
        self._run_opponents()  # up to the agent's first decision (a hand cannot end without it)
        return self._observation()

    def step(self, action: int | np.integer[Any]) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.done:
            raise DehlaError("the episode is over: call reset()")
        move: Action = ACTIONS[int(action)]
        legal = table.match.legal_actions()
        if move not in legal:
            if self.illegal == "raise":
                raise DehlaError(f"seat {self.seat} may not {move} now; legal: {', '.join(map(str, legal))}")
            table.done = True  # as PettingZoo's TerminateIllegalWrapper: the episode ends, the agent loses
            observation, info = self._observation()
            return observation, -1.0, True, False, {**info, "illegal_action": True}
        reward = self._reward(table.apply(move))
        reward += self._run_opponents()
        observation, info = self._observation()
        if self.render_mode == "human":
            self.render()
        return observation, reward, table.done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent now, as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        match = self.table.match
        if not self.table.done and match.to_act == self.seat:
            mask[[action_index(action) for action in match.legal_actions()]] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.table.observe(self.seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        close_bots(self._bot_list)
        self._bot_list = []
        self.bots = {}
