"""The fast solver against plain minimax over the engine, on many small positions of every preset.

For each preset, 10,000 random positions with one or two cards a seat (plus a
few with three): the position's value and the value of every legal action
must agree exactly.  Positions include states the engine reaches only with
more cards (trump still open to be cut, a staged deal not yet completed, the
band-hukum card still face down; see ``solver_positions``).
"""

from __future__ import annotations

import itertools
import random

import pytest
from tests.test_solver_positions import small_positions

from dehla.engine import tricks
from dehla.engine.state import Match
from dehla.rules import PRESETS, Rules, parse_rules
from dehla.solver import Solver, reference_values

POSITIONS = 10_000
LARGER = 40  # positions with three cards a seat (four-player presets), on top

CASES: list[tuple[str, Rules]] = [(name, rules) for name, rules in PRESETS.items()]
CASES.append(("taash+trick_minimum", parse_rules({"preset": "taash", "trick_minimum": True})))
CASES.append(("pagat+no-reset", parse_rules({"preset": "pagat", "streak_resets": False})))


def _compare(solver: Solver, match: Match, limit: int | None) -> str | None:
    """``None`` when the solver agrees with the reference, else a description of the difference."""
    saved = tricks.STAGED_TRICKS
    if limit is not None:
        tricks.STAGED_TRICKS = limit
    try:
        expected, actions = reference_values(match)
        solution = solver.solve(match)
    finally:
        tricks.STAGED_TRICKS = saved
    got = {str(action): value.level for action, value in solution.actions.items()}
    want = {str(action): level for action, level in actions.items()}
    if solution.value.level == expected and got == want:
        return None
    hands = [" ".join(str(card) for card in match.hand_of(seat)) for seat in range(match.players)]
    return (
        f"position value {solution.value.level} != reference {expected}; actions {got} != {want}; "
        f"hands {hands}, trick {match.current_trick}, trump {match.trump}, staged limit {limit}"
    )


@pytest.mark.parametrize(("label", "rules"), CASES, ids=[label for label, _ in CASES])
def test_fast_solver_matches_minimax(label: str, rules: Rules) -> None:
    solver = Solver(table_bits=16)
    rng = random.Random(f"exact-{label}")
    sizes = (2, 2, 1) if rules.players == 4 else (2, 1, 1)
    checked = 0
    failures: list[str] = []
    for match, limit in itertools.islice(small_positions(rules, rng, sizes), POSITIONS):
        problem = _compare(solver, match, limit)
        checked += 1
        if problem is not None:
            failures.append(problem)
    if rules.players == 4:
        for match, limit in itertools.islice(small_positions(rules, rng, (3,)), LARGER):
            problem = _compare(solver, match, limit)
            checked += 1
            if problem is not None:
                failures.append(problem)
    assert checked >= POSITIONS
    assert not failures, f"{len(failures)} of {checked} positions differ; first: {failures[0]}"
