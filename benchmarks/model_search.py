"""An experiment, not a bot: a search bot that values with the learned value (``dehla.learn.value``) the moves
where it solved no sampled deal and played none out, instead of playing the heuristic's move there.

Each sampled deal is searched to the end of the trick and its endings valued by the model (a trump call or a
band-hukum card: the position it leads to, before the first lead).  Where the model's best action beats the
heuristic's by less than ``margin`` of the rules' largest result (on average over the deals), the heuristic's
move stands.  On 200 ``pagat`` deals it was no stronger than the heuristic's first tricks (docs/model.md), so no
registered bot uses it; ``bench_search.py`` (a bot name ending in ``+model``), ``bench_value.py moves
--use-model`` and ``bench_calls.py`` measure it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from dehla.bots.sampling import sampled_deals
from dehla.bots.search import Samples, SearchBot, best_action, move_source, settled
from dehla.bots.tracking import CardTracker
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError


@dataclass(frozen=True)
class ModelSettings:
    """``samples``: the deals valued a move when the bot ignores the clock (``SearchSettings.sample_nodes``);
    ``margin``: the share of the rules' largest result by which the model's choice must beat the heuristic's."""

    samples: int = 24
    margin: float = 0.1

    def __post_init__(self) -> None:
        if self.samples <= 0 or self.margin < 0:
            raise DehlaError("the model's samples must be positive and its margin not negative")


class ModelSearchBot(SearchBot):
    """``SearchBot``, with the learned value where it would play the heuristic's move."""

    def __init__(self, *args: Any, model: ModelSettings | None = None, **kwargs: Any) -> None:
        """``SearchBot``'s arguments, and ``model``: how the learned value is used."""
        super().__init__(*args, **kwargs)
        self.model = model if model is not None else ModelSettings()
        self.last_estimates = 0  # deals valued by the model for the last move

    def act(self, observation: Observation) -> Action:
        self.last_estimates = 0
        usual = super().act(observation)
        if move_source(self, observation) != "heuristic":
            return usual
        estimated = self._estimated_choice(observation, usual)
        return usual if estimated is None else estimated

    def _estimated_choice(self, observation: Observation, usual: Action) -> Action | None:
        """Spends what is left of the move's budget (a tenth of it at least); ``None`` when the rules have no model."""
        from dehla.learn.value import default_model, model_leaves, result_scale, trick_values

        model = default_model()
        if model is None or not model.covers(observation.rules):
            return None
        settings = self.settings
        start = time.thread_time()
        deadline = max(self.move_start + self.budget, start + 0.1 * self.budget)
        timed = settings.sample_nodes is None
        limit = self.max_samples if timed else max(1, min(self.max_samples, self.model.samples))
        leaf_values = model_leaves(model)
        team = observation.seat % 2
        estimated = Samples.empty(list(observation.legal_actions))

        def more() -> bool:
            return len(estimated) < limit and not (timed and estimated and time.thread_time() >= deadline)

        for match in sampled_deals(observation, CardTracker(observation), self.rng, more):
            estimated.add(trick_values(match, team, leaf_values))
            ready = settings.settle_after and len(estimated) >= settings.settle_after
            if ready and settled(estimated, best_action(estimated, observation), settings.settle_z):
                break
        self.last_estimates = len(estimated)
        if not estimated:
            return None
        best = best_action(estimated, observation, lambda: usual)
        if usual in estimated:
            gain = estimated.mean(best) - estimated.mean(usual)
            if gain < self.model.margin * result_scale(observation.rules):
                return usual  # an estimate is no proof: leave the heuristic's move only for a clear gain
        return best


def source_of(bot: SearchBot, observation: Observation) -> str:
    """``move_source``, with ``"model"`` where the model chose (ask right after ``bot.act``)."""
    if isinstance(bot, ModelSearchBot) and bot.last_estimates:
        return "model"
    return move_source(bot, observation)
