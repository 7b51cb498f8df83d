"""Double-dummy analysis of a played record: each decision's value against the best one.

For every decision of every hand (a call, a hidden card, a reveal, a card),
the position before it is solved with every card known, and the decision's
value is compared with the best value the same seat could have kept.  A
decision *costs a ten* when the tens its team ends with under best play drop,
and *costs the hand* when the hand's result for its team gets worse (a win
becomes a draw or a loss, or a draw a loss).  Values are levels of the
solver's objective (``dehla.solver.objective``): the hand's result first, then
tens.

A position too big for a full value within the node limit is solved for the
hand's result only: the decision is then judged on whether it *costs the hand*
(``scope`` "result"), not on tens.  The played action's result is usually known
already: it is the result of the next decision's position, solved before this
one (below); one bound query (``Solver.improves``) then tells whether the
position offers better, and none is needed when nothing is better for the team.
Otherwise the analysis asks for the position's result and the played action's
alone (``Solver.results`` with that action).  Proving what every other action
would lose can take millions of nodes, so only a play that costs the hand has
the others searched, to name the best.
From trick 2 on that result search has a generous limit of its own, so every
decision there is answered; a position still too big (usually at trick 1) is
reported as not solved rather than guessed.

Such a decision gets an *estimate* instead (``estimates=True``, the default):
the learned value (``dehla.learn.value``) searches the true position to the end
of the trick in progress and values every way it can end.  An estimate is kept
apart from the exact answers everywhere: ``Decision.estimate`` (never ``value``,
``best_value``, ``levels_lost`` or ``hand_lost``), an ``estimate`` object with
``"exact": false`` in the JSON, and its own counts in the seat summaries, which
otherwise count exact findings only.  Rules the model does not cover (six or
eight players) or a missing model file simply give no estimates.

The decisions of a hand are solved from the last to the first with one table
kept through the hand (``Solver(keep_table=True)``): the later positions lie on
the line played from the earlier ones, so their entries cut the earlier searches.

A hand's analysis has a time budget (``hand_seconds``) for what it may leave
out: the tens of decisions from trick 2, and trick 1.  It runs in two passes,
each from the last decision to the first.  The first answers every decision
from trick 2, whatever it takes: its full value when that takes at most
``_VALUE_FLOOR`` nodes (most positions of the last tricks), else whether it
costs the hand.  The second spends what is left of the budget, counted from
the hand's start, on the full values the first pass did not reach, then on
trick 1: each such search's node limit is what the rest of the budget buys at
the rate the solver has run during this hand (during the second pass, once it
has run enough to tell: its positions are bigger and slower).  So the answers the analysis
must give never wait behind searches for tens, and a hand takes about the
larger of the two, not their sum.  A trick-1 decision the budget does not reach
is reported as not solved (with its estimate).
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from queue import Empty
from typing import Any

from dehla.analysis.findings import Decision, DecisionEstimate, HandAnalysis, RecordAnalysis, SeatSummary
from dehla.engine.actions import Action, Deal
from dehla.engine.events import Event
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.learn.value import LeafValues, default_model, model_leaves, result_scale, trick_values
from dehla.record import replay
from dehla.rules import RulesJSON
from dehla.solver.fast import Results, Solution, SolveLimitReached, Solver
from dehla.solver.objective import Value

__all__ = [
    "analyse_record",
    "DEFAULT_NODE_LIMIT",
    "RESULT_NODE_LIMIT",
    "HAND_SECONDS",
]

#: Search nodes allowed per position for its full value (about a second); bigger ones get their result only.
DEFAULT_NODE_LIMIT = 3_000_000
#: Search nodes allowed per position from trick 2 for the hand's result alone (trick 1 keeps ``node_limit``).
RESULT_NODE_LIMIT = 60_000_000
#: Seconds a hand's full values and trick 1 may take (see the module's docstring).  Under 10 s, because the replay,
#: the estimates and a search's last stretch past its node limit come on top.
HAND_SECONDS = 9.0
#: Nodes a second assumed until the hand has run enough nodes to measure the solver's rate.
_ASSUMED_RATE = 500_000
#: Nodes after which a hand's own rate is trusted over the assumed one.
_RATE_SAMPLE = 200_000
#: Nodes a full value may always take, budget or not: enough for most positions in the last tricks.
_VALUE_FLOOR = 10_000
#: The share of the hand's rate so far that the budgeted searches are counted on: the earliest positions' nodes run
#: slower (bigger positions, fewer table hits), and the last search must not run far past the budget.
_RATE_MARGIN = 0.8


def _result_rank(value: Value, team: int) -> int:
    """2 for a win, 1 for a hand nobody wins, 0 for a loss, from ``team``'s side."""
    return _margin_rank(value.for_team(team)[0])


