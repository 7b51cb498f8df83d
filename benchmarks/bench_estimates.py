"""Which estimate is nearer the truth on solved positions: playouts or the learned value?

Positions come from hands played by four ``heuristic`` bots, at the first decision of trick ``--tricks`` (each
listed trick), with more than one legal action.  The truth of the heuristic's action is the exact result of
the *true* deal (``Solver.results``: the hand's points margin for the seat's team, every card known); each
estimate sees only the seat's observation (``estimate_action``, the same seed): ``playout`` over exactly
``--worlds`` sampled deals (no clock), ``model`` as the hint would ask it (up to 64 deals, 5 s).  A position whose
truth is not found within ``--node-limit`` search nodes is left out (counted).

Reported per method and per trick group (the opening, tricks 1-3, and the rest): the share of positions where
the estimate is on the right side (a won hand above 0, a lost one below; Wilson 95% interval), the mean absolute
and squared errors (as shares of the rules' largest result; the squared one rewards the expected margin, which
both estimate, while the absolute one favours bold estimates of a won-or-lost truth), and the paired
differences of both, playout minus model (negative: playouts nearer).  The errors' 95% intervals come from a
bootstrap over *hands* (positions of one hand are not independent), 4,000 resamples, seeded.  Usage::

    python benchmarks/bench_estimates.py [--rules pagat] [--hands 60] [--tricks 1,2,3,4,5,6] [--seed 11]
        [--worlds 64] [--node-limit 5000000]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from dehla import Match
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import estimate_action
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.learn.value import result_scale
from dehla.solver import Solver
from dehla.solver.fast import SolveLimitReached

METHODS = ("playout", "model")
RESAMPLES = 4000
POSITIONS: list[Position] = []  # the solved positions so far (kept when a run is stopped)


@dataclass(frozen=True)
class Position:
    """One solved position: its hand, trick, the truth and each method's estimate (as shares of the scale)."""

    hand: int
    trick: int
    truth: float
    estimates: dict[str, float]

    def error(self, method: str) -> float:
        return abs(self.estimates[method] - self.truth)

    def squared(self, method: str) -> float:
        return (self.estimates[method] - self.truth) ** 2

    def paired(self, kind: str) -> float:
        """The playout's error less the model's (``kind`` "abs" or "squared")."""
        error = self.error if kind == "abs" else self.squared
        return error("playout") - error("model")

    def right(self, method: str) -> bool:
        return (self.estimates[method] > 0) == (self.truth > 0)


