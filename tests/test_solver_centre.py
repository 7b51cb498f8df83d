"""The centre's tens out of the table key: entries shared across centre counts, checked against plain minimax.

The solver keeps the number of tens in the centre out of its transposition
table's key and shifts an entry's bounds by it on lookup (``table.entry_bounds``):
the value is monotone in the centre's tens and rises by at most one ten's weight
per ten.  Here one solver keeps its table across every position (``keep_table``),
and each position comes in variants that differ only in where the tens already
out of play lie (either team's captures or the centre), so entries stored with
one centre count answer for another.  Every value must equal plain minimax.
"""

from __future__ import annotations

import random

import pytest
from tests.test_solver_positions import natural_positions

from dehla.cards import TENS_MASK
from dehla.engine.state import Match
from dehla.rules import PRESETS as PRESETS_BY_NAME
from dehla.rules import Rules, parse_rules
from dehla.solver import Solver, reference_values

PRESETS = ("pagat", "pagat-cut", "taash-b2b", "pagat+no-reset")  # the rules with a centre pile
POSITIONS = 10  # positions a preset (three cards a seat), four centre variants each; more in bench_solver_exact.py


def centre_variants(match: Match, rng: random.Random) -> list[Match]:
    """The position with the tens already out of play spread afresh over the captures and the centre."""
    hand = match._hand
    out = [
        card
        for card in range(52)
        if (TENS_MASK >> card) & 1 and ((hand.captured[0] | hand.captured[1] | hand.centre) >> card) & 1
    ]
    variants = []
    for _ in range(4):
        other = match.clone()
        for card in out:
            bit = 1 << card
            other._hand.captured[0] &= ~bit
            other._hand.captured[1] &= ~bit
            other._hand.centre &= ~bit
            # In the centre, or with a team that has won a trick (a team with no trick holds no ten).
            places = [2] + [team for team in (0, 1) if other._hand.tricks_won[team]]
            place = rng.choice(places)
            if place == 2:
                other._hand.centre |= bit
            else:
                other._hand.captured[place] |= bit
        variants.append(other)
    return variants


def _rules(label: str) -> Rules:
    if label == "pagat+no-reset":
        return parse_rules({"preset": "pagat", "streak_resets": False})
    return PRESETS_BY_NAME[label]


def check_centre_variants(preset: str, positions: int, seed: str) -> int:
    """Solve ``positions`` positions of ``preset`` in centre variants with one kept table; return how many
    variants had tens in the centre.  Fails on the first value that differs from minimax."""
    rng = random.Random(seed)
    solver = Solver(table_bits=14, keep_table=True)
    checked = 0
    shifted = 0
    while checked < positions:
        for match in natural_positions(_rules(preset), rng, (3,)):
            if match._hand.trick:
                continue
            for variant in centre_variants(match, rng):
                try:
                    expected, actions = reference_values(variant)
                except ValueError:  # tens with a team whose tricks could never have scored them so: not a hand
                    continue
                solution = solver.solve(variant)
                assert solution.value.level == expected, (preset, checked)
                assert {a: v.level for a, v in solution.actions.items()} == actions, (preset, checked)
                shifted += int(variant._hand.centre & TENS_MASK != 0)
            checked += 1
    return shifted


@pytest.mark.parametrize("preset", PRESETS)
def test_centre_shifted_entries_match_minimax(preset: str) -> None:
    # The seed is the benchmark's first: on it, dropping either shift of ``_entry_bounds`` fails (checked by hand).
    assert check_centre_variants(preset, POSITIONS, f"bench-1-{preset}") >= POSITIONS  # tens in many centres
