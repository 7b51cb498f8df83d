"""One solver, one table, asked a long mixed series of questions, answers each exactly as a fresh one would.

A table entry is a bound proved for one question (the objective's levels, a claim's or a tens question's own
endings) about one keyed position; it must never answer another question, another position, or a later call
wrongly, whether the table starts a new generation per call or keeps its entries (``keep_table``), and whether
entries are replaced (a small table) or a search stopped at its node limit half-way.  Here one solver goes
through positions of every preset and variant in a random order (the questions mixed: values, best moves,
results, bound queries, claims) and each answer is compared with plain minimax over the engine on small endings
and with a fresh solver on larger positions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from tests.test_solver_positions import natural_positions, small_positions

from dehla.cards import TENS_MASK
from dehla.engine import tricks
from dehla.engine.state import Match, Phase
from dehla.rules import PRESETS, Rules, parse_rules
from dehla.solver import Solver, objective_for, reference_values
from dehla.solver.fast import SolveLimitReached
from dehla.solver.reference import reference_reaches

CASES: list[Rules] = [*PRESETS.values()]
CASES.append(parse_rules({"preset": "taash", "trick_minimum": True}))
CASES.append(parse_rules({"preset": "pagat", "streak_resets": False}))

#: A question and its answer, in a form that compares equal between two ways of finding it.
Question = tuple[object, ...]
Answer = object


def _questions(rng: random.Random, match: Match) -> list[Question]:
    """A random handful of every kind of question about ``match``, in a random order."""
    nets = sorted({value.net for value in objective_for(match.rules, match.dealer).values})
    found: list[Question] = [("solve",), ("results",), ("value",)]
    for _ in range(2):
        found.append(("reaches", rng.randrange(2), rng.randint(1, 4)))
        found.append(("improves", rng.randrange(2), rng.choice(nets) + rng.choice((-1, 0, 1))))
        found.append(("claim", rng.randrange(2), rng.choice(("tricks", "tens"))))
    rng.shuffle(found)
    return found[: rng.randint(2, len(found))]


def _ask(solver: Solver, match: Match, question: Question) -> Answer:
    kind = question[0]
    if kind == "solve":
        solution = solver.solve(match)
        return solution.value.level, {action: value.level for action, value in solution.actions.items()}
    if kind == "results":
        results = solver.results(match)
        return results.margin, results.actions
    if kind == "value":
        return solver.value(match).level
    team = question[1]
    assert isinstance(team, int)
    if kind == "reaches":
        assert isinstance(question[2], int)
        return solver.reaches(match, team, question[2])
    if kind == "improves":
        assert isinstance(question[2], int)
        return solver.improves(match, team, question[2])
    assert kind == "claim" and isinstance(question[2], str)
    return solver.concedes_nothing(match.hand_state(), team, question[2])


def _reference(match: Match, question: Question) -> Answer:
    """The answer of plain minimax over the engine."""
    kind = question[0]
    objective = objective_for(match.rules, match.dealer)
    if kind in ("solve", "results", "value", "improves"):
        root, actions = reference_values(match)
        net = objective.values[root].net
        if kind == "solve":
            return root, actions
        if kind == "results":
            return net, {action: objective.values[level].net for action, level in actions.items()}
        if kind == "value":
            return root
        margin = question[2]
        assert isinstance(margin, int)
        return net > margin if question[1] == 0 else net < margin
    team = question[1]
    assert isinstance(team, int)
    other = 1 - team
    if kind == "reaches":
        tens = question[2]
        assert isinstance(tens, int)
        return reference_reaches(match, team, lambda result: result.tens[team] >= tens)
    state = match.hand_state()
    if question[2] == "tricks":
        tricks_held = state.tricks_won[other]
        return reference_reaches(match, team, lambda result: result.tricks_won[other] == tricks_held)
    tens_held = (state.captured[other] & TENS_MASK).bit_count()
    return reference_reaches(match, team, lambda result: result.tens[other] == tens_held)


def _mixed_small(rng: random.Random, per_case: int) -> Iterator[tuple[Match, int | None]]:
    """``per_case`` small positions of every case (with, for staged ones, the five-trick limit), interleaved."""
    streams = [small_positions(rules, rng, (3, 2, 2, 1) if rules.players == 4 else (2, 2, 1)) for rules in CASES]
    for _ in range(per_case):
        order = list(range(len(streams)))
        rng.shuffle(order)
        for index in order:
            yield next(streams[index])


@pytest.mark.parametrize(("keep_table", "table_bits"), [(False, 16), (True, 16), (True, 10)])
def test_one_solver_asked_mixed_questions_answers_as_minimax(keep_table: bool, table_bits: int) -> None:
    rng = random.Random(f"reuse-{keep_table}-{table_bits}")
    solver = Solver(table_bits=table_bits, keep_table=keep_table)
    asked = 0
    for match, limit in _mixed_small(rng, 25):
        saved = tricks.STAGED_TRICKS
        tricks.STAGED_TRICKS = saved if limit is None else limit
        try:
            for question in _questions(rng, match):
                assert _ask(solver, match, question) == _reference(match, question), (question, match.hand_state())
                asked += 1
        finally:
            tricks.STAGED_TRICKS = saved
    assert asked >= 25 * len(CASES) * 2


def test_one_kept_table_through_whole_hands_and_stopped_searches_answers_as_fresh_solvers() -> None:
    """Larger positions, a few from each hand in turn (where a kept table shares the most), with some questions
    stopped by a small node limit before the next are asked; the table is small enough to replace entries."""
    rng = random.Random("reuse-larger")
    solver = Solver(table_bits=12, keep_table=True)
    asked = stopped = 0
    for rules in itertools.islice(itertools.cycle(rng.sample(CASES, len(CASES))), 2 * len(CASES)):
        for match in natural_positions(rules, rng, (7, 6, 5, 4, 3)):
            assert match.phase is Phase.PLAY
            for question in _questions(rng, match):
                solver.node_limit = rng.choice((0, 0, 0, 100, 1000))
                try:
                    got = _ask(solver, match, question)
                except SolveLimitReached:
                    stopped += 1
                    continue
                assert got == _ask(Solver(table_bits=16), match, question), (question, match.hand_state())
                asked += 1
    assert asked >= 200 and stopped > 0