def _margin_rank(margin: int) -> int:
    """``_result_rank`` from a points margin on the team's side (a winner always scores more than the other)."""
    return 2 if margin > 0 else 1 if margin == 0 else 0


def _trick_number(match: Match) -> int:
    return len(match.tricks) + 1


def analyse_record(
    record: object,
    solver: Solver | None = None,
    node_limit: int = DEFAULT_NODE_LIMIT,
    progress: Callable[[int, int], None] | None = None,
    hands: Collection[int] | None = None,
    result_node_limit: int = RESULT_NODE_LIMIT,
    estimates: bool = True,
    hand_seconds: float = HAND_SECONDS,
    workers: int = 1,
) -> RecordAnalysis:
    """Analyse every decision of a ``dehla-record/1`` record (raises ``RecordError`` for a bad record).

    ``progress(done, total)`` is called as decisions are analysed.  ``hands``
    (0-based numbers) limits the work to those hands, as the web replay does
    one hand at a time; the seat summaries then cover those hands only (a number
    the record has no hand for raises ``DehlaError``).
    ``estimates`` gives each decision the solver cannot answer the model's
    estimate (where the rules have a model).  ``hand_seconds`` is each hand's
    time budget for full values and for trick 1 (``math.inf``: node limits
    only; see the module's docstring).  ``workers`` above 1 analyses that many hands at once, each in a
    process of its own with its own solver (``solver`` is then not used) and its own time budget; the
    answers are the same as one process's where no budget cuts them.
    """
    if not hand_seconds >= 0:
        raise ValueError(f"hand_seconds must be 0 or more, not {hand_seconds!r}")
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers!r}")
    wanted = None if hands is None else frozenset(hands)
    positions: list[tuple[int, int, Match, Action]] = []
    before: list[Match] = []
    played: set[int] = set()

    def on_step(match: Match, hand: int, index: int | None, action: Action | Deal, events: tuple[Event, ...]) -> None:
        played.add(hand)
        if index is not None and not isinstance(action, Deal) and (wanted is None or hand in wanted):
            positions.append((hand, index, before[0], action))
        before[:] = [match.clone()]

    final = replay(record, on_step)
    if wanted is not None and not wanted <= played:
        missing = ", ".join(str(number) for number in sorted(wanted - played))
        held = f"hands 0 to {max(played)}" if played else "no hands"
        raise DehlaError(f"the record has {held}: no hand {missing}")
    rules_json = final.rules.to_json()
    numbers = sorted({hand for hand, _, _, _ in positions})
    settings = _Settings(node_limit, result_node_limit, estimates, hand_seconds)
    if workers > 1 and len(numbers) > 1:
        hands_done = _in_processes(record, numbers, len(positions), settings, workers, progress)
        seats = [SeatSummary(seat) for seat in range(final.players)]
        for one in hands_done:
            for judged_elsewhere in one.decisions:
                _count(seats[judged_elsewhere.seat], judged_elsewhere)
        return RecordAnalysis(rules_json, hands_done, seats)
    model = default_model() if estimates else None
    leaf_values = model_leaves(model) if model is not None and model.covers(final.rules) else None
    solver = solver if solver is not None else Solver()
    keep = solver.keep_table
    solver.keep_table = True
    decisions: list[Decision | None] = [None] * len(positions)
    done = 0
    try:
        for hand in numbers:
            solver.clear()  # one table through the hand (see the module's docstring)
            order = [number for number, position in enumerate(positions) if position[0] == hand]
            done = _judge_hand(solver, positions, order, decisions, settings, progress, done)
            for number in order:
                judged = decisions[number]
                assert judged is not None
                if leaf_values is not None and not judged.solved:
                    judged.estimate = _estimate(leaf_values, positions[number][2], positions[number][3], judged.team)
    finally:
        solver.keep_table = keep
    if progress is not None:
        progress(len(positions), len(positions))
    return _gathered(rules_json, final.players, positions, decisions)


