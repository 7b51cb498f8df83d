"""A learned value: what the exact solver would say about a position at a trick boundary, in numpy only.

The solver cannot answer for the first tricks of a full deal within a move's
or an analysis's budget.  There a search can go to the end of the trick in
progress (``trick_values``) and ask this model what each resulting position
is worth: the search bots do that in each sample, and analysis and hints show
it as an estimate.  The model is a small multi-layer perceptron
trained on positions the solver labelled (``dehla train value``, see
docs/model.md); its weights ship with the package (``models/value.npz``) and it
runs on numpy alone, with no training library.

A position is encoded from the side of the seat to move (the leader of the next
trick) with every card known: each seat's cards, seats counted from the mover,
the suits reordered so that trump comes first; the centre's tens and who would
collect it; the tens and tricks each team has; tricks left; the dealer; and the
rules' options.  The model answers, for the mover's team, the hand's points
margin (scaled to -1..1 by the largest result of the rules) and the tens it
ends with.  One network per scoring family (``pagat``, ``taash``,
``mendikot``); a file may also hold one network for all (``all``), used for a
family without its own.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dehla.cards import TENS_MASK
from dehla.engine.actions import Action
from dehla.engine.phase import Phase
from dehla.engine.state import Match
from dehla.engine.tricks import HandState
from dehla.errors import DehlaError
from dehla.rules import Rules

__all__ = [
    "FEATURES",
    "RAW_FIELDS",
    "ValueModel",
    "Estimate",
    "default_model",
    "encode_raw",
    "family_of",
    "raw_of",
    "rename_suits",
    "result_scale",
    "supported",
    "LeafValues",
    "model_leaves",
    "team_predictions",
    "trick_values",
]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]

#: The fields of a raw position row (``raw_of``), the form positions are stored in before encoding.
RAW_FIELDS = (
    "mover", "dealer", "hand0", "hand1", "hand2", "hand3", "trump", "trump_hidden", "cut_open", "staged",
    "chooser", "centre", "next_collector", "captured0", "captured1", "won0", "won1", "tricks_played",
)  # fmt: skip
_F = {name: index for index, name in enumerate(RAW_FIELDS)}
#: The fields of a raw row that hold card masks (every other field is the same under a renaming of the suits).
_MASK_FIELDS = tuple(_F[name] for name in ("hand0", "hand1", "hand2", "hand3", "centre", "captured0", "captured1"))


def _renamings_keeping_trump() -> Ints:
    """``[trump, k]``: the six renamings of the suits (``perm[suit]`` is the new name) that keep ``trump``'s
    name, ``k = 0`` the identity; row 0 serves a position whose trump is not known yet as well."""
    table = np.zeros((4, 6, 4), dtype=np.int64)
    for trump in range(4):
        others = [suit for suit in range(4) if suit != trump]
        for k, order in enumerate(itertools.permutations(others)):
            table[trump, k, trump] = trump
            for old, new in zip(others, order):
                table[trump, k, old] = new
    return table


_KEEP_TRUMP = _renamings_keeping_trump()


def rename_suits(rows: Ints, perms: Ints) -> Ints:
    """Raw rows with each row's suits renamed (suit ``s`` of row ``i`` becomes ``perms[i, s]``).  The game
    does not tell suits apart, so a renaming that keeps trump's suit is the same position."""
    rows = rows.copy()
    for field in _MASK_FIELDS:
        masks = rows[:, field]
        out = np.zeros(len(rows), dtype=np.int64)
        for suit in range(4):
            out |= ((masks >> (13 * suit)) & 0x1FFF) << (13 * perms[:, suit])
        rows[:, field] = out
    return rows

_TRUMP_METHODS = ("called", "cut", "hidden", "hidden_auto", "open_draw")
_SCORINGS = ("pagat", "taash", "mendikot")
_TRICKS = 13
#: Width of an encoded position.
FEATURES = 4 * 52 + 2 + 4 + 1 + 4 + 4 + 4 + 5 + 12 + 4 * 4 * 3 + 4 * 6 + 4


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


def raw_of(state: HandState) -> list[int]:
    """A position at a trick boundary as a raw row (``RAW_FIELDS``): the full truth, seat numbers absolute.

    Cards still to be dealt belong to the seat they will go to, and the face-down
    band-hukum card to its chooser: the solver sees them all the same.
    """
    mover = state.to_act
    if mover is None or state.trick:
        raise DehlaError("the value model reads positions between tricks only")
    hands = [state.hands[seat] | state.pending[seat] for seat in range(4)]
    trump = -1 if state.trump is None else int(state.trump)
    hidden = 0
    if state.hidden_card is not None and state.chooser is not None:
        hands[state.chooser] |= 1 << state.hidden_card
        trump = state.hidden_card // 13
        hidden = 1
    return [
        mover,
        state.dealer,
        *hands,
        trump,
        hidden,
        int(state.cut_open),
        int(state.staged),
        -1 if state.chooser is None else state.chooser,
        state.centre,
        -1 if state.next_collector is None else state.next_collector,
        state.captured[0],
        state.captured[1],
        state.tricks_won[0],
        state.tricks_won[1],
        state.tricks_played,
    ]


