"""``dehla train value``: make solver-labelled positions and fit the search bots' value model.

Steps of one command (the first may also run alone):

1. **Data.**  Heuristic bots play hands against each other (a share of moves
   random, so the data also holds the positions a search looks at after a poor
   move); at each trick boundary from ``--from-trick`` on, the position, every
   card known, is labelled by the exact solver (``Solver.value``: the hand's
   result and the tens under best play).  Hands come from seeds derived from
   ``--seed``, in tasks spread over ``--workers`` local processes or a Ray
   cluster (``--backend ray``); the result does not depend on either.
2. **Fit.**  A scikit-learn ``MLPRegressor`` per scoring family (``--nets
   family``) or one for all (``--nets all``) learns the mover's margin and
   tens from ``dehla.solver.value``'s encoding; positions of a held-out share
   of the hands measure it, by trick.  The weights are written as ``.npz`` for
   numpy-only play (``ValueModel``).  scikit-learn comes with the ``train`` extra.
3. **Backward labels** (``--backward-to``).  Positions before ``--from-trick``,
   too costly to solve, are kept with their history and labelled from the
   latest trick down: a search of the next trick with the model just fitted
   at its leaves (``backward_label``), then a refit, then the trick before.
   Such labels are marked ``BACKWARD`` and measured apart from the solver's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dehla.bots.heuristic import HeuristicBot
from dehla.cli.common import positive_int, seed_value
from dehla.engine.actions import Deal
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.rules import PRESETS, preset
from dehla.solver.value import (
    RAW_FIELDS,
    ValueModel,
    encode_raw,
    family_of,
    raw_of,
    rename_suits,
    result_scale,
    team_predictions,
    trick_values,
)

__all__ = [
    "add_parser",
    "run",
    "make_data",
    "fit",
    "Dataset",
    "FAMILY_PRESETS",
    "SOLVER",
    "BACKWARD",
    "UNLABELLED",
    "history_of",
    "match_of",
    "backward_label",
    "backward_labels",
    "sorted_by_hand",
    "held_out",
]

#: The presets each family's data is drawn from (four players), the first twice as often as each other one.
FAMILY_PRESETS: dict[str, tuple[str, ...]] = {
    "pagat": ("pagat", "pagat-cut"),
    "taash": ("taash", "taash-b2b"),
    "mendikot": ("mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open"),
}
_PRESET_NAMES = tuple(PRESETS)
_HANDS_PER_TASK = 25

#: Where a position's label came from (``Dataset.source``): the exact solver, a search of the next trick with a
#: model's values at its leaves (a backward label: an estimate, never checked against the solver), or nothing yet.
SOLVER, BACKWARD, UNLABELLED = 0, 1, -1
#: Width of a stored hand history (``history_of``): first dealer, open draw, 52 dealt cards, then the actions.
_HISTORY = 128


@dataclass
class Dataset:
    """Labelled positions: raw rows (``RAW_FIELDS``), their preset, hand and trick, and the solver's answer
    for the mover's team (points margin and tens)."""

    rows: npt.NDArray[np.int64]
    preset: npt.NDArray[np.int64]  # index into PRESETS
    hand: npt.NDArray[np.int64]  # which hand (for a split by hand)
    trick: npt.NDArray[np.int64]  # tricks played
    margin: npt.NDArray[np.float64]  # the rules' points (a backward label is an expected margin, not a whole one)
    tens: npt.NDArray[np.float64]
    seconds: npt.NDArray[np.float64]  # solve time of each label
    source: npt.NDArray[np.int8]  # SOLVER, BACKWARD or UNLABELLED
    history: npt.NDArray[np.int8]  # (N, _HISTORY): how to rebuild the position (``match_of``); -1 where not kept

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{name: getattr(self, name) for name in self.__dataclass_fields__})

    @classmethod
    def load(cls, path: Path) -> Dataset:
        try:
            with np.load(path, allow_pickle=False) as data:
                fields = {name: data[name] for name in cls.__dataclass_fields__ if name in data.files}
        except (OSError, ValueError) as error:
            raise DehlaError(f"cannot read the data set {path}: {error}") from None
        count = len(fields["rows"]) if "rows" in fields else 0
        # Files written before labels had sources hold solver labels only, and no histories.
        fields.setdefault("source", np.full(count, SOLVER, dtype=np.int8))
        fields.setdefault("history", np.full((count, _HISTORY), -1, dtype=np.int8))
        missing = [name for name in cls.__dataclass_fields__ if name not in fields]
        if missing:
            raise DehlaError(f"cannot read the data set {path}: no {', '.join(missing)}")
        fields["margin"] = fields["margin"].astype(np.float64)
        fields["tens"] = fields["tens"].astype(np.float64)
        return cls(**fields)

    @classmethod
    def concat(cls, parts: Sequence[Dataset]) -> Dataset:
        names = cls.__dataclass_fields__
        return cls(**{name: np.concatenate([getattr(part, name) for part in parts]) for name in names})

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def subset(self, keep: npt.NDArray[np.bool_]) -> Dataset:
        return Dataset(**{name: getattr(self, name)[keep] for name in self.__dataclass_fields__})

    def take(self, order: npt.NDArray[np.intp]) -> Dataset:
        return Dataset(**{name: getattr(self, name)[order] for name in self.__dataclass_fields__})


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
    backward_to: int | None = None  # keep positions from this many tricks on, unlabelled, for backward labels
    keep_history: bool = False  # the solver's positions keep their history too (to rebuild them: benchmarks)


