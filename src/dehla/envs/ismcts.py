"""OpenSpiel's information-set MCTS as a dehla bot: a strong search nobody here wrote, as a yardstick.

``openspiel-ismcts`` runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (the Python port of
``pyspiel.ISMCTSBot``; the C++ bot crashes on Python games in open_spiel 2.0, see docs/envs.md) on the
``python_dehla`` game, from the seat's ``Observation`` only: the state handed to the search is one
world sampled from the observation, and the search resamples the unseen cards itself at every
simulation (``resample_from_infostate``).  Budget: ``SIMULATIONS`` simulations a decision, each a UCT
descent (c = ``UCT_C``) and one random rollout to the hand's end; worlds unlimited; the final move is
the most visited.  It plays one hand as its game: it does not know the match score.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.features.observation import ACTIONS
from dehla.rules import Rules

__all__ = ["NAME", "SIMULATIONS", "UCT_C", "OpenSpielISMCTSBot"]

NAME = "openspiel-ismcts"
SIMULATIONS = 200
UCT_C = 2.0


class OpenSpielISMCTSBot:
    """``act(observation)`` by OpenSpiel's ISMCTS with ``simulations`` simulations a decision."""

    name = NAME

    def __init__(self, seed: int | None = None, simulations: int = SIMULATIONS, uct_c: float = UCT_C) -> None:
        self.seed = seed
        self.simulations = simulations
        self.uct_c = uct_c
        self.rng = random.Random(seed)
        self._games: dict[Rules, tuple[Any, Any]] = {}

    def _search(self, rules: Rules) -> tuple[Any, Any]:
        found = self._games.get(rules)
        if found is None:
            from open_spiel.python.algorithms import ismcts, mcts

            from dehla.envs.openspiel import load

            game = load(rules)
            state = np.random.RandomState(self.rng.randrange(2**31))
            evaluator = mcts.RandomRolloutEvaluator(1, state)
            bot = ismcts.ISMCTSBot(
                game,
                evaluator,
                self.uct_c,
                self.simulations,
                random_state=state,
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            )
            found = self._games[rules] = (game, bot)
        return found

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        from dehla.envs.openspiel import state_from_observation

        game, bot = self._search(observation.rules)
        state = state_from_observation(game, observation, self.rng)
        return ACTIONS[int(bot.step(state))]


def register_bot() -> bool:
    """Add ``openspiel-ismcts`` to the bot registry when open_spiel is installed; whether it was added."""
    import importlib.util

    from dehla.bots.base import BOTS, register

    if NAME in BOTS:
        return True
    if importlib.util.find_spec("pyspiel") is None:
        return False
    register(
        NAME,
        OpenSpielISMCTSBot,
        3,
        "expert",
        f"OpenSpiel's information-set MCTS, {SIMULATIONS} simulations with random rollouts a decision",
    )
    return True
