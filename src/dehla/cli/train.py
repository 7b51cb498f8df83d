"""``dehla train value``: make solver-labelled positions and fit the search bots' value model.

Two steps, one command (each may also run alone):

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
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dehla.bots.heuristic import HeuristicBot
from dehla.cli.common import positive_int, seed_value
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.rules import PRESETS, preset
from dehla.solver.value import RAW_FIELDS, ValueModel, encode_raw, family_of, raw_of, result_scale

__all__ = ["add_parser", "run", "make_data", "fit", "Dataset", "FAMILY_PRESETS"]

#: The presets each family's data is drawn from (four players), the first twice as often as each other one.
FAMILY_PRESETS: dict[str, tuple[str, ...]] = {
    "pagat": ("pagat", "pagat-cut"),
    "taash": ("taash", "taash-b2b"),
    "mendikot": ("mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open"),
}
_PRESET_NAMES = tuple(PRESETS)
_HANDS_PER_TASK = 25


@dataclass
class Dataset:
    """Labelled positions: raw rows (``RAW_FIELDS``), their preset, hand and trick, and the solver's answer
    for the mover's team (points margin and tens)."""

    rows: npt.NDArray[np.int64]
    preset: npt.NDArray[np.int64]  # index into PRESETS
    hand: npt.NDArray[np.int64]  # which hand (for a split by hand)
    trick: npt.NDArray[np.int64]  # tricks played
    margin: npt.NDArray[np.int64]
    tens: npt.NDArray[np.int64]
    seconds: npt.NDArray[np.float64]  # solve time of each label

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{name: getattr(self, name) for name in self.__dataclass_fields__})

    @classmethod
    def load(cls, path: Path) -> Dataset:
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(**{name: data[name] for name in cls.__dataclass_fields__})
        except (OSError, KeyError, ValueError) as error:
            raise DehlaError(f"cannot read the data set {path}: {error}") from None

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


def label_task(task: DataTask) -> Dataset:
    """Play the task's hands with heuristic bots and label every trick boundary in range with the solver."""
    from dehla.solver.fast import SolveLimitReached, Solver

    solver = Solver(table_bits=20, node_limit=task.node_limit)
    rng = random.Random(task.seed)
    rules = preset(task.preset)
    rows: list[list[int]] = []
    info: list[tuple[int, int, int, int, float]] = []
    for number in range(task.hands):
        hand_id = task.first_hand + number
        match = Match.new(rules, rng)
        bots = [HeuristicBot(rng.getrandbits(32)) for _ in range(rules.players)]
        match.apply(match.random_deal(rng))
        while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
            played = len(match.tricks)
            if match.phase is Phase.PLAY and not match.current_trick and task.from_trick <= played <= task.to_trick:
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
        margin=np.asarray([i[2] for i in info], dtype=np.int64),
        tens=np.asarray([i[3] for i in info], dtype=np.int64),
        seconds=np.asarray([i[4] for i in info], dtype=np.float64),
    )


