"""Labels for the value model: positions of played hands valued by the exact solver, or backwards by a model.

* **Solver labels.**  Players (``DataTask.player``: the heuristic bot, for ``dehla train value``) play hands
  against each other, a share of moves random so that the data also holds the positions a search looks at
  after a poor move; at each trick boundary in range the position, every card known, is labelled by the exact
  solver (``Solver.value``: the hand's result and the tens under best play).  Hands come from seeds derived
  from one seed, in tasks spread over local processes or a Ray cluster; the result depends on neither.
* **Backward labels** (``backward_label``).  A position too early to solve is labelled by a search of its next
  trick with a fitted model's values at the leaves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.features.position import RAW_FIELDS, raw_of
from dehla.learn.data import HISTORY, PRESET_NAMES, SOLVER, UNLABELLED, Dataset, history_of, match_of, sorted_by_hand
from dehla.learn.value import ValueModel, team_predictions, trick_values
from dehla.rules import preset

__all__ = [
    "FAMILY_PRESETS",
    "DataTask",
    "Player",
    "backward_label",
    "backward_labels",
    "data_tasks",
    "label_task",
    "make_data",
]

#: The presets each family's data is drawn from (four players), the first twice as often as each other one.
FAMILY_PRESETS: dict[str, tuple[str, ...]] = {
    "pagat": ("pagat", "pagat-cut"),
    "taash": ("taash", "taash-b2b"),
    "mendikot": ("mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open"),
}
_HANDS_PER_TASK = 25


class Player(Protocol):
    """What plays the labelled hands: a move for a seat's observation."""

    def act(self, observation: Observation, /) -> Action: ...


@dataclass(frozen=True)
class DataTask:
    """One worker's share: ``hands`` hands of ``preset`` from ``seed``; hands numbered from ``first_hand``."""

    preset: str
    seed: int
    hands: int
    first_hand: int
    from_trick: int
    to_trick: int
    node_limit: int
    explore: float
    #: Makes each seat's player from a seed: given, not imported, as the bots sit above the model they read; a
    #: class or a module-level function, since tasks go to other processes.
    player: Callable[[int], Player]
    backward_to: int | None = None  # keep positions from this many tricks on, unlabelled, for backward labels
    keep_history: bool = False  # the solver's positions keep their history too (to rebuild them: benchmarks)


def label_task(task: DataTask) -> Dataset:
    """Play the task's hands with the task's players and label every trick boundary in range with the solver.

    Boundaries from ``task.backward_to`` up to ``from_trick`` are kept unlabelled, with their history, for
    ``backward_label``.
    """
    from dehla.solver.fast import SolveLimitReached, Solver

    solver = Solver(table_bits=20, node_limit=task.node_limit)
    rng = random.Random(task.seed)
    rules = preset(task.preset)
    rows: list[list[int]] = []
    info: list[tuple[int, int, int, int, float]] = []
    histories: list[list[int]] = []
    sources: list[int] = []
    no_history = [-1] * HISTORY
    keep_from = task.from_trick if task.backward_to is None else task.backward_to
    for number in range(task.hands):
        hand_id = task.first_hand + number
        match = Match.new(rules, rng)
        bots = [task.player(rng.getrandbits(32)) for _ in range(rules.players)]
        match.apply(match.random_deal(rng))
        while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
            played = len(match.tricks)
            boundary = match.phase is Phase.PLAY and not match.current_trick
            if boundary and keep_from <= played < task.from_trick:
                state = match.hand_state()
                assert state.to_act is not None
                rows.append(raw_of(state))
                info.append((hand_id, played, 0, 0, 0.0))
                histories.append(history_of(match))
                sources.append(UNLABELLED)
            elif boundary and task.from_trick <= played <= task.to_trick:
                state = match.hand_state()
                start = time.perf_counter()
                try:
                    value = solver.value(match)
                except SolveLimitReached:
                    value = None
                seconds = time.perf_counter() - start
                if value is not None:
                    mover = state.to_act
                    assert mover is not None
                    team = mover % 2
                    margin = value.net if team == 0 else -value.net
                    rows.append(raw_of(state))
                    info.append((hand_id, played, margin, value.tens[team], seconds))
                    histories.append(history_of(match) if task.keep_history else no_history)
                    sources.append(SOLVER)
            seat = match.to_act
            assert seat is not None
            legal = match.legal_actions()
            if match.phase is Phase.PLAY and rng.random() < task.explore:
                action = rng.choice(legal)
            else:
                action = bots[seat].act(match.observe(seat))
            match.apply(action)
    count = len(rows)
    index = PRESET_NAMES.index(task.preset)
    return Dataset(
        rows=np.asarray(rows, dtype=np.int64).reshape(count, len(RAW_FIELDS)),
        preset=np.full(count, index, dtype=np.int64),
        hand=np.asarray([i[0] for i in info], dtype=np.int64),
        trick=np.asarray([i[1] for i in info], dtype=np.int64),
        margin=np.asarray([i[2] for i in info], dtype=np.float64),
        tens=np.asarray([i[3] for i in info], dtype=np.float64),
        seconds=np.asarray([i[4] for i in info], dtype=np.float64),
        source=np.asarray(sources, dtype=np.int8),
        history=np.asarray(histories, dtype=np.int8).reshape(count, HISTORY),
    )


