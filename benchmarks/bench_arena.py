"""Arena throughput: hands per second with one worker and with two, in the same run, and the speed-up.

Target (issue 3): two workers at least 1.8x one worker on a 2-core machine.
Both runs play the same work (the results are checked to be identical) and
the timing includes starting the worker processes.

On a shared machine other work steals cores, so the script also measures a
*control*: a trivially parallel loop, once in one process and once split over
two.  Its speed-up is what the machine can give two processes right now; the
arena's speed-up divided by it is the arena's parallel efficiency.  Usage::

    python benchmarks/bench_arena.py [--rules pagat] [--bots random,random] [--deals 3000] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time

from dehla.arena import ArenaConfig, run_arena
from dehla.arena.report import jsonable
from dehla.rules import parse_rules


def _spin(count: int) -> int:
    total = 0
    for value in range(count):
        total += value * value
    return total


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes once the pool is shut)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def control_speedup(count: int = 10_000_000) -> float:
    """Wall-time speed-up of two processes over one on a loop that needs no communication at all."""
    start = time.perf_counter()
    _spin(count)
    _spin(count)
    serial = time.perf_counter() - start
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_spin, [1000, 1000])  # start the workers before timing
        start = time.perf_counter()
        pool.map(_spin, [count, count])
        parallel = time.perf_counter() - start
    return serial / parallel


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--bots", default="random,random")
    parser.add_argument("--deals", type=int, default=3000, help="duplicate deals (two hands each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    config = ArenaConfig(
        rules=parse_rules(args.rules), bots=tuple(args.bots.split(",")), seed=args.seed, deals=args.deals
    )
    figures: dict[str, float] = {}
    reports = []
    for workers in (1, 2):
        before = _cpu_seconds()
        run = run_arena(config, workers=workers)
        figures[f"cpu_seconds_{workers}"] = round(_cpu_seconds() - before, 2)
        figures[f"hands_per_second_{workers}"] = run.report["run"]["hands_per_second"]
        figures[f"seconds_{workers}"] = run.report["run"]["seconds"]
        reports.append({key: value for key, value in jsonable(run.report).items() if key != "run"})
    if reports[0] != reports[1]:
        print("results differ between 1 and 2 workers", file=sys.stderr)
        return 1
    speedup = figures["hands_per_second_2"] / figures["hands_per_second_1"]
    figures["speedup"] = round(speedup, 2)
    control = control_speedup()
    figures["control_speedup"] = round(control, 2)
    figures["efficiency"] = round(speedup / control, 2)
    figures["load_average"] = round(os.getloadavg()[0], 2)
    # CPU work the 2-worker run spent per unit of the 1-worker run's: start-up and messages cost extra
    overhead = figures["cpu_seconds_2"] / figures["cpu_seconds_1"]
    figures["cpu_overhead"] = round(overhead, 3)
    figures["idle_speedup_estimate"] = round(2 / overhead, 2)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"arena {args.rules}, {args.bots}, {args.deals} duplicate deals ({2 * args.deals} hands), "
            f"{os.cpu_count()} CPUs"
        )
        for workers in (1, 2):
            print(
                f"  {workers} worker{'s' if workers > 1 else ''}: {figures[f'hands_per_second_{workers}']:8.1f} "
                f"hands/s ({figures[f'seconds_{workers}']:.2f} s)"
            )
        verdict = "meets" if speedup >= 1.8 else "misses"
        print(f"  speed-up: {speedup:.2f}x ({verdict} the 1.8x target); identical results: yes")
        print(
            f"  control (a parallel loop, 2 processes vs 1): {control:.2f}x now; arena efficiency "
            f"{speedup / control:.0%} of it; load average {figures['load_average']}"
        )
        print(
            f"  CPU seconds: {figures['cpu_seconds_1']} (1 worker), {figures['cpu_seconds_2']} (2 workers, "
            f"all processes): {overhead:.3f}x the work, so about {2 / overhead:.2f}x on two idle cores"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
