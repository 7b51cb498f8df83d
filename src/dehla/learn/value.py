"""A learned value: what the exact solver would say about a position at a trick boundary, in numpy only.

The solver cannot answer for the first tricks of a full deal within a move's
or an analysis's budget.  There a search can go to the end of the trick in
progress (``trick_values``) and ask this model what each resulting position
is worth: the search bots do that in each sample, and analysis and hints show
it as an estimate.  The model is a small multi-layer perceptron
trained on positions the solver labelled (``dehla train value``, see
docs/model.md); its weights ship with the package (``models/value.npz``) and it
runs on numpy alone, with no training library.

A position is read as its position vector (``dehla.features.position``: from
the side of the seat to move, every card known).  The model answers, for the mover's team, the hand's points
margin (scaled to -1..1 by the largest result of the rules) and the tens it
ends with.  One network per scoring family (``pagat``, ``taash``,
``mendikot``); a file may also hold one network for all (``all``), used for a
family without its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dehla.engine.actions import Action
from dehla.engine.phase import Phase
from dehla.engine.state import Match
from dehla.engine.tricks import HandState
from dehla.errors import DehlaError
from dehla.features.position import FEATURES, encode_raw, raw_of, same_positions
from dehla.rules import Rules

__all__ = [
    "ValueModel",
    "Estimate",
    "default_model",
    "family_of",
    "result_scale",
    "supported",
    "LeafValues",
    "model_leaves",
    "team_predictions",
    "trick_values",
]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]


def supported(rules: Rules) -> bool:
    """Can the model value positions of these rules?  (Four players only: it was trained on them.)"""
    return rules.players == 4


def family_of(rules: Rules) -> str:
    """The model family: the scoring, which decides what a hand's result is."""
    return rules.scoring


@cache
def result_scale(rules: Rules) -> int:
    """The largest points margin a hand can end with under ``rules`` (the model's margin unit)."""
    from dehla.solver.objective import objective_for

    return max(max(abs(value.net) for value in objective_for(rules, dealer).values) for dealer in (0, 1)) or 1


@dataclass(frozen=True)
class Estimate:
    """The model's answer for one position, from the side of the mover's team: an estimate, never exact."""

    margin: float  # expected points margin of the hand (the rules' points)
    tens: float  # expected tens the team ends with


class _Net:
    """A multi-layer perceptron with ReLU hidden layers, evaluated in numpy."""

    def __init__(self, weights: Sequence[Floats], biases: Sequence[Floats]) -> None:
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]

    def __call__(self, x: Floats) -> Floats:
        last = len(self.weights) - 1
        for layer, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w + b
            if layer < last:
                np.maximum(x, 0.0, out=x)
        return x


