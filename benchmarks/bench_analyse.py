"""Whole-hand analysis (``dehla analyse``) of ``pagat`` hands played by the ``heuristic`` bot: time and coverage.

Each hand is played out by four ``heuristic`` bots from a seeded deal, recorded,
and analysed as ``dehla analyse`` does (``analyse_record`` with its default
limits).  Reports per hand the wall time, how many decisions got a full value,
only a result, or nothing (per trick: trick 1 apart), and the median; and how many
decisions got the learned value's estimate instead, with the time those took
(``--no-estimates`` analyses without them).  ``--hand-seconds`` is the
analysis's time budget of a hand for full values and trick 1 (``inf``: node
limits only).  Usage::

    python benchmarks/bench_analyse.py [--hands 5] [--seed 1] [--rules pagat] [--nodes N] [--result-nodes N]
        [--hand-seconds S] [--no-estimates]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from dehla.analysis import record as analysis_module
from dehla.analysis.record import DEFAULT_NODE_LIMIT, HAND_SECONDS, RESULT_NODE_LIMIT, analyse_record
from dehla.bots.heuristic import HeuristicBot
from dehla.engine.state import Match
from dehla.record import to_record
from dehla.solver.fast import Solver

#: Issue 18's target for a whole hand's analysis on this project's machine.
TARGET_SECONDS = 10.0


def hand_record(rules: str, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    bots = [HeuristicBot(seed * 10 + seat) for seat in range(match.players)]
    match.apply(match.random_deal(rng))
    while not match.is_chance and not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].act(match.observe(seat)))
    return to_record(match)


def _counts(decisions: list) -> tuple[int, int, int]:  # type: ignore[type-arg]
    """Decisions with their full value, with their result only, and not solved."""
    full = sum(1 for d in decisions if d.solved and d.scope == "value")
    result = sum(1 for d in decisions if d.solved and d.scope == "result")
    return full, result, len(decisions) - full - result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_LIMIT)
    parser.add_argument("--result-nodes", type=int, default=RESULT_NODE_LIMIT)
    parser.add_argument("--hand-seconds", type=float, default=HAND_SECONDS)
    parser.add_argument("--no-estimates", dest="estimates", action="store_false")
    args = parser.parse_args()
    estimating = [0.0]  # seconds spent on the model's estimates
    estimate = analysis_module._estimate

    def timed_estimate(*given: object) -> object:
        start = time.perf_counter()
        try:
            return estimate(*given)  # type: ignore[arg-type]
        finally:
            estimating[0] += time.perf_counter() - start

    analysis_module._estimate = timed_estimate  # type: ignore[assignment]
    print(f"load average before: {os.getloadavg()}")
    solver = Solver()
    times = []
    estimate_times: list[float] = []
    totals = {"trick 1": [0, 0, 0], "from trick 2": [0, 0, 0]}  # value, result only, not solved
    for number in range(args.hands):
        record = hand_record(args.rules, args.seed + number)
        start = time.perf_counter()
        estimating[0] = 0.0
        analysis = analyse_record(
            record,
            solver,
            args.nodes,
            result_node_limit=args.result_nodes,
            estimates=args.estimates,
            hand_seconds=args.hand_seconds,
        )
        times.append(time.perf_counter() - start)
        estimate_times.append(estimating[0])
        decisions = [decision for hand in analysis.hands for decision in hand.decisions]
        first = [decision for decision in decisions if decision.trick == 1]
        later = [decision for decision in decisions if decision.trick > 1]

        lines = []
        for name, group in (("trick 1", first), ("from trick 2", later)):
            counts = _counts(group)
            totals[name] = [total + count for total, count in zip(totals[name], counts)]
            lines.append(f"{name}: {_tally(counts)}")
        estimated = sum(1 for d in decisions if d.estimate is not None)
        print(
            f"hand {number}: {times[-1]:.1f} s, {len(decisions)} decisions; {'; '.join(lines)}; "
            f"{estimated} estimated in {estimate_times[-1]:.2f} s",
            flush=True,
        )
    over = sum(1 for seconds in times if seconds > args.hand_seconds)
    over_target = sum(1 for seconds in times if seconds > TARGET_SECONDS)
    for name, counts in totals.items():
        print(f"{name} in all: {_tally(counts)}")
    print(
        f"hands over {args.hand_seconds:g} s (the budget): {over} of {len(times)}; "
        f"over {TARGET_SECONDS:g} s (issue 18's target): {over_target}"
    )
    print(
        f"median {statistics.median(times):.1f} s, max {max(times):.1f} s; estimates {sum(estimate_times):.2f} s "
        f"in all; load average after: {os.getloadavg()}"
    )
    return 0


def _tally(counts: tuple[int, int, int] | list[int]) -> str:
    """``N value, N result only, N not solved``."""
    full, result, unsolved = counts
    return f"{full} value, {result} result only, {unsolved} not solved"


if __name__ == "__main__":
    raise SystemExit(main())
