"""The solver's objective, bound queries, limits and errors (exactness itself: test_solver_exact.py)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from tests.test_solver_positions import natural_positions, small_positions

from dehla.engine.actions import Play
from dehla.engine.events import HandResult
from dehla.engine.scoring import Outcome
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.rules import PRESETS, parse_rules
from dehla.solver import Solver, objective_for, reference_values
from dehla.solver.fast import SolveLimitReached, kernel_load_seconds
from dehla.solver.reference import reference_reaches


def test_pagat_levels_are_the_tens_of_team_0() -> None:
    objective = objective_for(PRESETS["pagat"], dealer=1)  # dealer on team 1: 2-2 goes to team 0
    assert objective.relative and not objective.uses_tricks
    assert [value.tens for value in objective.values] == [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)]
    assert [value.winner for value in objective.values] == [1, 1, 0, 0, 0]
    dealer_0 = objective_for(PRESETS["pagat"], dealer=0)
    assert dealer_0.values[2].winner == 1  # the non-dealing team wins 2-2


def test_mendikot_ranks_the_result_before_tens() -> None:
    objective = objective_for(PRESETS["mendikot"], dealer=0)
    assert objective.relative and objective.uses_tricks
    ranked = [(value.winner, value.tens) for value in objective.values]
    assert ranked == [(1, (0, 4)), (1, (1, 3)), (1, (2, 2)), (0, (2, 2)), (0, (3, 1)), (0, (4, 0))]
    # 2-2 is decided by tricks: 7 tricks wins.
    level = objective.final_level[2][2][7][6]
    assert objective.values[level].winner == 0
    assert objective.values[objective.final_level[2][2][6][7]].winner == 1


def test_taash_points_order_and_trick_minimum_needs_absolute_mode() -> None:
    taash = objective_for(PRESETS["taash"], dealer=0)
    assert [value.net for value in taash.values] == [-80, -30, -20, 20, 30, 80]
    strict = objective_for(parse_rules({"preset": "taash", "trick_minimum": True}), dealer=0)
    assert not strict.relative  # 3 tens without 7 tricks scores nothing: the level is not monotone in s
    assert objective_for(PRESETS["taash"], 0).level(Outcome(0, (30, 0)), (3, 1)) == 4


def _tens_at_least(team: int, tens: int) -> Callable[[HandResult], bool]:
    """The reference's question of ``Solver.reaches``: does ``team`` end with at least ``tens`` tens?"""
    return lambda result: result.tens[team] >= tens


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot-band", "mendikot-6"])
def test_bound_query_matches_minimax(preset: str) -> None:
    solver = Solver(table_bits=14)
    rng = random.Random(preset)
    for match, limit in itertools.islice(small_positions(preset, rng, (2, 1)), 300):
        if limit is not None:
            continue
        for team, tens in ((0, 1), (0, 2), (1, 2), (1, 3)):
            assert solver.reaches(match, team, tens) == reference_reaches(match, team, _tens_at_least(team, tens))


def test_bound_query_in_absolute_mode() -> None:
    rules = parse_rules({"preset": "taash", "trick_minimum": True})
    solver = Solver(table_bits=14)
    rng = random.Random(5)
    for match, limit in itertools.islice(small_positions(rules, rng, (2, 1)), 200):
        if limit is not None:
            continue
        for team, tens in ((0, 1), (1, 2)):
            assert solver.reaches(match, team, tens) == reference_reaches(match, team, _tens_at_least(team, tens))


def test_solution_lists_best_actions_and_losses() -> None:
    solver = Solver(table_bits=14)
    rng = random.Random(9)
    for match, _ in itertools.islice(small_positions("mendikot", rng, (2,)), 50):
        solution = solver.solve(match)
        level, actions = reference_values(match)
        assert solution.value.level == level
        assert solution.best == [action for action, value in actions.items() if value == level]
        for action in actions:
            assert solution.loss(action) >= 0
            assert (solution.loss(action) == 0) == (action in solution.best)


