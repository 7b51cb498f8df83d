"""Search bots: ``hard`` and ``expert`` sample the unseen cards and solve each sample exactly; ``cheat`` sees all.

``hard`` and ``expert`` are *perfect-information Monte Carlo* players, the
method of GIB in bridge: from the seat's ``Observation`` alone they deal the
unseen cards at random, consistently with everything the seat has seen
(``CardTracker``: voids shown, cards played, trump called, cut or revealed,
the band-hukum card only if this seat chose it, the cards a staged deal has
still to hand out), rebuild each sample as a full engine ``Match`` by
replaying the hand's public actions, solve it double-dummy as far as the
hand's winner (``Solver.results`` with ``winner_only``: not the points, not
the tens), and play the action that wins the most samples.  Each move has a time
budget; ``expert`` has a larger one.  While the hand is still too big to solve
samples within the budget (the first tricks), and for the trump call and the
band-hukum card, they play the sampled deals out to the end of the hand after
each legal action with a compiled policy (``dehla.bots.playout``) and play the
action that wins the hand most often.  With ``SearchSettings(playouts=False)``
they play there as the ``heuristic`` bot does.

``cheat`` is for measurement only: it plays a double-dummy best action of
the *true* position, the ceiling a sampling player can approach.  Bots only
ever receive observations, so it must be shown the truth explicitly: whoever
runs the match calls ``bind(match)`` once (``play_match`` and the arena do when
a bot has a ``bind`` method).  Unbound, it refuses to play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from dehla.bots.base import Bot, register
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.sampling import determinize, sampled_deals
from dehla.bots.tracking import CardTracker
from dehla.engine.actions import Action, Play
from dehla.engine.observe import Observation
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.rules import Rules

if TYPE_CHECKING:  # the solver (and numba) load on first use, not with every command that lists bots
    from dehla.solver.fast import Results, Solver
    from dehla.solver.objective import Value

__all__ = [
    "SearchBot",
    "SearchSettings",
    "CheatBot",
    "determinize",
    "utility",
    "DEFAULT_BUDGETS",
    "ActionEstimate",
    "estimate_action",
    "move_source",
    "Samples",
    "best_action",
    "settled",
]

#: Seconds per move: (hard, expert).
DEFAULT_BUDGETS = (0.5, 2.0)
#: Worlds one move plays out at most on the clock: a safety cap the budget reaches only on the fastest hosts.
PLAYOUT_CAP = 1 << 16
FloatMatrix = npt.NDArray[np.float64]
#: Search nodes a second the solver manages on one core, where a bot starts before it has measured its own
#: solver (``NodeRate``; docs/benchmarks.md measures 1.1 to 2 million on its positions on an idle machine).
NODES_PER_SECOND = 2_000_000


class _SolveOdds:
    """How often a solve within the bot's node limit finished, per rules and tricks played.

    Each bot keeps its own, learned from its own moves: nothing outlives the
    bot, so a bot plays the same whatever ran before it in the process.  Where
    most tries failed, ``worth_trying`` says no, except one time in ten to keep
    the figures current, so the first tricks of a full deal, which no budget can
    solve, do not spend every move's budget on a solve that fails (on full
    pagat deals failed tries had been a third of the search bot's thinking
    time).  A failed try costs time only: the move is then played out (the
    heuristic's, with playouts off), as it is when the bot does not try.
    """

    TRIES = 4  # tries before the figures are trusted
    SUCCESS = 0.25  # share of them that must have finished
    EXPLORE = 0.1  # chance of trying anyway

    def __init__(self) -> None:
        self.counts: dict[tuple[Rules, int], list[int]] = {}

    def worth_trying(self, key: tuple[Rules, int], rng: random.Random) -> bool:
        tries, solved = self.counts.get(key, (0, 0))
        return tries < self.TRIES or solved >= self.SUCCESS * tries or rng.random() < self.EXPLORE

    def record(self, key: tuple[Rules, int], solved: bool) -> None:
        counts = self.counts.setdefault(key, [0, 0])
        counts[0] += 1
        counts[1] += solved


class NodeRate:
    """Search nodes a second of one bot's solver, measured on its own solves (CPU time of its thread).

    A sample's node limit is the time left times this rate, so a move keeps to its budget on a slower
    host or a busy core as on the machine ``NODES_PER_SECOND`` was measured on.  The measurement starts
    from that figure, counted as ``PRIOR_SECONDS`` of search, and belongs to the bot: nothing outlives it.
    """

    PRIOR_SECONDS = 0.05  # a tenth of a move: the first solves measured soon outweigh it

    def __init__(self) -> None:
        self.nodes = NODES_PER_SECOND * self.PRIOR_SECONDS
        self.seconds = self.PRIOR_SECONDS

    def record(self, nodes: int, seconds: float) -> None:
        self.nodes += nodes
        self.seconds += max(seconds, 0.0)

    def limit(self, seconds: float) -> int:
        """The nodes this solver gets through in ``seconds`` (at least 20,000: a sample worth trying)."""
        return max(20_000, int(seconds * self.nodes / self.seconds))


def utility(value: Value, team: int) -> float:
    """What a solved ending is worth to ``team``: its points margin, plus a little for each ten more.

    Points are the hand's score under the rules (one a hand for Pagat and
    Mendikot, 20/30/80 for Taash); the tens term (0.05 a ten) breaks ties, so
    among equally scoring lines the bot keeps the most tens (a Pagat kot).
    """
    margin = value.net if team == 0 else -value.net
    tens = value.tens[team] - value.tens[1 - team]
    return margin + 0.05 * tens


class Samples:
    """The valued samples of one move: each action's value in every sample (a samples x actions matrix).

    Every sample values every legal action, so actions are compared sample by sample.  The playouts bring
    thousands of samples a move, so they are kept in a numpy array.
    """

    def __init__(self, values: dict[Action, list[float]]) -> None:
        self.actions = list(values)
        self.columns = {action: column for column, action in enumerate(self.actions)}
        count = max(map(len, values.values()), default=0)
        self._values = np.zeros((max(count, 16), len(self.actions)), dtype=np.float64)
        for column, action in enumerate(self.actions):
            self._values[: len(values[action]), column] = values[action]
        self.count = count

    @classmethod
    def empty(cls, actions: Iterable[Action]) -> Samples:
        return cls({action: [] for action in actions})

    def __len__(self) -> int:
        return self.count

    def __contains__(self, action: Action) -> bool:
        return action in self.columns

    @property
    def values(self) -> FloatMatrix:
        """The (samples, actions) matrix of values, actions in ``self.actions`` order."""
        return self._values[: self.count]

    def add(self, sample: dict[Action, float]) -> None:
        """One more sample."""
        self.extend(np.array([[sample[action] for action in self.actions]], dtype=np.float64))

    def extend(self, values: FloatMatrix) -> None:
        """More samples (rows of ``values``, columns in ``self.actions`` order)."""
        end = self.count + values.shape[0]
        if end > self._values.shape[0]:
            size = max(end, 2 * self._values.shape[0])
            grown = np.zeros((size, len(self.actions)), dtype=np.float64)
            grown[: self.count] = self.values
            self._values = grown
        self._values[self.count : end] = values
        self.count = end

    def subset(self, actions: list[Action]) -> Samples:
        """The same samples, valuing only ``actions``."""
        kept = Samples.empty(actions)
        kept.extend(self.values[:, [self.columns[action] for action in actions]])
        return kept

    def mean(self, action: Action) -> float:
        """The action's average value (minus infinity before any sample)."""
        if not self.count:
            return float("-inf")
        return float(self.values[:, self.columns[action]].mean())