def _gathered(
    rules_json: RulesJSON,
    players: int,
    positions: list[tuple[int, int, Match, Action]],
    decisions: list[Decision | None],
) -> RecordAnalysis:
    """The judged decisions (one for each of ``positions``) by hand, and each seat's summary of them."""
    seats = [SeatSummary(seat) for seat in range(players)]
    analysed: dict[int, HandAnalysis] = {}
    for (hand, _, match, _), decision in zip(positions, decisions):
        assert decision is not None
        analysis = analysed.get(hand)
        if analysis is None:
            analysis = analysed[hand] = HandAnalysis(hand, match.dealer, [], decision.best_value)
        analysis.decisions.append(decision)
        _count(seats[decision.seat], decision)
    return RecordAnalysis(rules_json, [analysed[key] for key in sorted(analysed)], seats)


def _judge_hand(
    solver: Solver,
    positions: list[tuple[int, int, Match, Action]],
    order: list[int],
    decisions: list[Decision | None],
    settings: _Settings,
    progress: Callable[[int, int], None] | None,
    done: int,
) -> int:
    """Judge one hand's decisions (``order``: their numbers in ``positions``) into ``decisions``, in the two passes
    of the module's docstring; ``done`` decisions of the record were judged before, and the count after is returned.
    """
    hand = positions[order[0]][0]
    margins: dict[int, int | None] = {}  # each decision's position's result, where known

    budget = _HandBudget(solver, settings.hand_seconds)
    # Pass 1, last decision first: every decision from trick 2 at least judged on the result.
    for number in reversed(order):
        _, index, match, action = positions[number]
        if _trick_number(match) < 2:
            continue
        if progress is not None:
            progress(done, len(positions))
        after = _after(positions, margins, number)
        value_limit = min(settings.node_limit, _VALUE_FLOOR)
        decisions[number], margins[number] = _decide(
            solver, hand, index, match, action, value_limit, settings.result_node_limit, None, after
        )
        done += 1
    # Pass 2, last decision first, on what is left of the budget: the tens of decisions judged on the
    # result alone, then trick 1.
    budget.mark()
    for number in reversed(order):
        _, index, match, action = positions[number]
        judged = decisions[number]
        if judged is not None:
            limit = min(settings.node_limit, budget.nodes_left())
            if judged.value is None and limit > min(settings.node_limit, _VALUE_FLOOR):  # more than pass 1 had
                solver.node_limit = int(limit)
                solution = _solve(solver, match)
                if solution is not None:
                    decisions[number] = _valued(judged, solution)
            continue
        if progress is not None:
            progress(done, len(positions))
        value_limit = int(min(settings.node_limit, max(budget.nodes_left(), _VALUE_FLOOR)))
        after = _after(positions, margins, number)
        judged, margins[number] = _decide(
            solver, hand, index, match, action, value_limit, settings.node_limit, budget, after
        )
        decisions[number] = judged
        done += 1
    return done


@dataclass(frozen=True)
class _Settings:
    """What each hand's analysis is asked, the same in every worker process."""

    node_limit: int
    result_node_limit: int
    estimates: bool
    hand_seconds: float


_worker_queue: Any = None  # in a worker process: where its progress goes (set by ``_worker_start``)


def _worker_start(queue: Any) -> None:
    global _worker_queue
    _worker_queue = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the workers


def _worker_hand(record: object, hand: int, settings: _Settings) -> HandAnalysis:
    """One hand's analysis in a worker process, its progress reported to the parent as ``(hand, done)``."""

    def report(done: int, total: int) -> None:
        _worker_queue.put((hand, done))

    analysis = analyse_record(
        record,
        None,
        settings.node_limit,
        report,
        {hand},
        settings.result_node_limit,
        settings.estimates,
        settings.hand_seconds,
    )
    return analysis.hands[0]


