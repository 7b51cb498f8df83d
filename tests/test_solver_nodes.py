"""The solver's work on fixed positions: node counts, last recorded with issue 18's transposition table.

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
    'pagat': [(0, 586, -1, 13), (0, 1125, -1, 313), (4, 13897, 1, 643)],
    'pagat-cut': [(0, 2703, -1, 917), (4, 3757, 1, 2148), (3, 2307, 1, 372)],
    'taash': [(0, 2081, -80, 2081), (2, 8973, -20, 8973), (4, 2037, 30, 2037)],
    'taash-b2b': [(0, 2703, -80, 2703), (5, 3587, 80, 3587), (4, 2618, 30, 2618)],
    'mendikot': [(1, 6229, -1, 3572), (1, 1030, -1, 181), (2, 2796, -1, 2793)],
    'mendikot-band': [(0, 43180, -1, 40260), (3, 7691, 1, 7666), (1, 10018, -1, 3067)],
    'mendikot-band-auto': [(0, 1277, -1, 1326), (4, 1851, 1, 2529), (1, 1617, -1, 699)],
    'mendikot-open': [(5, 14492, 1, 8601), (2, 2412, -1, 412), (2, 741, -1, 735)],
    'mendikot-6': [(0, 27948, -1, 4590), (2, 1858, -1, 765), (1, 991, -1, 31)],
    'mendikot-8': [(5, 45853, 1, 1047), (5, 7708, 1, 3205), (3, 3553, 0, 3678)],
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