def history_of(match: Match) -> list[int]:
    """The first hand of ``match`` so far as ``_HISTORY`` small numbers: first dealer, open draw, the deal, the
    actions (-1 pads), so that the position can be stored in a data file and rebuilt (``match_of``)."""
    if match.hand_number != 0:
        raise DehlaError("only a match's first hand is kept as a history")
    deal = match.deals[0]
    cards = [int(card) for hand in deal.hands for card in hand]
    if len(deal.hands) != 4 or len(cards) != 52:
        raise DehlaError("histories are kept for four players and the full pack only")
    from dehla.envs.encoding import action_index  # (here: the environments' package is not for every command)

    codes = [match.first_dealer, -1 if deal.open_draw is None else int(deal.open_draw), *cards]
    codes += [action_index(action) for action in match.actions]
    if len(codes) > _HISTORY:
        raise DehlaError(f"a history longer than {_HISTORY} numbers (too many tricks played)")
    return codes + [-1] * (_HISTORY - len(codes))


def match_of(history: npt.NDArray[np.int8] | Sequence[int], rules_name: str) -> Match:
    """The position a ``history_of`` row was taken at, replayed by the engine."""
    from dehla.envs.encoding import action_of

    codes = [int(code) for code in history]
    match = Match(preset(rules_name), codes[0])
    cards = codes[2:54]
    match.apply(Deal([cards[13 * seat : 13 * seat + 13] for seat in range(4)], None if codes[1] < 0 else codes[1]))
    for code in codes[54:]:
        if code < 0:
            break
        match.apply(action_of(code))
    return match


