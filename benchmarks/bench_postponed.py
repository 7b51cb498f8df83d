"""Experiment (issue 37): how often does postponing PIMC's solve to the seat's next decision change a move?

``hard`` (seat 0) plays hands against ``heuristic`` seats; at each of its solved decisions the choice from the
worlds' values as today (PIMC: the seat's next move chosen in each world apart) is compared with the choice when
the worlds the seat cannot tell apart at its next decision share that move (``search._postponed``).  The others'
plays up to it are chosen as ``DEHLA_EXP_INTERIM`` says (``minimax``, ``policy-opp``, ``policy-all``);
``DEHLA_EXP_GROUP=0`` keeps every world apart.  Usage::

    DEHLA_EXP_INTERIM=minimax python benchmarks/bench_postponed.py --rules pagat --hands 30 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time

import dehla.bots.search as search
from dehla.bots.heuristic import HeuristicBot
from dehla.engine.state import Match, Phase
from dehla.solver.warm import kernel_ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts = {"decisions": 0, "changed": 0, "shared": 0, "split": 0}
    original = search._postponed

    def watched(solved: search.Samples, branches: list) -> search.Samples:  # type: ignore[type-arg]
        postponed = original(solved, branches)
        before = max(solved.actions, key=lambda action: round(solved.mean(action), 9))
        after = max(postponed.actions, key=lambda action: round(postponed.mean(action), 9))
        counts["decisions"] += 1
        counts["changed"] += before != after
        groups: dict[object, list[dict]] = {}  # type: ignore[type-arg]
        for branch in branches:
            for action, found in branch.items():
                if found is not None:
                    groups.setdefault((action, found[0]), []).append(found[1])
        shared = [values for values in groups.values() if len(values) > 1]
        counts["shared"] += bool(shared)
        # a shared information set whose worlds disagree on the best next move: where PIMC fuses strategies
        counts["split"] += any(len({max(v, key=v.__getitem__) for v in values}) > 1 for values in shared)
        return postponed

    search._postponed = watched  # type: ignore[assignment]
    while not kernel_ready():
        time.sleep(1)
    bot = search.SearchBot(seed=args.seed)
    others = HeuristicBot(args.seed + 1)
    for hand in range(args.hands):
        match = Match.new(args.rules, args.seed * 1000 + hand)
        match.apply(match.random_deal(random.Random(args.seed * 1000 + hand)))
        while match.phase is not Phase.DEAL and not match.is_over:
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            match.apply(bot.act(observation) if seat == 0 else others.act(observation))
    n = max(counts["decisions"], 1)
    print(
        f"{args.rules}, {args.hands} hands: {counts['decisions']} solved decisions; the move changed in "
        f"{counts['changed']} ({counts['changed'] / n:.1%}); worlds shared an information set at the next "
        f"decision in {counts['shared']} ({counts['shared'] / n:.1%}), disagreeing on its best move in "
        f"{counts['split']} ({counts['split'] / n:.1%})"
    )


if __name__ == "__main__":
    main()