def _in_processes(
    record: object,
    numbers: list[int],
    total: int,
    settings: _Settings,
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> list[HandAnalysis]:
    """Hands ``numbers`` analysed by a pool of ``workers`` processes, in hand order; ``progress`` as one run's.

    A worker that dies (killed, out of memory) ends the analysis with a ``DehlaError`` rather than a wait for
    an answer that never comes; an interrupt stops the workers at once rather than after their hands.
    """
    # spawn, not fork: the caller may hold threads (an event loop, a progress bar) that a fork would copy mid-step
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        min(workers, len(numbers)), mp_context=context, initializer=_worker_start, initargs=(queue,)
    )
    done = dict.fromkeys(numbers, 0)
    try:
        running = {hand: pool.submit(_worker_hand, record, hand, settings) for hand in numbers}
        pending = set(running.values())
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                future.result()  # a worker's error, or a dead worker, is raised here, at once
            while True:
                try:
                    hand, count = queue.get_nowait()
                except Empty:
                    break
                done[hand] = max(done[hand], count)
            if progress is not None:
                progress(sum(done.values()), total)
        hands = [running[hand].result() for hand in numbers]
    except BrokenProcessPool:
        _stop(pool, others)
        raise DehlaError(
            "an analysis worker process stopped before its hand was done (killed, or out of "
            "memory?); try again, or with fewer workers"
        ) from None
    except BaseException:
        _stop(pool, others)
        raise
    pool.shutdown()
    if progress is not None:
        progress(total, total)
    return hands


def _stop(pool: ProcessPoolExecutor, others: set[multiprocessing.process.BaseProcess]) -> None:
    """Stop ``pool``'s workers now (the caller's other child processes, ``others``, are left alone)."""
    for child in multiprocessing.active_children():
        if child not in others:
            child.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


class _HandBudget:
    """What is left of a hand's time budget, in search nodes at the rate the solver has run in this hand.

    ``mark`` starts a new stretch of searches whose rate, once measured, counts instead of the hand's: the
    bigger positions of the second pass run slower than the first pass's small ones.
    """

    def __init__(self, solver: Solver, seconds: float) -> None:
        self.solver = solver
        self.seconds = seconds
        self.start = time.monotonic()
        self.start_nodes = solver.nodes
        self.mark_time = self.start
        self.mark_nodes = self.start_nodes

    def mark(self) -> None:
        self.mark_time = time.monotonic()
        self.mark_nodes = self.solver.nodes

    def nodes_left(self) -> float:
        now = time.monotonic()
        left = self.seconds - (now - self.start)
        if left <= 0:
            return 0.0
        if math.isinf(left):
            return math.inf
        rate = float(_ASSUMED_RATE)
        for since, nodes in ((self.start, self.start_nodes), (self.mark_time, self.mark_nodes)):
            done = self.solver.nodes - nodes
            if done >= _RATE_SAMPLE and now > since:
                rate = done / (now - since)  # the stretch since the mark, once measured, overrides the hand's
        return left * rate * _RATE_MARGIN


def _decide(
    solver: Solver,
    hand: int,
    index: int,
    match: Match,
    action: Action,
    value_limit: int,
    result_limit: int,
    budget: _HandBudget | None,
    after: int | None = None,
) -> tuple[Decision, int | None]:
    """One decision: its full value within ``value_limit`` nodes, else its result within ``result_limit`` nodes
    and, given a ``budget``, what is left of it once the value's search is over (none if nothing), and the
    position's result (team 0's points margin) where it is known.

    ``after`` is the result of the position the played action leads to, when the analysis knows it already.
    """
    seat = match.to_act
    assert seat is not None
    decision = Decision(hand, index, _trick_number(match), seat, action, solved=False)
    solver.node_limit = value_limit
    solution = _solve(solver, match)
    if solution is not None:
        _fill(decision, solution)
        return decision, solution.value.net
    solver.node_limit = result_limit if budget is None else int(min(result_limit, budget.nodes_left()))
    if solver.node_limit > 0:
        margin = _judge_result(solver, match, decision, after)
        if margin is not None:
            return decision, margin
    if len(match.legal_actions()) == 1:
        # A forced play keeps the value by definition, even where the position is too big to solve.
        decision.solved = True
        decision.forced = True
        decision.best = [action]
        return decision, after
    return decision, None


def _after(positions: list[tuple[int, int, Match, Action]], margins: dict[int, int | None], number: int) -> int | None:
    """The result of the position decision ``number``'s action leads to, if that is the next decision's (same
    hand, nothing between) and its result is known."""
    hand, _, match, action = positions[number]
    following = number + 1
    if following not in margins or positions[following][0] != hand:
        return None
    return margins[following] if _leads_to(match, action, positions[following][2]) else None


