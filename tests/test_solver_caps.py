"""The caps on what a team can still collect, checked against plain minimax where they answer.

A team collects nothing more when it can win no more tricks, or (centre collection) at most one trick
without holding the streak while an opponent keeps the top trump for the last trick; the kernel counts
the tricks a team can still win from the opponents' trumps above all of its own (``bounds.trick_caps``).
Here random positions of three cards a seat are solved with a fresh solver each, and only
those in which the caps answered some node count: their value and every action's value must equal
plain minimax, and the caps must have answered in enough of them to mean something.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from tests.test_solver_positions import natural_positions

from dehla.rules import PRESETS, Rules, parse_rules
from dehla.solver import Solver, reference_values

CASES: list[tuple[str, Rules]] = [
    (name, PRESETS[name]) for name in ("pagat", "pagat-cut", "taash-b2b", "mendikot", "mendikot-band", "taash")
]
CASES.append(("pagat+no-reset", parse_rules({"preset": "pagat", "streak_resets": False})))
CAPPED = 10  # positions a rules in which the caps answered, each compared with minimax
TRIES = 300  # positions looked at, at most


@pytest.mark.parametrize(("label", "rules"), CASES, ids=[label for label, _ in CASES])
def test_capped_positions_match_minimax(label: str, rules: Rules) -> None:
    rng = random.Random(f"caps-{label}")
    capped = 0
    tried = 0
    while capped < CAPPED and tried < TRIES:
        for match in natural_positions(rules, rng, (3,)):
            tried += 1
            solver = Solver(table_bits=12)
            solution = solver.solve(match)
            if not solver.capped:
                continue
            capped += 1
            expected, actions = reference_values(match)
            assert solution.value.level == expected, (label, tried)
            assert {action: value.level for action, value in solution.actions.items()} == actions, (label, tried)
    assert capped >= CAPPED, f"the caps answered in only {capped} of {tried} positions"


def _same_values_with(switch: Callable[[Solver], None], preset: str, rng: random.Random, games: int) -> None:
    """Every position of ``games`` random games: a fresh solver changed by ``switch`` finds the default's values."""
    for _ in range(games):
        for match in natural_positions(preset, rng, (4,)):
            plain = Solver(table_bits=12).solve(match)
            switched = Solver(table_bits=12)
            switch(switched)
            found = switched.solve(match)
            assert found.value == plain.value
            assert found.actions == plain.actions


def _caps_off(solver: Solver) -> None:
    solver.caps = False


def _etc_on(solver: Solver) -> None:
    solver.etc = True


def test_caps_off_gives_the_same_values() -> None:
    """The caps only cut the search: with them off (``Solver.caps``) every value is the same."""
    _same_values_with(_caps_off, "pagat", random.Random("caps-off"), 40)


def test_enhanced_transposition_cutoffs_give_the_same_values() -> None:
    """ETC (``Solver.etc``, off by default) only reorders and cuts the search: every value is the same with it on."""
    rng = random.Random("etc-on")
    for preset in ("pagat", "taash", "mendikot"):
        _same_values_with(_etc_on, preset, rng, 15)