def data_tasks(
    families: Sequence[str], hands: int, seed: int, from_trick: int, to_trick: int, node_limit: int, explore: float
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
                    DataTask(name, master.getrandbits(63), size, first, from_trick, to_trick, node_limit, explore)
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


def _mask_fields() -> list[int]:
    return [RAW_FIELDS.index(name) for name in ("hand0", "hand1", "hand2", "hand3", "centre", "captured0", "captured1")]


def permute_suits(data: Dataset, rng: np.random.Generator) -> Dataset:
    """The same positions with the suits renamed at random, trump (or the hidden trump) keeping its suit:
    the game does not tell suits apart, so their values are the solver's labels unchanged."""
    rows = data.rows.copy()
    trump = rows[:, RAW_FIELDS.index("trump")]
    n = len(rows)
    perms = np.stack([rng.permutation(4) for _ in range(n)]) if n else np.zeros((0, 4), dtype=np.int64)
    has = trump >= 0
    # Put trump back where it was: swap the trump suit with whatever the permutation sent it to.
    for i in np.flatnonzero(has):
        t = trump[i]
        j = int(np.flatnonzero(perms[i] == t)[0])
        perms[i, j], perms[i, t] = perms[i, t], perms[i, j]
    for field in _mask_fields():
        masks = rows[:, field]
        out = np.zeros(n, dtype=np.int64)
        for suit in range(4):
            out |= ((masks >> (13 * suit)) & 0x1FFF) << (13 * perms[:, suit])
        rows[:, field] = out
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


def _split(data: Dataset, holdout: float, seed: int) -> npt.NDArray[np.bool_]:
    """Which positions are held out: whole hands, a ``holdout`` share of them, chosen from ``seed``."""
    hands = np.unique(data.hand)
    rng = np.random.default_rng(seed)
    chosen = rng.random(len(hands)) < holdout
    return np.isin(data.hand, hands[chosen])


def _fit_net(
    x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], settings: FitSettings
) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
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
    model.fit(x, y)
    return [
        (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
        for w, b in zip(model.coefs_, model.intercepts_)
    ]


def fit(data: Dataset, nets: str, settings: FitSettings, say: Callable[[str], None]) -> tuple[ValueModel, Any]:
    """Fit the networks (one per family, or ``all``) on the hands not held out; measure them on the others."""
    held = _split(data, settings.holdout, settings.seed)
    families = np.asarray([family_of(PRESETS[_PRESET_NAMES[int(i)]]) for i in data.preset])
    rng = np.random.default_rng(settings.seed)
    training = data.subset(~held)
    train_families = families[~held]
    copies = [training] + [permute_suits(training, rng) for _ in range(settings.augment)]
    encoded = [features_of(copy) for copy in copies]
    x = np.concatenate([pair[0] for pair in encoded])
    y = np.concatenate([pair[1] for pair in encoded])
    every = np.tile(train_families, len(copies))
    groups = sorted(set(families.tolist())) if nets == "family" else ["all"]
    layers: dict[str, list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]] = {}
    for group in groups:
        train = np.ones(len(every), dtype=np.bool_) if group == "all" else every == group
        xs = x[train]
        ys = y[train]
        start = time.perf_counter()
        layers[group] = _fit_net(xs, ys, settings)
        seconds = time.perf_counter() - start
        say(f"fitted {group}: {len(xs)} positions ({len(xs) // len(copies)} before symmetry), {seconds:.0f} s")
    meta: dict[str, object] = {
        "format": "dehla-value/1",
        "features": int(x.shape[1]),
        "layers": [int(w.shape[1]) for w, _ in next(iter(layers.values()))],
        "hidden": list(settings.hidden),
        "nets": nets,
        "trained_on": int((~held).sum()),
        "epochs": settings.epochs,
        "augment": settings.augment,
        "seed": settings.seed,
    }
    model = ValueModel.from_arrays(layers, meta)
    report = accuracy(model, data.subset(held))
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
    value.add_argument("--data", type=Path, default=None, help="data file: read if it exists, else written")
    value.add_argument("--data-only", action="store_true", help="make the data and stop")
    value.add_argument("--out", type=Path, default=None, help="write the model here (.npz)")
    value.add_argument("--nets", choices=("family", "all"), default="all", help="one network (default) or one a family")
    value.add_argument("--hidden", default="256,128", help="hidden layer sizes (default 256,128)")
    value.add_argument("--epochs", type=positive_int, default=200, help="most passes over the data (default 200)")
    value.add_argument("--augment", type=int, default=1, help="extra copies by suit symmetry (default 1)")
    value.add_argument("--holdout", type=float, default=0.15, help="share of hands held out to measure (0.15)")
    value.add_argument("--report", type=Path, default=None, help="write the accuracy table here (JSON)")
    value.set_defaults(run=run)


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
    if args.data is not None and args.data.exists():
        data = Dataset.load(args.data)
        say(f"read {len(data)} positions from {args.data}")
    else:
        tasks = data_tasks(
            families, args.hands, args.seed, args.from_trick, args.to_trick, args.node_limit, args.explore
        )
        start = time.perf_counter()
        data = make_data(tasks, args.workers, args.backend, lambda done, total: say(f"tasks {done}/{total}"))
        say(f"labelled {len(data)} positions in {time.perf_counter() - start:.0f} s")
        if args.data is not None:
            data.save(args.data)
            say(f"wrote {args.data}")
    if args.data_only:
        return 0
    settings = FitSettings(hidden, args.epochs, args.seed, max(0, args.augment), args.holdout)
    model, report = fit(data, args.nets, settings, say)
    text = json.dumps(report, indent=1)
    print(text)
    if args.report is not None:
        args.report.write_text(text + "\n", encoding="utf-8")
    if args.out is not None:
        model.save(args.out)
        say(f"wrote {args.out}")
    return 0