def test_node_limit_stops_a_big_solve() -> None:
    match = Match.new("mendikot", random.Random(2))
    match.apply(match.random_deal(random.Random(3)))
    solver = Solver(table_bits=14, node_limit=500)
    with pytest.raises(SolveLimitReached):
        solver.solve(match)
    solver.node_limit = 0
    small = next(iter(small_positions("mendikot", random.Random(4), (2,))))[0]
    assert solver.solve(small).value.level >= 0  # the solver still works after an aborted solve


@pytest.mark.parametrize("preset", ["pagat", "mendikot", "taash", "mendikot-band"])
def test_larger_positions_agree_with_and_without_shared_bounds(preset: str) -> None:
    # Too big for minimax: check that what one position's search stores (entries that cover every position
    # differing only in low cards, fail-soft bounds) never changes another's values, against a fresh solver
    # per position that stores exact positions only.  (Before equivalent-card groups counted as relevant,
    # this found wrong values in mendikot and band hukum.)
    shared = Solver(table_bits=16)
    rng = random.Random(f"larger-{preset}")
    checked = 0
    for _ in range(8):
        for match in natural_positions(preset, rng, (8, 6, 5, 4)):
            plain = Solver(table_bits=14)
            plain.partition = False
            got = shared.solve(match)
            want = plain.solve(match)
            assert got.value == want.value
            assert got.actions == want.actions
            checked += 1
    assert checked >= 24


@pytest.mark.parametrize("preset", ["pagat", "pagat+no-reset"])
def test_three_card_pagat_positions_match_minimax(preset: str) -> None:
    # Three cards a seat is where the centre bounds fire most: sure runs that collect the centre with the tens
    # their tricks hold, and the top trump that keeps the last trick two tricks from the end.
    rules = parse_rules({"preset": "pagat", "streak_resets": preset == "pagat"})
    solver = Solver(table_bits=16)
    rng = random.Random(f"three-{preset}")
    for match, _ in itertools.islice(small_positions(rules, rng, (3,)), 150):
        expected, actions = reference_values(match)
        solution = solver.solve(match)
        assert solution.value.level == expected
        assert {action: value.level for action, value in solution.actions.items()} == actions


@pytest.mark.parametrize("preset", [*PRESETS, "taash+trick_minimum"])
def test_results_are_the_hands_result_of_every_action(preset: str) -> None:
    # ``results`` tells apart only the results (who wins, by how many points): against minimax on small positions
    # (trump still to cut, or hidden, where the preset has it), and against a full solve on larger ones.
    rules = parse_rules({"preset": "taash", "trick_minimum": True}) if preset == "taash+trick_minimum" else preset
    rng = random.Random(f"results-{preset}")
    solver = Solver(table_bits=16)
    for match, limit in itertools.islice(small_positions(rules, rng, (2, 1)), 40):
        if limit is not None:
            continue
        objective = objective_for(match.rules, match.dealer)
        level, actions = reference_values(match)
        results = solver.results(match)
        assert results.margin == objective.values[level].net
        assert results.actions == {action: objective.values[found].net for action, found in actions.items()}
    for _ in range(2):
        for match in natural_positions(rules, rng, (6, 4)):
            solution = Solver(table_bits=14).solve(match)
            results = solver.results(match)
            assert results.margin == solution.value.net
            assert results.actions == {action: value.net for action, value in solution.actions.items()}
            team = results.team
            for action, value in solution.actions.items():
                assert results.for_team(action, team) == value.for_team(team)[0]


