"""Which estimate is nearer the truth on solved positions: playouts or the learned value?

Positions come from hands played by four ``heuristic`` bots, at the first decision of trick ``--tricks`` (each
listed trick), with more than one legal action.  The truth of the heuristic's action is the exact result of
the *true* deal (``Solver.results``: the hand's points margin for the seat's team, every card known); each
estimate sees only the seat's observation (``estimate_action``, ``method="playout"`` or ``"model"``, the same
seed).  Reported per method: the share of positions where the estimate is on the right side (a won hand above
0, a lost one below), and the mean absolute error, as a share of the rules' largest result.  Usage::

    python benchmarks/bench_estimates.py [--rules pagat] [--hands 40] [--tricks 4,5,6] [--seed 3]
"""

from __future__ import annotations

import argparse
import random
import sys

from dehla import Match
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import estimate_action
from dehla.solver import Solver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--tricks", default="4,5,6")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    tricks = {int(text) for text in args.tricks.split(",")}
    rng = random.Random(args.seed)
    solver = Solver(table_bits=20)
    right = {"playout": 0, "model": 0}
    error = {"playout": 0.0, "model": 0.0}
    count = 0
    for hand in range(args.hands):
        match = Match.new(args.rules, rng)
        match.apply(match.random_deal(rng))
        bots = [HeuristicBot(hand * 10 + seat) for seat in range(match.rules.players)]
        while not match.results:
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            action = bots[seat].act(observation)
            if len(match.tricks) + 1 in tricks and not observation.trick and len(observation.legal_actions) > 1:
                tricks_seen = len(match.tricks) + 1
                truth = solver.results(match).for_team(action, seat % 2)
                for method in right:
                    estimate = estimate_action(observation, action, seed=hand, seconds=5.0, method=method)
                    assert estimate is not None
                    right[method] += (estimate.margin > 0) == (truth > 0)
                    error[method] += abs(estimate.margin - truth) / estimate.scale
                count += 1
                print(f"hand {hand} trick {tricks_seen}: truth {truth:+d}", file=sys.stderr)
            match.apply(action)
    for method in right:
        print(
            f"{args.rules} {method}: right side {right[method]}/{count} ({100 * right[method] / count:.1f}%), "
            f"mean abs error {error[method] / count:.3f} of the largest result"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
