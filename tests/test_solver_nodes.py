"""The solver's work on fixed positions: node counts recorded before the trick-core refactor (issue 17).

A change to how a ``Match`` is handed to the kernel (``Solver._encode``) or to
the kernel itself must find the same values with at most as many search
nodes.  The positions: for every preset, a seeded random game played on until
each seat has ``CARDS`` cards or fewer, then a full ``solve`` and a ``results``
with a fresh solver.  Refresh with ``python tests/test_solver_nodes.py`` only
when a change is meant to make the search cheaper (say so in the commit).
"""

from __future__ import annotations

import random
import sys

import pytest
from tests.helpers import PRESET_NAMES

from dehla.engine.state import Match, Phase
from dehla.solver.fast import Solver

CARDS = {4: 8, 6: 6, 8: 5}


def position(preset: str, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    while not (
        match.phase is Phase.PLAY and not match.current_trick
        and all(len(match.hand_of(seat)) <= CARDS[match.players] for seat in range(match.players))
        and all(size == 0 for size in match.observe(0).undealt)
    ):
        match.apply(rng.choice(match.legal_actions()))
    # then a few cards into the trick, so that positions start mid-trick too
    for _ in range(seed % match.players):
        match.apply(rng.choice(match.legal_actions()))
    return match


def measure(preset: str, seed: int) -> tuple[int, int, int, int]:
    """(level, nodes of solve, margin, nodes of results) with fresh solvers."""
    match = position(preset, seed)
    solution = Solver(table_bits=16).solve(match)
    results = Solver(table_bits=16).results(match)
    return solution.value.level, solution.nodes, results.margin, results.nodes


SEEDS = (1, 2, 3)
EXPECTED: dict[str, list[tuple[int, int, int, int]]] = {
    'pagat': [(0, 608, -1, 13), (0, 1237, -1, 313), (4, 14957, 1, 643)],
    'pagat-cut': [(0, 3513, -1, 937), (4, 4051, 1, 2148), (3, 2508, 1, 372)],
    'taash': [(0, 3327, -80, 3327), (2, 9439, -20, 9439), (4, 2064, 30, 2064)],
    'taash-b2b': [(0, 3513, -80, 3513), (5, 3881, 80, 3881), (4, 2587, 30, 2587)],
    'mendikot': [(1, 6875, -1, 3588), (1, 1066, -1, 181), (2, 2796, -1, 2793)],
    'mendikot-band': [(0, 91203, -1, 66886), (3, 7691, 1, 7666), (1, 10856, -1, 3067)],
    'mendikot-band-auto': [(0, 1277, -1, 1326), (4, 1851, 1, 2529), (1, 1617, -1, 699)],
    'mendikot-open': [(5, 25631, 1, 12556), (2, 2412, -1, 412), (2, 741, -1, 735)],
    'mendikot-6': [(0, 67539, -1, 4590), (2, 1972, -1, 847), (1, 991, -1, 31)],
    'mendikot-8': [(5, 50597, 1, 1047), (5, 7708, 1, 3205), (3, 3553, 0, 3678)],
}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_node_counts_not_higher(preset: str) -> None:
    expected = EXPECTED[preset]
    for seed, (level, nodes, margin, result_nodes) in zip(SEEDS, expected):
        now = measure(preset, seed)
        assert now[0] == level and now[2] == margin, (preset, seed, now)
        assert now[1] <= nodes and now[3] <= result_nodes, (preset, seed, now, (nodes, result_nodes))


if __name__ == "__main__":
    print("EXPECTED = {")
    for name in PRESET_NAMES:
        print(f"    {name!r}: {[measure(name, seed) for seed in SEEDS]!r},")
    print("}")
    sys.exit(0)
