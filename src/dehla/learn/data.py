"""Labelled positions (``Dataset``) and the hand histories that rebuild them.

A data set holds positions between tricks as raw rows (``dehla.features.position``), each with its preset,
hand and trick, the label of the mover's team (points margin and tens) and where that label came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dehla.engine.actions import Deal
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.features.observation import action_index, action_of
from dehla.features.position import RAW_FIELDS
from dehla.rules import PRESETS, preset

__all__ = [
    "BACKWARD",
    "HISTORY",
    "PRESET_NAMES",
    "SOLVER",
    "UNLABELLED",
    "Dataset",
    "history_of",
    "match_of",
    "sorted_by_hand",
]

#: The presets in the order ``Dataset.preset`` indexes them.
PRESET_NAMES = tuple(PRESETS)
#: Where a position's label came from (``Dataset.source``): the exact solver, a search of the next trick with a
#: model's values at its leaves (a backward label: an estimate, never checked against the solver), or nothing yet.
SOLVER, BACKWARD, UNLABELLED = 0, 1, -1
#: Width of a stored hand history (``history_of``): first dealer, open draw, 52 dealt cards, then the actions.
HISTORY = 128


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
    history: npt.NDArray[np.int8]  # (N, HISTORY): how to rebuild the position (``match_of``); -1 where not kept

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
        fields.setdefault("history", np.full((count, HISTORY), -1, dtype=np.int8))
        missing = [name for name in cls.__dataclass_fields__ if name not in fields]
        if missing:
            raise DehlaError(f"cannot read the data set {path}: no {', '.join(missing)}")
        fields["margin"] = fields["margin"].astype(np.float64)
        fields["tens"] = fields["tens"].astype(np.float64)
        return cls(**fields)

    @classmethod
    def empty(cls) -> Dataset:
        """No positions."""
        return cls(
            rows=np.zeros((0, len(RAW_FIELDS)), dtype=np.int64),
            preset=np.zeros(0, dtype=np.int64),
            hand=np.zeros(0, dtype=np.int64),
            trick=np.zeros(0, dtype=np.int64),
            margin=np.zeros(0, dtype=np.float64),
            tens=np.zeros(0, dtype=np.float64),
            seconds=np.zeros(0, dtype=np.float64),
            source=np.zeros(0, dtype=np.int8),
            history=np.zeros((0, HISTORY), dtype=np.int8),
        )

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


def history_of(match: Match) -> list[int]:
    """The first hand of ``match`` so far as ``HISTORY`` small numbers: first dealer, open draw, the deal, the
    actions (-1 pads), so that the position can be stored in a data file and rebuilt (``match_of``)."""
    if match.hand_number != 0:
        raise DehlaError("only a match's first hand is kept as a history")
    deal = match.deals[0]
    cards = [int(card) for hand in deal.hands for card in hand]
    if len(deal.hands) != 4 or len(cards) != 52:
        raise DehlaError("histories are kept for four players and the full pack only")

    codes = [match.first_dealer, -1 if deal.open_draw is None else int(deal.open_draw), *cards]
    codes += [action_index(action) for action in match.actions]
    if len(codes) > HISTORY:
        raise DehlaError(f"a history longer than {HISTORY} numbers (too many tricks played)")
    return codes + [-1] * (HISTORY - len(codes))


def match_of(history: npt.NDArray[np.int8] | Sequence[int], rules_name: str) -> Match:
    """The position a ``history_of`` row was taken at, replayed by the engine."""
    codes = [int(code) for code in history]
    match = Match(preset(rules_name), codes[0])
    cards = codes[2:54]
    match.apply(Deal([cards[13 * seat : 13 * seat + 13] for seat in range(4)], None if codes[1] < 0 else codes[1]))
    for code in codes[54:]:
        if code < 0:
            break
        match.apply(action_of(code))
    return match


def sorted_by_hand(data: Dataset) -> Dataset:
    """Positions in hand order, then by trick: the same data whatever order its tasks or parts finished in."""
    order = np.lexsort((data.trick, data.hand))
    return data.take(order)