def settled(samples: Samples, best: Action, z: float, ties_after: int = 0) -> bool:
    """Would more samples hardly change the choice of ``best``?

    Every sample values every action, so ``best`` is compared with each other
    action sample by sample (paired differences): the choice is settled when,
    against every other action, ``best`` was never worse in any sample, or its
    mean advantage is more than ``z`` standard errors above nothing.
    An action that did exactly as well in every sample settles nothing before
    ``ties_after`` samples: when only results count, two actions often tie in
    the first few deals and part in one deal of five.
    """
    return bool(_ahead(samples, best, z, ties_after).all())


def _ahead(samples: Samples, best: Action, z: float, ties_after: int = 0) -> npt.NDArray[np.bool_]:
    """Per action (in ``samples.actions`` order): is ``best`` settled against it (``settled``)?  True for
    ``best`` itself; all false while there are too few samples to tell."""
    n = len(samples)
    if n < 2:
        return np.zeros(len(samples.actions), dtype=np.bool_)
    values = samples.values
    differences = values[:, samples.columns[best], None] - values
    never_worse = differences.min(axis=0) >= 0.0
    parted = (differences.max(axis=0) > 0.0) | (n >= ties_after)
    mean = differences.mean(axis=0)
    variance = differences.var(axis=0, ddof=1)
    clear = mean - z * np.sqrt(variance / n) > 0.0
    ahead = np.where(never_worse, parted, clear)
    ahead[samples.columns[best]] = True
    return np.asarray(ahead, dtype=np.bool_)