class ValueModel:
    """Networks by family, loaded from an ``.npz`` file written by ``save``."""

    def __init__(self, nets: dict[str, _Net], meta: dict[str, object], suit_average: bool = True) -> None:
        self.nets = nets
        self.meta = meta
        #: Answer for a position with the average over its six suit renamings that keep trump (``predict_rows``):
        #: the networks are not exactly symmetric, and the average is right more often (docs/model.md).
        self.suit_average = suit_average

    @classmethod
    def from_arrays(cls, layers: dict[str, list[tuple[Floats, Floats]]], meta: dict[str, object]) -> ValueModel:
        nets = {name: _Net([w for w, _ in pairs], [b for _, b in pairs]) for name, pairs in layers.items()}
        return cls(nets, meta)

    def save(self, path: Path) -> None:
        arrays: dict[str, npt.NDArray[np.generic]] = {}
        for name, net in self.nets.items():
            for layer, (w, b) in enumerate(zip(net.weights, net.biases)):
                arrays[f"{name}/w{layer}"] = w.astype(np.float32)
                arrays[f"{name}/b{layer}"] = b.astype(np.float32)
        arrays["meta"] = np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8)
        with open(path, "wb") as stream:
            np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, source: Path | str, widen: bool = False) -> ValueModel:
        """The model in ``source``; it must read today's encoding (``FEATURES`` inputs).

        With ``widen``, a model of an earlier encoding is accepted too: inputs have
        only ever been added at the end, so its networks get zero weights for the
        inputs it never saw and answer as before (a start for training, ``--init``).
        """
        try:
            with np.load(source, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            meta = json.loads(bytes(arrays.pop("meta")).decode())
        except (OSError, ValueError, KeyError) as error:
            raise DehlaError(f"cannot read the value model {source}: {error}") from None
        layers: dict[str, list[tuple[Floats, Floats]]] = {}
        for name in sorted({key.split("/")[0] for key in arrays}):
            count = sum(1 for key in arrays if key.startswith(f"{name}/w"))
            layers[name] = [(arrays[f"{name}/w{i}"], arrays[f"{name}/b{i}"]) for i in range(count)]
        for pairs in layers.values():
            first, bias = pairs[0]
            inputs = first.shape[0]
            if inputs == FEATURES:
                continue
            if not (widen and inputs < FEATURES):
                raise DehlaError(
                    f"the value model {source} reads {inputs} inputs and this version encodes {FEATURES}: "
                    "retrain it (docs/model.md)"
                )
            pairs[0] = (np.vstack([first, np.zeros((FEATURES - inputs, first.shape[1]), dtype=first.dtype)]), bias)
        meta["features"] = FEATURES
        return cls.from_arrays(layers, meta)

    def net_for(self, rules: Rules) -> _Net | None:
        if not supported(rules):
            return None
        return self.nets.get(family_of(rules)) or self.nets.get("all")

    def covers(self, rules: Rules) -> bool:
        return self.net_for(rules) is not None

    def predict_features(self, features: Floats, rules: Rules) -> tuple[Floats, Floats]:
        """``(margin, tens)`` arrays for encoded positions of one rules value (margin in the rules' points)."""
        net = self.net_for(rules)
        if net is None:
            raise DehlaError(f"the value model has no network for {rules.name}")
        out = net(np.asarray(features, dtype=np.float32))
        margin = np.clip(out[:, 0], -1.0, 1.0) * result_scale(rules)
        tens = np.clip(out[:, 1] * 4.0, 0.0, 4.0)
        return margin, tens

    def predict_rows(self, rows: Ints, rules: Rules) -> tuple[Floats, Floats]:
        """``(margin, tens)`` for raw rows (``raw_of``); with ``suit_average``, each the mean over the row's six
        renamings of the suits that keep trump, in one batch."""
        if not self.suit_average or len(rows) == 0:
            return self.predict_features(encode_raw(rows, rules), rules)
        margin, tens = self.predict_features(encode_raw(same_positions(rows), rules), rules)
        return margin.reshape(6, len(rows)).mean(axis=0), tens.reshape(6, len(rows)).mean(axis=0)

    def estimate(self, state: HandState) -> Estimate:
        """The model's estimate for one position between tricks, for the team of the seat to move."""
        margin, tens = self.predict_rows(np.asarray([raw_of(state)], dtype=np.int64), state.rules)
        return Estimate(float(margin[0]), float(tens[0]))


MODEL_FILE = "value.npz"


@cache
def default_model() -> ValueModel | None:
    """The model shipped with the package, or ``None`` when it is missing (the bots then play without it)."""
    source = resources.files("dehla.learn.models").joinpath(MODEL_FILE)
    if not source.is_file():
        return None
    with resources.as_file(source) as path:
        return ValueModel.load(path)


_Node = tuple[int, int, list["_Node"]] | float
"""A node of a trick's search tree: ``(maximise, leaf, children)`` where ``leaf`` indexes the leaves
(``-1`` for an inner node), or the exact value of a hand the trick ended."""

#: Values positions at trick boundaries for ``team``: ``leaf_values(positions, team)``, one number each.
LeafValues = Callable[[list[Match], int], list[float]]


def team_predictions(model: ValueModel, leaves: list[Match], team: int) -> tuple[list[float], list[float]]:
    """The model's margin and tens for ``team`` at each of ``leaves`` (positions between tricks), in one batch.

    The model answers for the side to move; here each answer is turned to ``team``'s side.
    """
    if not leaves:
        return [], []
    states = [leaf.hand_state() for leaf in leaves]
    rows = np.asarray([raw_of(state) for state in states], dtype=np.int64)
    margin, tens = model.predict_rows(rows, leaves[0].rules)
    ours = np.asarray([(state.to_act or 0) % 2 == team for state in states])
    margins: list[float] = np.where(ours, margin, -margin).tolist()
    team_tens: list[float] = np.where(ours, tens, 4.0 - tens).tolist()
    return margins, team_tens


def model_leaves(model: ValueModel) -> LeafValues:
    """The value model as leaf values: all the leaves of a search in one batch."""

    def values(leaves: list[Match], team: int) -> list[float]:
        return team_predictions(model, leaves, team)[0]

    return values


def trick_values(
    match: Match, team: int, leaf_values: LeafValues, actions: Sequence[Action] | None = None
) -> dict[Action, float]:
    """What each legal action (or each of ``actions``) is worth to ``team`` in one sampled deal: every way the
    trick in progress can end, with best play by both teams, each ending valued by ``leaf_values`` at the next
    trick boundary (exactly where the hand ends).  Before the play (the trump call, the band-hukum hide) each
    action leads straight to the boundary before the first trick, which ``leaf_values`` values.

    The trick is played by the engine itself (``Match.clone``/``apply``), so no rule is written twice here.
    """
    # The boundary where the search stops: the end of the trick in progress, or, before the play, the first lead.
    leaf_tricks = len(match.tricks) + (1 if match.phase is Phase.PLAY else 0)
    leaves: list[Match] = []

    def expand(node: Match) -> _Node:
        if node.phase is not Phase.PLAY:
            if node.phase in (Phase.CALL, Phase.HIDE):  # pragma: no cover - a trick never leads back to a call
                raise DehlaError("the trick search left the play")
            points = node.results[-1].points
            return float(points[team] - points[1 - team])
        if len(node.tricks) >= leaf_tricks and not node.current_trick:
            leaves.append(node)
            return (0, len(leaves) - 1, [])
        seat = node.to_act
        assert seat is not None
        children: list[_Node] = []
        for action in node.legal_actions():
            child = node.clone()
            child.apply(action)
            children.append(expand(child))
        return (int(seat % 2 == team), -1, children)

    if actions is None:
        actions = match.legal_actions()
    roots: list[_Node] = []
    for action in actions:
        child = match.clone()
        child.apply(action)
        roots.append(expand(child))
    found = leaf_values(leaves, team)

    def value(node: _Node) -> float:
        if isinstance(node, float):
            return node
        maximise, leaf, children = node
        if leaf >= 0:
            return found[leaf]
        values = [value(child) for child in children]
        return max(values) if maximise else min(values)

    return {action: value(node) for action, node in zip(actions, roots)}