def data_tasks(
    families: Sequence[str],
    hands: int,
    seed: int,
    from_trick: int,
    to_trick: int,
    node_limit: int,
    explore: float,
    player: Callable[[int], Player],
    backward_to: int | None = None,
    keep_history: bool = False,
) -> list[DataTask]:
    """The tasks for ``hands`` hands per family, each preset of a family with its share, seeds from ``seed``."""
    tasks: list[DataTask] = []
    master = random.Random(seed)
    first = 0
    for family in families:
        names = FAMILY_PRESETS[family]
        weights = [2] + [1] * (len(names) - 1)
        shares = [hands * w // sum(weights) for w in weights]
        shares[0] += hands - sum(shares)
        for name, share in zip(names, shares):
            while share > 0:
                size = min(_HANDS_PER_TASK, share)
                tasks.append(
                    DataTask(
                        name,
                        master.getrandbits(63),
                        size,
                        first,
                        from_trick,
                        to_trick,
                        node_limit,
                        explore,
                        player,
                        backward_to,
                        keep_history,
                    )
                )
                first += size
                share -= size
    return tasks


def make_data(
    tasks: Sequence[DataTask],
    workers: int,
    backend: str = "local",
    progress: Callable[[int, int], None] | None = None,
) -> Dataset:
    """Label every task's positions, here, over local processes, or on Ray; the same data whatever the choice."""
    done: list[Dataset] = []
    if backend == "ray":
        try:
            import ray
        except ImportError:
            raise DehlaError("--backend ray needs Ray: pip install 'dehla[ray]' (or pip install ray)") from None
        started = not ray.is_initialized()
        if started:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, logging_level=40)
        try:
            remote = ray.remote(num_cpus=1)(label_task)
            pending = [remote.remote(task) for task in tasks]
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                done.extend(ray.get(reference) for reference in finished)
                if progress is not None:
                    progress(len(done), len(tasks))
        finally:
            if started:
                ray.shutdown()
    elif workers <= 1:
        for task in tasks:
            done.append(label_task(task))
            if progress is not None:
                progress(len(done), len(tasks))
    else:
        import multiprocessing

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            for part in pool.map(label_task, tasks):
                done.append(part)
                if progress is not None:
                    progress(len(done), len(tasks))
    # Sorted by hand: the data is the same whatever order the tasks finished in.
    return sorted_by_hand(Dataset.concat(done) if done else Dataset.empty())


def backward_label(match: Match, model: ValueModel) -> tuple[float, float]:
    """A backward label for a position between tricks: the mover's team's margin and tens after a search of the
    next trick with best play by both teams, each ending valued by ``model`` (exactly where the hand ends).

    The margin is the best lead's value for the mover (who leads the trick); the tens are the model's tens for
    the ending that value comes from (the model's own tens at this position when that ending is a finished hand).
    """
    mover = match.to_act
    if mover is None or match.phase is not Phase.PLAY or match.current_trick:
        raise DehlaError("a backward label is for a position between tricks")
    team = mover % 2
    found: dict[float, float] = {}

    def values(leaves: list[Match], side: int) -> list[float]:
        margins, tens = team_predictions(model, leaves, side)
        for margin, ten in zip(margins, tens):
            found.setdefault(margin, ten)
        return margins

    by_action = trick_values(match, team, values)
    best = max(by_action.values())
    tens = found.get(best)
    if tens is None:
        tens = model.estimate(match.hand_state()).tens
    return best, tens


def _backward_chunk(job: tuple[str, npt.NDArray[np.int8], ValueModel]) -> list[tuple[float, float]]:
    rules_name, histories, model = job
    return [backward_label(match_of(history, rules_name), model) for history in histories]


def backward_labels(data: Dataset, model: ValueModel, workers: int = 1) -> tuple[npt.NDArray[np.float64], ...]:
    """``backward_label`` for every position of ``data`` (rebuilt from its history): margins and tens."""
    jobs: list[tuple[str, npt.NDArray[np.int8], ValueModel]] = []
    where: list[npt.NDArray[np.intp]] = []
    for index in np.unique(data.preset):
        rows = np.flatnonzero(data.preset == index)
        for start in range(0, len(rows), 200):
            chunk = rows[start : start + 200]
            jobs.append((PRESET_NAMES[int(index)], data.history[chunk], model))
            where.append(chunk)
    if workers <= 1:
        answers = [_backward_chunk(job) for job in jobs]
    else:
        import multiprocessing

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            answers = list(pool.map(_backward_chunk, jobs))
    margin = np.zeros(len(data), dtype=np.float64)
    tens = np.zeros(len(data), dtype=np.float64)
    for chunk, labels in zip(where, answers):
        margin[chunk] = [label[0] for label in labels]
        tens[chunk] = [label[1] for label in labels]
    return margin, tens
