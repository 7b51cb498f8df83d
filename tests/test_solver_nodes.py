"""The solver's work on fixed positions: node counts, last recorded with issue 18's trick caps (``TRICK_CAP_LEFT``).

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
        match.phase is Phase.PLAY
        and not match.current_trick
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
    "pagat": [(0, 586, -1, 13), (0, 684, -1, 207), (4, 12778, 1, 643)],
    "pagat-cut": [(0, 2703, -1, 917), (4, 3125, 1, 1805), (3, 2307, 1, 372)],
    "taash": [(0, 1898, -80, 1898), (2, 5631, -20, 5631), (4, 2037, 30, 2037)],
    "taash-b2b": [(0, 2582, -80, 2582), (5, 2942, 80, 2942), (4, 2528, 30, 2528)],
    "mendikot": [(1, 5302, -1, 2553), (1, 667, -1, 84), (2, 2672, -1, 2669)],
    "mendikot-band": [(0, 43039, -1, 40211), (3, 6984, 1, 6959), (1, 9271, -1, 1647)],
    "mendikot-band-auto": [(0, 1277, -1, 1326), (4, 1262, 1, 369), (1, 1617, -1, 699)],
    "mendikot-open": [(5, 8354, 1, 3558), (2, 2375, -1, 374), (2, 721, -1, 715)],
    "mendikot-6": [(0, 16847, -1, 1632), (2, 1770, -1, 637), (1, 991, -1, 31)],
    "mendikot-8": [(5, 36046, 1, 79), (5, 6807, 1, 2746), (3, 3357, 0, 3354)],
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