def label_task(task: DataTask) -> Dataset:
    """Play the task's hands with heuristic bots and label every trick boundary in range with the solver.

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
    no_history = [-1] * _HISTORY
    keep_from = task.from_trick if task.backward_to is None else task.backward_to
    for number in range(task.hands):
        hand_id = task.first_hand + number
        match = Match.new(rules, rng)
        bots = [HeuristicBot(rng.getrandbits(32)) for _ in range(rules.players)]
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
    index = _PRESET_NAMES.index(task.preset)
    return Dataset(
        rows=np.asarray(rows, dtype=np.int64).reshape(count, len(RAW_FIELDS)),
        preset=np.full(count, index, dtype=np.int64),
        hand=np.asarray([i[0] for i in info], dtype=np.int64),
        trick=np.asarray([i[1] for i in info], dtype=np.int64),
        margin=np.asarray([i[2] for i in info], dtype=np.float64),
        tens=np.asarray([i[3] for i in info], dtype=np.float64),
        seconds=np.asarray([i[4] for i in info], dtype=np.float64),
        source=np.asarray(sources, dtype=np.int8),
        history=np.asarray(histories, dtype=np.int8).reshape(count, _HISTORY),
    )


def data_tasks(
    families: Sequence[str],
    hands: int,
    seed: int,
    from_trick: int,
    to_trick: int,
    node_limit: int,
    explore: float,
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
    data = Dataset.concat(done) if done else label_task(DataTask("pagat", 0, 0, 0, 0, 0, 0, 0.0))
    return sorted_by_hand(data)


def sorted_by_hand(data: Dataset) -> Dataset:
    """Positions in hand order, then by trick: the same data whatever order its tasks or parts finished in."""
    order = np.lexsort((data.trick, data.hand))
    return data.take(order)


def features_of(data: Dataset) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The encoded positions and the targets (margin in -1..1, tens in 0..1), preset by preset."""
    features = np.zeros((len(data), 0), dtype=np.float32)
    parts_x: list[npt.NDArray[np.float32]] = []
    parts_y: list[npt.NDArray[np.float32]] = []
    order: list[npt.NDArray[np.int64]] = []
    for index in np.unique(data.preset):
        rules = PRESETS[_PRESET_NAMES[int(index)]]
        where = np.flatnonzero(data.preset == index)
        parts_x.append(encode_raw(data.rows[where], rules))
        scale = result_scale(rules)
        parts_y.append(np.stack([data.margin[where] / scale, data.tens[where] / 4.0], axis=1).astype(np.float32))
        order.append(where)
    if not order:
        return features, np.zeros((0, 2), dtype=np.float32)
    where_all = np.concatenate(order)
    x = np.zeros((len(data), parts_x[0].shape[1]), dtype=np.float32)
    y = np.zeros((len(data), 2), dtype=np.float32)
    x[where_all] = np.concatenate(parts_x)
    y[where_all] = np.concatenate(parts_y)
    return x, y


def permute_suits(data: Dataset, rng: np.random.Generator) -> Dataset:
    """The same positions with the suits renamed at random, trump (or the hidden trump) keeping its suit:
    the game does not tell suits apart, so their values are the solver's labels unchanged."""
    trump = data.rows[:, RAW_FIELDS.index("trump")]
    n = len(data.rows)
    perms = np.stack([rng.permutation(4) for _ in range(n)]) if n else np.zeros((0, 4), dtype=np.int64)
    has = trump >= 0
    # Put trump back where it was: swap the trump suit with whatever the permutation sent it to.
    for i in np.flatnonzero(has):
        t = trump[i]
        j = int(np.flatnonzero(perms[i] == t)[0])
        perms[i, j], perms[i, t] = perms[i, t], perms[i, j]
    rows = rename_suits(data.rows, perms)
    copy = data.take(np.arange(n))
    copy.rows = rows
    return copy


@dataclass(frozen=True)
class FitSettings:
    hidden: tuple[int, ...]
    epochs: int
    seed: int
    augment: int
    holdout: float