def wilson(hits: int, count: int) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``hits`` of ``count``."""
    if count == 0:
        return (math.nan, math.nan)
    z = 1.96
    share = hits / count
    centre = (share + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    return (centre - half, centre + half)


class OfHand(Protocol):
    """A measured position: it knows its hand, which is what the bootstrap resamples."""

    @property
    def hand(self) -> int: ...


Measured = TypeVar("Measured", bound=OfHand)


def bootstrap(positions: list[Measured], value: Callable[[Measured], float], seed: int) -> tuple[float, float, float]:
    """The mean of ``value(position)`` and its 95% interval by resampling whole hands (positions of one hand are
    not independent); ``bench_playout_regret.py`` uses it too."""
    by_hand: dict[int, list[float]] = {}
    for position in positions:
        by_hand.setdefault(position.hand, []).append(float(value(position)))
    sums = [(sum(values), len(values)) for values in by_hand.values()]
    mean = sum(total for total, _ in sums) / sum(count for _, count in sums)
    rng = random.Random(seed)
    means = []
    for _ in range(RESAMPLES):
        picked = [sums[rng.randrange(len(sums))] for _ in sums]
        means.append(sum(total for total, _ in picked) / sum(count for _, count in picked))
    means.sort()
    return (mean, means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1])


def report(rules: str, label: str, positions: list[Position], seed: int) -> None:
    if not positions:
        print(f"{rules} {label}: no positions")
        return
    count = len(positions)
    hands = len({position.hand for position in positions})
    print(f"{rules} {label}: {count} positions from {hands} hands")
    for method in METHODS:
        hits = sum(position.right(method) for position in positions)
        low, high = wilson(hits, count)
        mean, error_low, error_high = bootstrap(positions, lambda position, method=method: position.error(method), seed)
        squared = bootstrap(positions, lambda position, method=method: position.squared(method), seed)
        print(
            f"  {method:8} right side {hits}/{count} {100 * hits / count:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
            f"  mean abs error {mean:.3f} [{error_low:.3f}, {error_high:.3f}]"
            f"  mean squared error {squared[0]:.3f} [{squared[1]:.3f}, {squared[2]:.3f}]"
        )
    for kind in ("abs", "squared"):
        mean, low, high = bootstrap(positions, lambda position, kind=kind: position.paired(kind), seed)
        print(f"  paired {kind} error difference playout - model {mean:+.3f} [{low:+.3f}, {high:+.3f}]")


def estimated(observation: Observation, action: Action, seed: int, worlds: int) -> dict[str, float]:
    """Each method's estimate of ``action``, as a share of the rules' largest result."""
    estimates: dict[str, float] = {}
    for method in METHODS:
        samples, seconds = (worlds, math.inf) if method == "playout" else (64, 5.0)
        estimate = estimate_action(observation, action, seed, samples, seconds, method)
        assert estimate is not None
        estimates[method] = estimate.margin / estimate.scale
    return estimates


def play_hand(rules: str, hand: int, rng: random.Random, solver: Solver, tricks: set[int], worlds: int) -> int:
    """Play one hand, printing (stderr) and keeping its solved positions in ``POSITIONS``; how many were not solved."""
    match = Match.new(rules, rng)
    match.apply(match.random_deal(rng))
    scale = result_scale(match.rules)
    bots = [HeuristicBot(hand * 10 + seat) for seat in range(match.rules.players)]
    skipped = 0
    while not match.results:
        seat = match.to_act
        assert seat is not None
        observation = match.observe(seat)
        action = bots[seat].act(observation)
        trick = len(match.tricks) + 1
        if trick in tricks and not observation.trick and len(observation.legal_actions) > 1:
            solve_start = time.process_time()
            try:
                truth = solver.results(match, [action]).for_team(action, seat % 2)
            except SolveLimitReached:
                skipped += 1
                print(f"hand {hand} trick {trick}: over the node limit", file=sys.stderr)
            else:
                solve_time = time.process_time() - solve_start
                estimates = estimated(observation, action, hand, worlds)
                POSITIONS.append(Position(hand, trick, truth / scale, estimates))
                print(
                    f"hand {hand} trick {trick}: truth {truth:+d} ({solve_time:.1f} s)  "
                    + "  ".join(f"{method} {value * scale:+.1f}" for method, value in estimates.items()),
                    file=sys.stderr,
                )
        match.apply(action)
    return skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--tricks", default="2,3,4,5,6")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--node-limit", type=int, default=200_000_000)
    args = parser.parse_args(argv)
    tricks = {int(text) for text in args.tricks.split(",")}
    rng = random.Random(args.seed)
    solver = Solver(table_bits=20)
    solver.node_limit = args.node_limit
    skipped = hands = 0
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    started = time.process_time()
    # A stop (Ctrl-C, or SIGTERM) still reports the hands done, whole ones only.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for hand in range(args.hands):
            kept = len(POSITIONS)
            try:
                skipped += play_hand(args.rules, hand, rng, solver, tricks, args.worlds)
            except KeyboardInterrupt:
                del POSITIONS[kept:]
                raise
            hands += 1
    except KeyboardInterrupt:
        print(f"stopped after {hands} hands", file=sys.stderr)
    print(f"load average after: {os.getloadavg()}; CPU {time.process_time() - started:.0f} s", file=sys.stderr)
    print(
        f"{args.rules}: seed {args.seed}, {hands} hands, tricks {args.tricks}, {args.worlds} playout worlds; "
        f"{skipped} positions over the node limit ({args.node_limit:,} nodes)"
    )
    report(args.rules, "all tricks", POSITIONS, args.seed)
    report(args.rules, "tricks 1-3", [position for position in POSITIONS if position.trick <= 3], args.seed)
    report(args.rules, "tricks 4+", [position for position in POSITIONS if position.trick > 3], args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
