"""Playout values for the search bots: sampled worlds played to the end of the hand in compiled code.

Where no exact solve fits the move's budget (the call, the band-hukum card and the first tricks), the search
bots value each legal action by dealing the unseen cards as the seat's observation allows (``sampled_worlds``),
applying the action in each such world and letting the compiled policy (``dehla.kernel.playout``) play every
seat to the end of the hand.  A world's value of an action is whether the seat's team won the hand (1; 0.5 when
nobody did), plus a hundredth of the tens it collected more than the other team (a tie-break).  Every world
values every action still in the race, so the search compares actions world by world (paired).

The worlds come as rows (``sampled_worlds``: one replayed in the engine, the others built from its row),
in small batches, and each batch is played out for every action in one compiled call.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from dehla.bots.tracking import CardTracker
from dehla.bots.worlds import sampled_worlds
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.features.observation import action_index
from dehla.kernel import codec
from dehla.kernel import layout as L
from dehla.solver.compiled import kernels

__all__ = ["TENS_WEIGHT", "playout_batches", "values_of"]

#: What one ten more than the other team adds to a world's value (a tie-break between equal results).
TENS_WEIGHT = 0.01
FloatMatrix = npt.NDArray[np.float64]


def values_of(results: Any, team: int, points: bool = False) -> FloatMatrix:
    """Each (world, action) result (``dehla.kernel.layout.RESULT_WORDS``) as the value for ``team``; with
    ``points``, the hand's points margin instead (what a hint's estimate reports)."""
    if points:
        return np.asarray(results[..., L.R_PTS0 + team] - results[..., L.R_PTS1 - team], dtype=np.float64)
    winner = results[..., L.R_WINNER]
    won = np.where(winner == team, 1.0, np.where(winner < 0, 0.5, 0.0))
    tens = results[..., L.R_TENS0 + team] - results[..., L.R_TENS1 - team]
    return np.asarray(won + TENS_WEIGHT * tens, dtype=np.float64)


def playout_batches(
    observation: Observation,
    actions: list[Action],
    rng: random.Random,
    more: Callable[[], bool],
    batch: int = 8,
    points: bool = False,
) -> Iterator[FloatMatrix]:
    """Values of ``actions`` in sampled worlds, ``batch`` worlds at a time: a (worlds, actions) matrix each.

    ``more`` is asked before each world is drawn; the last batch may be smaller, and an empty one is never given.
    Each batch values the actions then in ``actions``: the caller may drop some between batches (the search
    drops those out of the race).  ``points``: the values are the hand's points margins (``values_of``).
    """
    play_worlds = kernels().play_worlds
    params = codec.full_params(observation.rules)
    scratch = np.zeros(L.ROW, dtype=np.int64)
    rewards = np.zeros(2, dtype=np.float32)
    team = observation.seat % 2
    rows: list[L.Array] = []

    def flush() -> FloatMatrix:
        worlds = np.stack(rows)
        rows.clear()
        codes = np.array([action_index(action) for action in actions], dtype=np.int64)
        out = np.zeros((worlds.shape[0], len(codes), L.RESULT_WORDS), dtype=np.int64)
        play_worlds(worlds, params, codes, scratch, rewards, out)
        return values_of(out, team, points)

    for world in sampled_worlds(observation, CardTracker(observation), rng, more):
        rows.append(world)
        if len(rows) >= batch:
            yield flush()
    if rows:
        yield flush()
