"""Arena throughput: hands per second with one worker and with two, in the same run, and the speed-up.

Target (issue 3): two workers at least 1.8x one worker on a 2-core machine.
Both runs play the same work (the results are checked to be identical) and
the timing includes starting the worker processes.  Usage::

    python benchmarks/bench_arena.py [--rules pagat] [--bots random,random] [--deals 3000] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from dehla.arena import ArenaConfig, run_arena
from dehla.arena.report import jsonable
from dehla.rules import parse_rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--bots", default="random,random")
    parser.add_argument("--deals", type=int, default=3000, help="duplicate deals (two hands each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    config = ArenaConfig(rules=parse_rules(args.rules), bots=tuple(args.bots.split(",")), seed=args.seed,
                         deals=args.deals)
    figures: dict[str, float] = {}
    reports = []
    for workers in (1, 2):
        run = run_arena(config, workers=workers)
        figures[f"hands_per_second_{workers}"] = run.report["run"]["hands_per_second"]
        figures[f"seconds_{workers}"] = run.report["run"]["seconds"]
        reports.append({key: value for key, value in jsonable(run.report).items() if key != "run"})
    if reports[0] != reports[1]:
        print("results differ between 1 and 2 workers", file=sys.stderr)
        return 1
    speedup = figures["hands_per_second_2"] / figures["hands_per_second_1"]
    figures["speedup"] = round(speedup, 2)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"arena {args.rules}, {args.bots}, {args.deals} duplicate deals ({2 * args.deals} hands), "
              f"{os.cpu_count()} CPUs")
        for workers in (1, 2):
            print(f"  {workers} worker{'s' if workers > 1 else ''}: {figures[f'hands_per_second_{workers}']:8.1f} "
                  f"hands/s ({figures[f'seconds_{workers}']:.2f} s)")
        verdict = "meets" if speedup >= 1.8 else "misses"
        print(f"  speed-up: {speedup:.2f}x ({verdict} the 1.8x target); identical results: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
