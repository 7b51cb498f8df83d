"""Time of the hint's estimate (``estimate_action``) on full ``pagat`` deals: the call, first lead and first follow.

In each seeded deal the ``heuristic`` bot's action is estimated as ``hint`` does it (defaults: up to 8
sampled deals, 0.5 s of the clock).  Prints median, p95 and max time per kind, and the samples used;
then the whole hint at the first lead (``hard`` bot's move and the note with its estimate), as ``dehla play`` gives it.
Usage::

    python benchmarks/bench_hint_estimate.py [--deals 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from dehla.bots import make_bot
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import estimate_action
from dehla.engine.phase import Phase
from dehla.engine.state import Match
from dehla.learn.value import default_model
from dehla.solver.warm import warm_up
from dehla.terminal.words import hint_note

KINDS = ("call", "lead", "follow", "whole hint at the lead")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args()
    default_model()  # loaded once, as a long-running table would have it
    warm_up(wait=True)  # and the solver's kernel, as ``dehla play`` starts it
    hinter = make_bot("hard", 0)
    print(f"load average before: {os.getloadavg()}")
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    samples: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for seed in range(args.deals):
        rng = random.Random(seed)
        match = Match.new("pagat", rng)
        match.apply(match.random_deal(rng))
        heuristic = HeuristicBot(seed)
        for kind in KINDS[:3]:
            while kind == "lead" and match.phase is not Phase.PLAY:
                seat = match.to_act
                assert seat is not None
                match.apply(heuristic.act(match.observe(seat)))
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            action = heuristic.act(observation)
            start = time.perf_counter()
            estimate = estimate_action(observation, action)
            times[kind].append(time.perf_counter() - start)
            samples[kind].append(estimate.samples if estimate else 0)
            if kind == "lead":
                start = time.perf_counter()
                hinted = hinter.act(observation)
                _, note = hint_note(hinter, observation, hinted)
                times[KINDS[3]].append(time.perf_counter() - start)
                samples[KINDS[3]].append(int("~ estimate" in note))
            match.apply(action)
    for kind in KINDS:
        values = sorted(times[kind])
        p95 = values[max(0, int(0.95 * len(values)) - 1)]
        print(
            f"{kind}: n={len(values)} median {statistics.median(values):.2f} s, p95 {p95:.2f} s, "
            f"max {values[-1]:.2f} s; samples median {statistics.median(samples[kind])}"
            + (f" (hints with an estimate: {sum(samples[kind])})" if kind == KINDS[3] else "")
        )
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
