"""Fitting the value model to labelled positions: scikit-learn ``MLPRegressor`` networks (the ``train`` extra).

A network per scoring family (``nets="family"``) or one for all (``"all"``) learns the mover's margin and tens
from the position vector (``dehla.features.position``); copies of the positions with the suits renamed
(``permute_suits``) add the game's symmetry; the positions of a held-out share of the hands measure the fit, by
trick (``accuracy``).  The weights become a numpy-only ``ValueModel``.  With ``backward_to``, earlier positions
are labelled backwards (``dehla.learn.labels.backward_label``) one trick at a time, refitting after each.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from dehla.errors import DehlaError
from dehla.features.position import RAW_FIELDS, encode_raw, rename_suits
from dehla.learn.data import BACKWARD, PRESET_NAMES, SOLVER, UNLABELLED, Dataset
from dehla.learn.labels import backward_labels
from dehla.learn.value import ValueModel, family_of, result_scale
from dehla.rules import PRESETS

__all__ = ["FitSettings", "accuracy", "features_of", "fit", "held_out", "permute_suits"]


def features_of(data: Dataset) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The encoded positions and the targets (margin in -1..1, tens in 0..1), preset by preset."""
    features = np.zeros((len(data), 0), dtype=np.float32)
    parts_x: list[npt.NDArray[np.float32]] = []
    parts_y: list[npt.NDArray[np.float32]] = []
    order: list[npt.NDArray[np.int64]] = []
    for index in np.unique(data.preset):
        rules = PRESETS[PRESET_NAMES[int(index)]]
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
    """How to fit: hidden layer sizes, most passes over the data, seed, suit-renamed copies, held-out share."""

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


def _fit_model(
    data: Dataset, nets: str, settings: FitSettings, say: Callable[[str], None], init: ValueModel | None = None
) -> tuple[ValueModel, dict[str, object]]:
    families = np.asarray([family_of(PRESETS[PRESET_NAMES[int(i)]]) for i in data.preset])
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
        rules = PRESETS[PRESET_NAMES[int(index)]]
        where = np.flatnonzero(data.preset == index)
        margin, ten = model.predict_rows(data.rows[where], rules)
        predicted[where] = margin
        tens[where] = ten
    families = np.asarray([family_of(PRESETS[PRESET_NAMES[int(i)]]) for i in data.preset])
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