def _valued(judged: Decision, solution: Solution) -> Decision:
    """``judged`` (a decision judged on its result, or not at all) with its full value from ``solution``."""
    decision = Decision(judged.hand, judged.index, judged.trick, judged.seat, judged.action, solved=False)
    _fill(decision, solution)
    return decision


def _leads_to(match: Match, action: Action, later: Match) -> bool:
    """Is ``later`` the position ``action`` leads to from ``match`` (no deal or other decision between)?"""
    child = match.clone()
    child.apply(action)
    return child.phase is later.phase and child.hand_state() == later.hand_state()


def _estimate(leaf_values: LeafValues, match: Match, action: Action, team: int) -> DecisionEstimate | None:
    """The model's estimate of each legal action in the true position (every card known), or ``None``."""
    try:
        values = trick_values(match, team, leaf_values)
    except DehlaError:  # a position the trick search does not reach into: no estimate rather than a wrong one
        return None
    if action not in values:
        return None
    best_value = max(values.values())
    best = [other for other, value in values.items() if value >= best_value - 1e-9]
    return DecisionEstimate(values[action], best_value, best, result_scale(match.rules))


def _count(summary: SeatSummary, decision: Decision) -> None:
    summary.decisions += 1
    if not decision.solved:
        if decision.estimate is not None:
            summary.estimated += 1
            summary.estimated_hands_lost += int(decision.estimate.hand_lost)
        return
    summary.solved += 1
    if not decision.mistake:
        summary.best += 1
        return
    summary.mistakes += 1
    summary.tens_lost += decision.tens_lost
    summary.hands_lost += int(decision.hand_lost)


def _solve(solver: Solver, match: Match) -> Solution | None:
    try:
        return solver.solve(match)
    except SolveLimitReached:
        return None


def _results(solver: Solver, match: Match, actions: Collection[Action] | None = None) -> Results | None:
    try:
        return solver.results(match, actions)
    except SolveLimitReached:
        return None


def _judge_result(solver: Solver, match: Match, decision: Decision, after: int | None = None) -> int | None:
    """Judge ``decision`` on the hand's result alone and return the position's result (team 0's points margin);
    ``None`` if the search passed its node limit.

    The played action's result comes first (``after``, the result of the position it leads to, when the
    analysis has it already; else searched with the position's): most plays keep the result, and proving
    what every other action would lose costs most of a full search (millions of nodes where the played
    action's needs a few).  Knowing ``after``, one bound query settles whether the position offered a better
    result (none when the team wins there).  Only a play that costs the hand has the other actions
    searched, to name the best.  A result is a win, a hand nobody wins or a loss (``_result_rank``): a
    Taash win by 30 instead of 80 keeps the result and is a lost level, which only a full value shows.
    """
    team = decision.team
    if after is not None:
        mine = after if team == 0 else -after
        # the least margin, from team 0's side, past which the team's result would be better than ``mine``'s
        if mine > 0:
            better = False
        else:
            past = 0 if mine == 0 else (-1 if team == 0 else 1)
            try:
                better = solver.improves(match, team, past)
            except SolveLimitReached:
                return None
        if not better:
            _judged(decision, match, lost=False)
            return after
    played = _results(solver, match, [decision.action])
    if played is None:
        return None
    best = _margin_rank(played.margin if team == 0 else -played.margin)
    _judged(decision, match, lost=_margin_rank(played.for_team(decision.action, team)) < best)
    if decision.hand_lost:
        every = _results(solver, match)
        if every is not None:
            decision.best = [action for action in every.actions if _margin_rank(every.for_team(action, team)) == best]
    return played.margin


def _judged(decision: Decision, match: Match, lost: bool) -> None:
    """Mark ``decision`` judged on the result; ``best`` names the played action until a search names others."""
    decision.solved = True
    decision.scope = "result"
    decision.forced = len(match.legal_actions()) == 1
    decision.hand_lost = lost
    decision.best = [] if lost else [decision.action]  # a keeping play: the other actions are not searched


def _fill(decision: Decision, solution: Solution) -> None:
    team = decision.team
    value = solution.actions[decision.action]
    best_value = solution.value
    decision.solved = True
    decision.forced = len(solution.actions) == 1
    decision.value = value
    decision.best_value = best_value
    decision.best = solution.best
    decision.levels_lost = solution.loss(decision.action)
    decision.tens_lost = max(0, best_value.tens[team] - value.tens[team])
    decision.hand_lost = _result_rank(value, team) < _result_rank(best_value, team)