def _rules_features(rules: Rules) -> Floats:
    flags = [
        float(rules.collection == "centre"),
        *(float(rules.scoring == name) for name in _SCORINGS),
        *(float(rules.trump == name) for name in _TRUMP_METHODS),
        float(rules.staged_deal),
        float(rules.streak_resets),
        float(rules.trick_minimum),
    ]
    return np.asarray(flags, dtype=np.float32)


def _suit_orders() -> Ints:
    """For each trump (-1 for none, then 0..3): where each card goes when trump's suit moves to the front."""
    orders = np.zeros((5, 52), dtype=np.int64)
    for trump in range(-1, 4):
        suits = list(range(4)) if trump < 0 else [trump] + [suit for suit in range(4) if suit != trump]
        slot = {suit: index for index, suit in enumerate(suits)}
        for card in range(52):
            orders[trump + 1, slot[card // 13] * 13 + card % 13] = card
    return orders


_ORDERS = _suit_orders()
_SHIFTS = np.arange(52, dtype=np.int64)


def _bits(masks: Ints) -> npt.NDArray[np.bool_]:
    """``(N,)`` 52-bit masks to ``(N, 52)`` booleans."""
    return ((masks[:, None] >> _SHIFTS[None, :]) & 1).astype(np.bool_)


def _count(masks: Ints) -> Ints:
    counts: Ints = _bits(masks).sum(axis=1, dtype=np.int64)
    return counts


def _suit_features(planes: npt.NDArray[np.bool_]) -> Floats:
    """Per seat and suit: its length, whether it holds the suit's best card left, and its winners from the top.

    Winners from the top are the seat's cards that are the best ones left in a
    row (ace, king, queen ... as far as the seat holds the next best card still
    in play): what the network would otherwise have to learn from the card bits.
    """
    n = planes.shape[0]
    cards = planes.reshape(n, 4, 4, 13)  # seat, suit, rank
    live = np.asarray(cards.any(axis=1), dtype=np.bool_)  # (n, suit, rank): still in someone's hand
    length = cards.sum(axis=3)
    running = np.ones((n, 4, 4), dtype=np.bool_)
    winners = np.zeros((n, 4, 4), dtype=np.int64)
    top = np.zeros((n, 4, 4), dtype=np.bool_)
    first = np.ones((n, 4), dtype=np.bool_)  # no live card of the suit met yet
    for rank in range(12, -1, -1):
        here = live[:, None, :, rank]
        held = cards[:, :, :, rank]
        top |= held & first[:, None, :]
        running &= held | ~here
        winners += running & here
        first &= ~live[:, :, rank]
    features = np.concatenate([length / 13.0, top, winners / 13.0], axis=2)  # (n, seat, 12)
    result: Floats = features.reshape(n, 48).astype(np.float32)
    return result


def _ten_features(planes: npt.NDArray[np.bool_], trumps: npt.NDArray[np.bool_], suit_features: Floats) -> Floats:
    """Per suit, the mover's team first: whose team holds its ten, the higher cards each team holds, who can ruff it;
    per team: trumps above every trump of the other team, and winners from the top in all suits."""
    n = planes.shape[0]
    cards = planes.reshape(n, 4, 4, 13)
    teams = np.stack([cards[:, 0] | cards[:, 2], cards[:, 1] | cards[:, 3]], axis=1)  # (n, team, suit, rank)
    ten = teams[:, :, :, 8]  # (n, team, suit)
    higher = teams[:, :, :, 9:].sum(axis=3) / 4.0
    has_trump = cards[:, :, 0, :].any(axis=2) & trumps[:, None]  # (n, seat)
    void = ~cards.any(axis=3)  # (n, seat, suit)
    ruff = void & has_trump[:, :, None]
    ruff[:, :, 0] = False
    ruffers = np.stack([ruff[:, 0] | ruff[:, 2], ruff[:, 1] | ruff[:, 3]], axis=1).astype(np.float32)
    per_suit = np.concatenate([ten, higher, ruffers], axis=1).transpose(0, 2, 1).reshape(n, 24)
    trump_ranks = teams[:, :, 0, :]  # (n, team, rank)
    control = np.zeros((n, 2), dtype=np.float32)
    for side in range(2):
        theirs = trump_ranks[:, 1 - side]
        top_theirs = np.where(theirs.any(axis=1), 12 - np.argmax(theirs[:, ::-1], axis=1), -1)
        above = np.arange(13)[None, :] > top_theirs[:, None]
        control[:, side] = (trump_ranks[:, side] & above).sum(axis=1) * trumps / 13.0
    winners = suit_features.reshape(n, 4, 3, 4)[:, :, 2, :].sum(axis=2)  # (n, seat): winners from the top
    team_winners = np.stack([winners[:, 0] + winners[:, 2], winners[:, 1] + winners[:, 3]], axis=1)
    result: Floats = np.concatenate([per_suit, control, team_winners], axis=1).astype(np.float32)
    return result


def encode_raw(rows: Ints, rules: Rules) -> Floats:
    """Encode raw position rows (``RAW_FIELDS``, shape ``(N, len(RAW_FIELDS))``) of one rules value."""
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, len(RAW_FIELDS))
    n = rows.shape[0]
    out = np.zeros((n, FEATURES), dtype=np.float32)
    index = np.arange(n)
    mover = rows[:, _F["mover"]]
    team = mover % 2
    order = _ORDERS[rows[:, _F["trump"]] + 1]  # (N, 52): card shown in each slot
    column = 0
    planes = np.zeros((n, 4, 52), dtype=np.bool_)  # seats from the mover, cards in trump-first order
    for offset in range(4):
        seat = (mover + offset) % 4
        hands = rows[index, _F["hand0"] + seat]
        planes[:, offset] = _bits(hands)[index[:, None], order]
        out[:, column : column + 52] = planes[:, offset]
        column += 52
    centre = rows[:, _F["centre"]]
    out[:, column] = _count(centre & TENS_MASK) / 4
    out[:, column + 1] = _count(centre) / 52
    column += 2
    captured = np.stack([rows[:, _F["captured0"]], rows[:, _F["captured1"]]], axis=1)
    won = np.stack([rows[:, _F["won0"]], rows[:, _F["won1"]]], axis=1)
    mine_tens = _count(captured[index, team] & TENS_MASK)
    their_tens = _count(captured[index, 1 - team] & TENS_MASK)
    out[:, column] = mine_tens / 4
    out[:, column + 1] = their_tens / 4
    out[:, column + 2] = won[index, team] / _TRICKS
    out[:, column + 3] = won[index, 1 - team] / _TRICKS
    column += 4
    # Tricks left as one number, not one unit a trick: the model also values positions earlier than any it was
    # trained on (the leaves of a first-trick search), and a unit never set in training would only add noise.
    out[:, column] = (_TRICKS - rows[:, _F["tricks_played"]]) / _TRICKS
    column += 1
    for name in ("next_collector", "chooser", "dealer"):
        seat = rows[:, _F[name]]
        has = seat >= 0
        out[index[has], column + (seat[has] - mover[has]) % 4] = 1.0
        column += 4
    trump = rows[:, _F["trump"]]
    out[:, column] = trump >= 0
    out[:, column + 1] = rows[:, _F["trump_hidden"]]
    out[:, column + 2] = rows[:, _F["cut_open"]]
    out[:, column + 3] = rows[:, _F["staged"]]
    out[:, column + 4] = (rows[:, _F["dealer"]] % 2) == team
    column += 5
    out[:, column : column + 12] = _rules_features(rules)[None, :]
    column += 12
    suit_features = _suit_features(planes)
    out[:, column : column + 48] = suit_features
    column += 4 * 4 * 3
    out[:, column:] = _ten_features(planes, trump >= 0, suit_features)
    column += 4 * 6 + 4
    assert column == FEATURES
    return out


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
        trump = np.maximum(rows[:, _F["trump"]], 0)
        renamed = np.concatenate([rename_suits(rows, _KEEP_TRUMP[trump, k]) for k in range(6)])
        margin, tens = self.predict_features(encode_raw(renamed, rules), rules)
        return margin.reshape(6, len(rows)).mean(axis=0), tens.reshape(6, len(rows)).mean(axis=0)

    def estimate(self, state: HandState) -> Estimate:
        """The model's estimate for one position between tricks, for the team of the seat to move."""
        margin, tens = self.predict_rows(np.asarray([raw_of(state)], dtype=np.int64), state.rules)
        return Estimate(float(margin[0]), float(tens[0]))


MODEL_FILE = "value.npz"


@cache
def default_model() -> ValueModel | None:
    """The model shipped with the package, or ``None`` when it is missing (the bots then play without it)."""
    source = resources.files("dehla.solver.models").joinpath(MODEL_FILE)
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