def held_out(data: Dataset, holdout: float, seed: int) -> npt.NDArray[np.bool_]:
    """Which positions are held out: whole hands, a ``holdout`` share of them, chosen from ``seed``.

    Each hand's fate depends on its number and ``seed`` alone, so a part of a data set holds out the same
    hands as the whole: a model fitted on part of the data and then fitted on from its weights over the
    whole has never trained on a hand the whole holds out.
    """
    with np.errstate(over="ignore"):
        # SplitMix64 of the hand number and the seed: a uniform draw per hand.
        mixed = data.hand.astype(np.uint64) + np.uint64(seed & 0xFFFFFFFF) * np.uint64(0x9E3779B97F4A7C15)
        mixed = (mixed ^ (mixed >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        mixed = (mixed ^ (mixed >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        mixed ^= mixed >> np.uint64(31)
    draws = (mixed >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return np.asarray(draws < holdout, dtype=np.bool_)


Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


def _fit_net(
    x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], settings: FitSettings, start: Layers | None = None
) -> Layers:
    """Fit an MLP to ``x``, ``y``: from random weights, or on from ``start`` (a network of the same shape)."""
    try:
        from sklearn.neural_network import MLPRegressor
    except ImportError:
        raise DehlaError("training needs scikit-learn: pip install 'dehla[train]'") from None
    model = MLPRegressor(
        hidden_layer_sizes=settings.hidden,
        activation="relu",
        solver="adam",
        batch_size=256,
        learning_rate_init=1e-3,
        alpha=1e-4,
        max_iter=settings.epochs,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=8,
        random_state=settings.seed,
    )
    if start is not None:
        shapes = [w.shape for w, _ in start]
        wanted = [(x.shape[1], settings.hidden[0]), *zip(settings.hidden, [*settings.hidden[1:], y.shape[1]])]
        if shapes != [tuple(shape) for shape in wanted]:
            raise DehlaError(f"the starting network has layers {shapes}, not {wanted}: give the same --hidden")
        # One pass sets up the fit's state; the weights are then replaced and the fit goes on from them.
        model.set_params(max_iter=1, warm_start=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(x, y)
        model.coefs_ = [np.asarray(w, dtype=np.float64).copy() for w, _ in start]
        model.intercepts_ = [np.asarray(b, dtype=np.float64).copy() for _, b in start]
        model.set_params(max_iter=settings.epochs)
    model.fit(x, y)
    return [
        (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
        for w, b in zip(model.coefs_, model.intercepts_)
    ]


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
            jobs.append((_PRESET_NAMES[int(index)], data.history[chunk], model))
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


def _fit_model(
    data: Dataset, nets: str, settings: FitSettings, say: Callable[[str], None], init: ValueModel | None = None
) -> tuple[ValueModel, dict[str, object]]:
    families = np.asarray([family_of(PRESETS[_PRESET_NAMES[int(i)]]) for i in data.preset])
    rng = np.random.default_rng(settings.seed)
    copies = [data] + [permute_suits(data, rng) for _ in range(settings.augment)]
    encoded = [features_of(copy) for copy in copies]
    x = np.concatenate([pair[0] for pair in encoded])
    y = np.concatenate([pair[1] for pair in encoded])
    every = np.tile(families, len(copies))
    groups = sorted(set(families.tolist())) if nets == "family" else ["all"]
    layers: dict[str, list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]] = {}
    for group in groups:
        train = np.ones(len(every), dtype=np.bool_) if group == "all" else every == group
        xs = x[train]
        ys = y[train]
        start = time.perf_counter()
        begin = None
        if init is not None:
            net = init.nets.get(group) or init.nets.get("all")
            begin = None if net is None else list(zip(net.weights, net.biases))
        layers[group] = _fit_net(xs, ys, settings, begin)
        seconds = time.perf_counter() - start
        say(f"fitted {group}: {len(xs)} positions ({len(xs) // len(copies)} before symmetry), {seconds:.0f} s")
    meta: dict[str, object] = {
        "format": "dehla-value/1",
        "features": int(x.shape[1]),
        "layers": [int(w.shape[1]) for w, _ in next(iter(layers.values()))],
        "hidden": list(settings.hidden),
        "nets": nets,
        "trained_on": len(data),
        "tricks": sorted(set(data.trick.tolist())),
        "backward_labels": int((data.source == BACKWARD).sum()),
        "epochs": settings.epochs,
        "augment": settings.augment,
        "seed": settings.seed,
    }
    return ValueModel.from_arrays(layers, meta), meta


def fit(
    data: Dataset,
    nets: str,
    settings: FitSettings,
    say: Callable[[str], None],
    backward_to: int | None = None,
    workers: int = 1,
    init: ValueModel | None = None,
) -> tuple[ValueModel, Any]:
    """Fit the networks (one per family, or ``all``) on the hands not held out; measure them on the others.

    With ``backward_to``, the unlabelled positions are then labelled backwards, one trick at a time from the
    latest: each by a search of its next trick with the last model at the leaves (``backward_label``), and the
    model is refitted on everything labelled so far, on from the last model's weights, before the trick before
    it.  ``data`` gets those labels.  ``init`` (a model of the same shape) is where the first fit begins.
    """
    held = held_out(data, settings.holdout, settings.seed)
    model, meta = _fit_model(data.subset(~held & (data.source != UNLABELLED)), nets, settings, say, init)
    if backward_to is not None:
        waiting = (data.source == UNLABELLED) & (data.trick >= backward_to)
        for trick in sorted(set(data.trick[waiting].tolist()), reverse=True):
            where = np.flatnonzero(waiting & (data.trick == trick))
            start = time.perf_counter()
            margin, tens = backward_labels(data.take(where), model, workers)
            data.margin[where] = margin
            data.tens[where] = tens
            data.source[where] = BACKWARD
            say(
                f"labelled {len(where)} positions after {trick} tricks backwards in {time.perf_counter() - start:.0f} s"
            )
            model, meta = _fit_model(data.subset(~held & (data.source != UNLABELLED)), nets, settings, say, model)
    report = {
        "solver": accuracy(model, data.subset(held & (data.source == SOLVER))),
        "backward": accuracy(model, data.subset(held & (data.source == BACKWARD))),
    }
    meta["accuracy"] = report
    return model, report


def accuracy(model: ValueModel, data: Dataset) -> dict[str, dict[str, dict[str, float]]]:
    """Per family and trick: share of positions whose result (who wins) the model gets right, tens error, count."""
    table: dict[str, dict[str, dict[str, float]]] = {}
    predicted = np.zeros(len(data))
    tens = np.zeros(len(data))
    for index in np.unique(data.preset):
        rules = PRESETS[_PRESET_NAMES[int(index)]]
        where = np.flatnonzero(data.preset == index)
        margin, ten = model.predict_rows(data.rows[where], rules)
        predicted[where] = margin
        tens[where] = ten
    families = np.asarray([family_of(PRESETS[_PRESET_NAMES[int(i)]]) for i in data.preset])
    for family in sorted(set(families.tolist())):
        rows: dict[str, dict[str, float]] = {}
        for trick in sorted(set(data.trick[families == family].tolist())):
            where = (families == family) & (data.trick == trick)
            right = np.sign(predicted[where]) == np.sign(data.margin[where])
            rows[str(trick)] = {
                "positions": int(where.sum()),
                "result_accuracy": float(right.mean()),
                "tens_error": float(np.abs(tens[where] - data.tens[where]).mean()),
            }
        table[family] = rows
    return table


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "train",
        help="make solver-labelled data and train the search bots' value model",
        description="Train what the search bots learn from the exact solver. See docs/model.md.",
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    value = kinds.add_parser(
        "value",
        help="positions labelled by the solver, and the value network fitted to them",
        description=(
            "Heuristic bots play hands; every trick boundary in range is labelled by the exact solver; an MLP "
            "learns the labels. Reproducible from --seed whatever --workers or --backend."
        ),
    )
    value.add_argument("--seed", type=seed_value, default=0, help="random seed (a whole number; default 0)")
    value.add_argument("--hands", type=positive_int, default=1000, help="hands per family (default 1000)")
    value.add_argument(
        "--families", default="pagat,taash,mendikot", help="comma-separated: pagat, taash, mendikot (default all)"
    )
    value.add_argument("--from-trick", type=int, default=3, help="label positions after this many tricks (default 3)")
    value.add_argument("--to-trick", type=int, default=12, help="... up to this many (default 12)")
    value.add_argument(
        "--node-limit", type=int, default=4_000_000, help="skip positions whose solve needs more nodes (default 4M)"
    )
    value.add_argument("--explore", type=float, default=0.1, help="share of random moves in play (default 0.1)")
    value.add_argument("--workers", type=positive_int, default=1, help="processes (or Ray CPUs) to label with")
    value.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes or ray")
    value.add_argument(
        "--backward-to",
        type=int,
        default=None,
        help="also label positions from this many tricks on, below --from-trick, backwards: a search of the next "
        "trick with the model's values at its leaves, refitting after each trick (e.g. 1)",
    )
    value.add_argument(
        "--part",
        default=None,
        help="K/N: make only every N-th task from the K-th (1..N), to label in chunks; give the parts' files "
        "to --data together to train",
    )
    value.add_argument(
        "--data",
        type=Path,
        action="append",
        default=None,
        help="data file: read if it exists, else written; several (all existing) are read together",
    )
    value.add_argument("--data-only", action="store_true", help="make the data and stop")
    value.add_argument("--out", type=Path, default=None, help="write the model here (.npz)")
    value.add_argument("--nets", choices=("family", "all"), default="all", help="one network (default) or one a family")
    value.add_argument("--hidden", default="256,128", help="hidden layer sizes (default 256,128)")
    value.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start the fit from this model's weights (same --hidden) instead of random ones; a model of an "
        "earlier encoding gets zero weights for the inputs added since",
    )
    value.add_argument("--epochs", type=positive_int, default=200, help="most passes over the data (default 200)")
    value.add_argument("--augment", type=int, default=1, help="extra copies by suit symmetry (default 1)")
    value.add_argument("--holdout", type=float, default=0.15, help="share of hands held out to measure (0.15)")
    value.add_argument("--report", type=Path, default=None, help="write the accuracy table here (JSON)")
    value.set_defaults(run=run)


def _parse_part(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        number, count = (int(word) for word in text.split("/"))
    except ValueError:
        raise DehlaError(f"--part must be K/N such as 2/8, not {text!r}") from None
    if not 1 <= number <= count:
        raise DehlaError(f"--part K/N needs 1 <= K <= N, not {text!r}")
    return number, count


def run(args: argparse.Namespace) -> int:
    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    families = [name.strip() for name in args.families.split(",") if name.strip()]
    unknown = [name for name in families if name not in FAMILY_PRESETS]
    if unknown:
        raise DehlaError(f"unknown families: {', '.join(unknown)} (known: {', '.join(FAMILY_PRESETS)})")
    if not 0 <= args.from_trick <= args.to_trick <= 12:
        raise DehlaError("--from-trick and --to-trick must satisfy 0 <= from <= to <= 12")
    if not 0.0 <= args.explore <= 1.0 or not 0.0 < args.holdout < 1.0:
        raise DehlaError("--explore must be within 0..1 and --holdout between 0 and 1")
    try:
        hidden = tuple(int(size) for size in args.hidden.split(","))
    except ValueError:
        raise DehlaError(f"--hidden must be sizes like 256,128, not {args.hidden!r}") from None
    backward_to = args.backward_to
    if backward_to is not None and not 0 <= backward_to < args.from_trick:
        raise DehlaError("--backward-to must be at least 0 and below --from-trick")
    part = _parse_part(args.part)
    files: list[Path] = args.data or []
    existing = [path for path in files if path.exists()]
    if len(files) > 1 and len(existing) < len(files):
        missing = ", ".join(str(path) for path in files if not path.exists())
        raise DehlaError(f"several --data files are read together, and these do not exist: {missing}")
    if existing:
        data = sorted_by_hand(Dataset.concat([Dataset.load(path) for path in existing]))
        say(f"read {len(data)} positions from {', '.join(str(path) for path in existing)}")
    else:
        tasks = data_tasks(
            families, args.hands, args.seed, args.from_trick, args.to_trick, args.node_limit, args.explore, backward_to
        )
        if part is not None:
            tasks = tasks[part[0] - 1 :: part[1]]
        start = time.perf_counter()
        data = make_data(tasks, args.workers, args.backend, lambda done, total: say(f"tasks {done}/{total}"))
        say(f"labelled {len(data)} positions in {time.perf_counter() - start:.0f} s")
        if files:
            data.save(files[0])
            say(f"wrote {files[0]}")
    if args.data_only:
        return 0
    settings = FitSettings(hidden, args.epochs, args.seed, max(0, args.augment), args.holdout)
    init = None if args.init is None else ValueModel.load(args.init, widen=True)
    model, report = fit(data, args.nets, settings, say, backward_to, args.workers, init)
    text = json.dumps(report, indent=1)
    print(text)
    if args.report is not None:
        args.report.write_text(text + "\n", encoding="utf-8")
    if args.out is not None:
        model.save(args.out)
        say(f"wrote {args.out}")
    return 0
