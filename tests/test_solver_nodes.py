"""The solver's work on fixed positions: node counts, last recorded with issue 18's trick caps and ETC.

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
    'pagat': [(0, 608, -1, 13), (0, 624, -1, 150), (4, 12484, 1, 620)],
    'pagat-cut': [(0, 2703, -1, 917), (4, 3018, 1, 1704), (3, 2114, 1, 367)],
    'taash': [(0, 1898, -80, 1898), (2, 5400, -20, 5400), (4, 2043, 30, 2043)],
    'taash-b2b': [(0, 2582, -80, 2582), (5, 2843, 80, 2843), (4, 2178, 30, 2178)],
    'mendikot': [(1, 5117, -1, 2400), (1, 1088, -1, 22), (2, 2560, -1, 2557)],
    'mendikot-band': [(0, 39979, -1, 39223), (3, 6822, 1, 6797), (1, 8854, -1, 1643)],
    'mendikot-band-auto': [(0, 1261, -1, 1139), (4, 1158, 1, 55), (1, 1617, -1, 699)],
    'mendikot-open': [(5, 7385, 1, 3304), (2, 2274, -1, 374), (2, 714, -1, 708)],
    'mendikot-6': [(0, 16827, -1, 1632), (2, 1650, -1, 565), (1, 991, -1, 31)],
    'mendikot-8': [(5, 33224, 1, 79), (5, 6533, 1, 2105), (3, 2958, 0, 2955)],
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