@pytest.mark.parametrize("preset", ["pagat", "mendikot-band", "taash"])
def test_results_of_chosen_actions_are_those_of_a_full_results_solve(preset: str) -> None:
    # Asking for a few actions gives exactly their results (and the position's), for every subset asked,
    # including a single card that stands for a group of equivalent cards, and the reveal where there is one.
    rng = random.Random(f"chosen-{preset}")
    checked = 0
    for _ in range(3):
        for match in natural_positions(preset, rng, (6, 4)):
            everything = Solver(table_bits=16).results(match)
            legal = list(match.legal_actions())
            for size in (1, 2, 3):
                chosen = rng.sample(legal, min(size, len(legal)))
                part = Solver(table_bits=16).results(match, chosen)
                assert part.margin == everything.margin
                assert part.actions == {action: everything.actions[action] for action in chosen}
                checked += 1
    assert checked >= 18
    match = next(iter(natural_positions("pagat", rng, (7,))))
    seat = match.to_act
    assert seat is not None
    elsewhere = next(card for card in range(52) if card not in match.hand_of(seat))
    with pytest.raises(DehlaError, match="not legal in this position"):
        Solver(table_bits=14).results(match, [Play(elsewhere)])


@pytest.mark.parametrize("preset", [*PRESETS, "taash+trick_minimum"])
def test_winner_only_results_are_who_wins_of_the_results(preset: str) -> None:
    # ``winner_only`` tells apart only who wins: each margin is the sign of the full result's, from the small
    # positions (trump still to cut or hidden) to larger ones (the call: test_call_position_is_the_best_of_the_calls).
    rules = parse_rules({"preset": "taash", "trick_minimum": True}) if preset == "taash+trick_minimum" else preset
    rng = random.Random(f"winner-{preset}")
    solver = Solver(table_bits=16)

    def sign(net: int) -> int:
        return (net > 0) - (net < 0)

    positions = [match for match, limit in itertools.islice(small_positions(rules, rng, (2, 1)), 30) if limit is None]
    positions += list(natural_positions(rules, rng, (6, 4)))
    checked = 0
    for match in positions:
        results = solver.results(match)
        winners = solver.results(match, winner_only=True)
        assert winners.margin == sign(results.margin)
        assert winners.actions == {action: sign(net) for action, net in results.actions.items()}
        checked += 1
    assert checked >= 10


def test_winner_only_results_cost_fewer_nodes_where_results_have_points() -> None:
    # Taash scores 20, 30 or 80: who wins is one question where the points are three.
    rng = random.Random(23)
    points = winner = 0
    for _ in range(4):
        for match in natural_positions("taash", rng, (7, 5)):
            points += Solver(table_bits=18).results(match).nodes
            winner += Solver(table_bits=18).results(match, winner_only=True).nodes
    assert winner < points


def test_results_of_the_heuristics_best_cards_cost_fewer_nodes() -> None:
    # Early in a pagat hand most of the nodes go to the actions' results: three of them cost less than all.
    from dehla.bots.heuristic import HeuristicBot

    rng = random.Random(22)
    ranker = HeuristicBot(0)
    every = few = 0
    for _ in range(4):
        for match in natural_positions("pagat", rng, (8,)):
            seat = match.to_act
            assert seat is not None
            every += Solver(table_bits=18).results(match).nodes
            few += Solver(table_bits=18).results(match, ranker.ranked(match.observe(seat))[:3]).nodes
    assert few < every


def test_results_cost_fewer_nodes_than_a_full_solve() -> None:
    # Pagat's result has two values (a win or a loss) where the full value has five (the tens): fewer questions.
    rng = random.Random(21)
    full = cheap = 0
    for _ in range(6):
        for match in natural_positions("pagat", rng, (7,)):
            full += Solver(table_bits=18).solve(match).nodes
            cheap += Solver(table_bits=18).results(match).nodes
    assert cheap < full


def test_solver_refuses_positions_without_a_hand() -> None:
    match = Match("pagat", 0)
    with pytest.raises(DehlaError, match="no hand in play"):
        Solver(table_bits=10).solve(match)
    with pytest.raises(DehlaError):
        Solver(table_bits=5)