@dataclass(frozen=True)
class SearchSettings:
    """How a search bot spends its budget; the defaults are the bots' play.

    After ``settle_after`` samples a bot stops
    early once the choice is settled (see ``settled``, with ``settle_z``
    standard errors; ``settle_after=0`` never stops early): clear moves come
    quickly, and hard ones keep the whole budget.  With ``sample_nodes`` the bot
    ignores the clock and gives every sample that many search nodes instead:
    slower to tune but reproducible.  ``table_bits`` sizes the solver's table.
    ``playouts`` plays sampled deals out with the compiled policy
    where nothing is solved (the call and the hide included), ``playout_batch`` at a
    time: on the clock as many deals as the budget allows (at most ``PLAYOUT_CAP``),
    with ``sample_nodes`` ``playout_worlds`` deals, ignoring the clock.
    """

    table_bits: int = 19
    sample_nodes: int | None = None
    settle_after: int = 12
    settle_z: float = 3.0
    playouts: bool = True
    playout_worlds: int = 512
    playout_batch: int = 8

    def __post_init__(self) -> None:
        if self.playout_worlds <= 0 or self.playout_batch <= 0:
            raise DehlaError("the playout worlds and their batch must be positive")
        if self.sample_nodes is not None and self.sample_nodes <= 0:
            raise DehlaError(f"the nodes per sample must be positive, not {self.sample_nodes}")