def test_call_position_is_the_best_of_the_calls() -> None:
    # Eight players, six cards each, trump called from the first five: small enough to solve every call.
    rules = parse_rules(
        {
            "preset": "mendikot-8",
            "trump": "called",
            "collection": "centre",
            "scoring": "pagat",
            "streak_kot": 7,
            "target": 1,
        }
    )
    match = Match(rules, 0)
    match.apply(match.random_deal(random.Random(11)))
    assert match.phase is Phase.CALL
    solver = Solver(table_bits=18)
    solution = solver.solve(match)
    levels = []
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        levels.append(solver.value(child).level)
        assert solution.actions[action].level == levels[-1]
    caller_team = match.to_act % 2  # type: ignore[operator]
    assert solution.value.level == (max(levels) if caller_team == 0 else min(levels))
    results = solver.results(match)
    assert results.margin == solution.value.net
    assert results.actions == {action: value.net for action, value in solution.actions.items()}
    winners = solver.results(match, winner_only=True)  # Pagat's scoring: a win or a loss, so the same margins
    assert (winners.margin, winners.actions) == (results.margin, results.actions)


def test_kernel_loads() -> None:
    assert kernel_load_seconds() >= 0.0


def test_the_kernel_is_ready_without_warm_up_and_the_marker_names_the_source() -> None:
    """A process that never called ``warm_up`` compiles on first use, as a library should (no background race)."""
    from dehla.solver import kernel_ready
    from dehla.solver.warm import marker_path

    assert kernel_ready()
    assert marker_path().name.startswith("dehla-kernel-") and marker_path().suffix == ".ready"


def test_keep_table_shares_entries_between_calls_and_clear_forgets_them() -> None:
    rng = random.Random(11)
    match = next(natural_positions("pagat", rng, (5,)))
    fresh = Solver(table_bits=16)
    fresh.solve(match)
    anew = fresh.solve(match).nodes  # a new generation per call: the work again (with the killer moves learnt)
    kept = Solver(table_bits=16, keep_table=True)
    kept.solve(match)
    again = kept.solve(match)
    assert again.nodes * 4 < anew and again.value == fresh.solve(match).value
    kept.clear()
    assert kept.solve(match).nodes == anew


@pytest.mark.parametrize("preset", ["pagat", "taash", "taash-b2b", "mendikot", "mendikot-band", "mendikot-6"])
def test_improves_answers_whether_the_position_offers_a_better_result_than_a_margin(preset: str) -> None:
    """``improves(match, team, margin)`` (one bound query) against the position's exact result, for every result
    the rules can give and the margins between them, from each team's side."""
    rng = random.Random(5)
    solver = Solver(table_bits=16)
    nets = sorted({value.net for value in objective_for(parse_rules(preset), 0).values})
    margins = sorted({*nets, *(net + 1 for net in nets), nets[0] - 1})
    for _ in range(6):
        for match in natural_positions(preset, rng, (4, 2)):
            root = solver.results(match).margin
            for margin in margins:
                assert solver.improves(match, 0, margin) == (root > margin)
                assert solver.improves(match, 1, margin) == (root < margin)
    with pytest.raises(DehlaError, match="team must be 0 or 1"):
        solver.improves(match, 2, 0)


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot-band", "mendikot-6"])
def test_a_hand_state_is_solved_as_its_match(preset: str) -> None:
    """``Solver`` takes a position: a ``HandState`` in play gets the answers its ``Match`` gets."""
    solver = Solver(table_bits=14)
    rng = random.Random(f"state-{preset}")
    for match, limit in itertools.islice(small_positions(preset, rng, (2, 1)), 40):
        if limit is not None or match.phase is not Phase.PLAY:
            continue
        state = match.hand_state()
        by_match = solver.solve(match)
        by_state = solver.solve(state)
        assert by_state.value == by_match.value and by_state.seat == by_match.seat
        assert by_state.actions == by_match.actions
        assert solver.value(state) == by_match.value and solver.level(state) == by_match.value.level
        assert solver.results(state).actions == solver.results(match).actions
        team = state.to_act % 2  # type: ignore[operator]
        assert solver.reaches(state, team, 1) == solver.reaches(match, team, 1)
        assert solver.improves(state, team, 0) == solver.improves(match, team, 0)
    done = Match("pagat", 0)
    with pytest.raises(DehlaError, match="no hand in play"):
        solver.solve(done.hand_state())