class SearchBot:
    """Sample the unseen cards, solve each sample exactly, play the best action on average.

    ``budget`` is the thinking time per move in CPU seconds of one core (the
    same as seconds on an idle core); ``max_samples`` caps the samples of one
    move; ``seed`` makes the bot's random choices repeatable (its moves still
    follow the clock unless ``settings.sample_nodes`` is set).  The solver's
    memory is kept from move to move, and each sampled deal starts a fresh
    table generation in it; nothing the bot learns outlives it.  ``settings``
    (``SearchSettings``) holds the knobs that tests and benchmarks vary.

    Each sample is solved only as far as who wins the hand (``Solver.results``
    with ``winner_only``: the bot plays to win hands, as its playouts do, not
    for Taash's points), which costs a fraction of a full solve early in a
    hand, so the bot starts searching a trick or two sooner; among actions
    with the same average result it plays what ``heuristic`` would, when that
    is one of them.  Each deal is drawn uniformly among those consistent with
    the observation (``CardTracker.sample``).
    """

    def __init__(
        self,
        seed: int | None = None,
        budget: float = DEFAULT_BUDGETS[0],
        max_samples: int = 64,
        name: str = "hard",
        settings: SearchSettings | None = None,
    ) -> None:
        if budget <= 0:
            raise DehlaError(f"the time budget must be positive, not {budget}")
        self.name = name
        self.rng = random.Random(seed)
        self.budget = budget
        self.max_samples = max_samples
        self.settings = settings = settings if settings is not None else SearchSettings()
        self._solver: Solver | None = None
        self.fallback = HeuristicBot(seed)
        self.solve_odds = _SolveOdds()
        self.node_rate = NodeRate()
        self.last_samples = 0  # samples solved exactly for the last move
        self.last_playouts = 0  # worlds played out for the last move
        self.move_start = 0.0

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            from dehla.solver.fast import Solver

            self._solver = Solver(table_bits=self.settings.table_bits)
        return self._solver

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal:
            raise DehlaError(f"seat {observation.seat} has nothing to do now")
        self.last_playouts = 0
        if len(legal) == 1:
            self.last_samples = 0
            return legal[0]
        if observation.phase != "play":
            # The trump call and the band-hukum choice: no exact solve of a full deal fits a move, so playouts or
            # the heuristic.
            self.last_samples = 0
            self.move_start = time.thread_time()
            estimated = self._playout_choice(observation)
            return estimated if estimated is not None else self.fallback.act(observation)
        chosen = self._sampled_choice(observation)
        if chosen is None:
            chosen = self._playout_choice(observation)
        if chosen is None:
            return self.fallback.act(observation)
        return chosen

    def _sampled_choice(self, observation: Observation) -> Action | None:
        from dehla.solver.fast import SolveLimitReached
        from dehla.solver.warm import kernel_ready

        settings = self.settings
        # The budget is CPU time of this thread: on an idle core the same as the clock, and on a busy
        # machine the bot still thinks as much as it would alone (the move just takes longer).
        start = self.move_start = time.thread_time()
        deadline = start + self.budget
        timed = settings.sample_nodes is None
        if timed and not kernel_ready():
            # A fresh install: the solver's kernel is still compiling in the background; play as heuristic meanwhile.
            self.last_samples = 0
            return None
        # The first sample gets a quarter of the budget; if it fails, the playouts take over. (The whole budget
        # won no more hands on held-out deals and made moves slower: docs/benchmarks.md.)
        first_limit = self.node_rate.limit(self.budget / 4)
        first_key = (observation.rules, len(observation.tricks))
        if timed and not self.solve_odds.worth_trying(first_key, self.rng):
            self.last_samples = 0
            return None
        tracker = CardTracker(observation)
        team = observation.seat % 2
        solved = Samples.empty(list(observation.legal_actions))
        ties_after = 2 * settings.settle_after

        def more() -> bool:
            return len(solved) < self.max_samples and not (timed and time.thread_time() >= deadline)

        for match in sampled_deals(observation, tracker, self.rng, more):
            now = time.thread_time()
            if not timed:
                self.solver.node_limit = settings.sample_nodes or 0
            elif solved:
                self.solver.node_limit = self.node_rate.limit(deadline - now)  # what is left
            else:
                self.solver.node_limit = first_limit
            nodes_before = self.solver.nodes
            try:
                values = self._sample_values(match, team)
            except SolveLimitReached:
                values = None
            self.node_rate.record(self.solver.nodes - nodes_before, time.thread_time() - now)
            if timed and not solved:
                self.solve_odds.record(first_key, values is not None)
            if values is None:
                break
            solved.add(values)
            ready = settings.settle_after and len(solved) >= settings.settle_after
            if ready and settled(solved, best_action(solved, observation), settings.settle_z, ties_after):
                break
        self.last_samples = len(solved)
        if not solved:
            return None
        return best_action(solved, observation, lambda: self.fallback.act(observation))

    def _playout_choice(self, observation: Observation) -> Action | None:
        """Where no sample can be solved in time: play sampled worlds out with the compiled policy
        (``dehla.bots.playout``) after every legal action, and take the best on average.

        On the clock, plays worlds until what is left of the move's budget (at least a quarter of it) is
        spent, the choice is settled (``settled``) or ``PLAYOUT_CAP`` worlds; with ``sample_nodes``, exactly
        ``playout_worlds`` (or until settled).  ``None`` when playouts are off or no world could be drawn.
        """
        settings = self.settings
        if not settings.playouts:
            return None
        from dehla.solver.warm import kernel_ready

        if settings.sample_nodes is None and not kernel_ready():
            return None  # a fresh install: the kernels (playouts too) are compiling aside; the heuristic plays
        from dehla.bots.playout import playout_batches

        start = time.thread_time()
        deadline = max(self.move_start + self.budget, start + 0.25 * self.budget)
        timed = settings.sample_nodes is None
        cap = PLAYOUT_CAP if timed else settings.playout_worlds
        actions = list(observation.legal_actions)
        played = Samples.empty(actions)
        check = 4 * settings.settle_after

        def more() -> bool:
            return len(played) < cap and not (timed and time.thread_time() >= deadline)

        for values in playout_batches(observation, actions, self.rng, more, settings.playout_batch):
            played.extend(values)
            if not settings.settle_after or len(played) < check:
                continue
            # The test costs as much as the worlds so far: it is made each time their number grows by an eighth.
            check = max(len(played) + 1, len(played) * 9 // 8)
            best = best_action(played, observation)
            if settled(played, best, settings.settle_z):
                break
            # Actions clearly behind the best (never tied throughout) leave the race: later worlds skip them.
            ahead = _ahead(played, best, settings.settle_z, ties_after=len(played) + 1)
            racing = [action for action, behind in zip(played.actions, ahead) if action == best or not behind]
            if len(racing) < len(played.actions):
                played = played.subset(racing)
                actions[:] = racing
        self.last_playouts = len(played)
        if not played:
            return None
        return best_action(played, observation, lambda: self.fallback.act(observation))

    def _sample_values(self, match: Match, team: int) -> dict[Action, float]:
        """What each legal action is worth to ``team`` in one sampled deal, solved double-dummy: 1 if the team
        wins the hand, -1 if it loses (0 if nobody does), as the playouts value the hand's winner."""
        results = self.solver.results(match, winner_only=True)
        return {action: float(results.for_team(action, team)) for action in results.actions}


def move_source(bot: SearchBot, observation: Observation) -> str:
    """Where ``bot``'s last move in ``observation`` came from (ask right after ``bot.act(observation)``).

    ``"forced"``: the only legal action; ``"solved"``: sampled deals solved exactly;
    ``"playout"``: sampled deals played out by the compiled policy; ``"heuristic"``: the
    heuristic's move, because no sampled deal could be solved in time and
    playouts were off (the trump call and the band-hukum choice are never solved).
    """
    if len(observation.legal_actions) == 1:
        return "forced"
    if bot.last_samples:
        return "solved"
    if bot.last_playouts:
        return "playout"
    return "heuristic"


@dataclass(frozen=True)
class ActionEstimate:
    """An estimate of one action for the seat's team, averaged over sampled deals: never exact."""

    margin: float  # the hand's expected points margin for the seat's team, in the rules' points
    samples: int  # sampled deals averaged
    scale: int  # the largest result the rules allow (``result_scale``)


def estimate_action(
    observation: Observation,
    action: Action,
    seed: int = 0,
    max_samples: int = 64,
    seconds: float = 0.5,
    method: str = "playout",
) -> ActionEstimate | None:
    """What ``action`` is expected to bring, from the seat's observation alone (for a hint).

    Deals the unseen cards as the search bots do (``CardTracker``, ``determinize``) and plays
    ``action`` in each sampled deal; ``method="playout"`` (the default) then plays every deal to the
    end of the hand with the compiled policy (``dehla.bots.playout``) and averages the points margin;
    ``method="model"`` searches on to the end of the trick with best play by both teams and values
    each ending with the learned value (a trump call or a band-hukum card: the position before the
    first lead).  Stops after ``max_samples`` deals or ``seconds`` of the clock (after one deal at
    least).  ``None`` when no deal could be sampled (with the model: also when the rules have no model
    or the model file is missing).  Plays nothing and changes no bot.
    """
    from dehla.learn.value import result_scale

    if action not in observation.legal_actions:
        return None
    rng = random.Random(seed)
    deadline = time.perf_counter() + seconds
    margins: list[float] = []

    def more() -> bool:
        return len(margins) < max_samples and not (margins and time.perf_counter() >= deadline)

    if method == "playout":
        from dehla.bots.playout import playout_batches

        for values in playout_batches(observation, [action], rng, more, batch=1, points=True):
            margins.extend(float(value) for value in values[:, 0])
    else:
        from dehla.learn.value import default_model, model_leaves, trick_values

        model = default_model()
        if model is None or not model.covers(observation.rules):
            return None
        leaf_values = model_leaves(model)
        team = observation.seat % 2
        for match in sampled_deals(observation, CardTracker(observation), rng, more):
            margins.append(trick_values(match, team, leaf_values, [action])[action])
    if not margins:
        return None
    return ActionEstimate(sum(margins) / len(margins), len(margins), result_scale(observation.rules))


def best_action(samples: Samples, observation: Observation, prefer: Callable[[], Action] | None = None) -> Action:
    """The action with the best average.

    Ties go to ``prefer()`` when it names one of the tied actions (asked only when
    there is a tie), else to the lowest card (keep the high ones).
    """

    def average(action: Action) -> float:
        return round(samples.mean(action), 9)

    def key(action: Action) -> tuple[float, int]:
        low = -int(action.card % 13) if isinstance(action, Play) else 0
        return (average(action), low)

    candidates = [action for action in observation.legal_actions if action in samples]
    best = max(candidates, key=key)
    if prefer is None:
        return best
    tied = [action for action in candidates if average(action) == average(best)]
    preferred = _preferred(tied, prefer)
    return best if preferred is None else preferred


def _preferred(tied: list[Action], prefer: Callable[[], Action]) -> Action | None:
    """``prefer()`` if it is one of the ``tied`` actions (asked only when there is more than one), else ``None``."""
    if len(tied) < 2:
        return None
    preferred = prefer()
    return preferred if preferred in tied else None


class CheatBot:
    """Plays a double-dummy best action of the true position.  FOR MEASUREMENT ONLY: it sees every card.

    Best means best for the hand's result (``Solver.results``, which reaches the
    early tricks a full solve cannot); among the actions that keep it, what
    ``heuristic`` would play, else the lowest card.

    The match runner must call ``bind(match)`` before the bot's first move.
    ``node_limit`` caps each solve (the heuristic plays a move whose solve
    would pass it, and where such solves mostly failed it is not tried, see
    ``_SolveOdds``); by default there is no cap, so every move is exact.
    """

    name = "cheat"

    def __init__(self, seed: int | None = None, node_limit: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.fallback = HeuristicBot(seed)
        self.node_limit = node_limit
        self.solve_odds = _SolveOdds()
        self._match: Match | None = None
        self._solver: Solver | None = None

    def bind(self, match: Match) -> None:
        """Show the bot the true match it plays in (the only way it sees hidden cards)."""
        self._match = match

    def act(self, observation: Observation) -> Action:
        match = self._match
        if match is None:
            raise DehlaError("the cheat bot plays only in a match it was bound to (bind(match)); it is for measurement")
        if match.to_act != observation.seat:
            raise DehlaError("the cheat bot was bound to a different match")
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if match.phase is not Phase.PLAY:
            return self.fallback.act(observation)
        if self._solver is None:
            from dehla.solver.fast import Solver

            self._solver = Solver(table_bits=20)
        from dehla.solver.fast import SolveLimitReached

        self._solver.node_limit = self.node_limit or 0
        key = (match.rules, len(observation.tricks))
        if self.node_limit and not self.solve_odds.worth_trying(key, self.rng):
            return self.fallback.act(observation)
        try:
            results: Results | None = self._solver.results(match)
        except SolveLimitReached:
            results = None
        if self.node_limit:
            self.solve_odds.record(key, results is not None)
        if results is None:
            return self.fallback.act(observation)
        team = observation.seat % 2
        best = max(results.for_team(action, team) for action in legal)
        choices = [action for action in legal if results.for_team(action, team) == best]
        preferred = _preferred(choices, lambda: self.fallback.act(observation))
        if preferred is not None:
            return preferred
        return min(choices, key=lambda action: action.card % 13 if isinstance(action, Play) else -1)


def _factory(name: str, budget: float) -> Callable[[int | None], Bot]:
    def make(seed: int | None) -> Bot:
        return SearchBot(seed, budget=budget, name=name)

    return make


register(
    "hard",
    _factory("hard", DEFAULT_BUDGETS[0]),
    2,
    "advanced",
    f"samples the unseen cards and solves each sample exactly ({DEFAULT_BUDGETS[0]:g} s a move)",
    uses_solver=True,
)
register(
    "expert",
    _factory("expert", DEFAULT_BUDGETS[1]),
    3,
    "expert",
    f"as hard, with a larger budget ({DEFAULT_BUDGETS[1]:g} s a move)",
    uses_solver=True,
)
register(
    "cheat",
    CheatBot,
    9,
    "cheat",
    "sees all cards (double-dummy best play); for measurement only, needs bind(match)",
    measurement_only=True,
    uses_solver=True,
)
