"""The kernels compiled ahead of time (``dehla compile``) against numba's at run time, in one process: speed.

Both builds of the same entry points run on the same work, in turns: ``--positions`` random ``pagat`` hands after
``--tricks`` random tricks, each solved (every action's value: ``solve_position``, ``level`` and ``query``) with a
fresh table, and ``--worlds`` sampled worlds of each played out after every legal action (``play_worlds``).
Each position's time is the thread's CPU time (``time.thread_time``: what one core gives, however loaded the
machine); the figure is the ratio of the builds' times, compiled over numba's (below 1: the compiled build is
faster), its geometric mean over positions with a 95% bootstrap interval.  The nodes searched must agree (the
same kernels), and the run says so.  Usage::

    python benchmarks/bench_compiled.py [--positions 40] [--tricks 4] [--worlds 64] [--seed 1] [--build DIR]

``--build``: the directory of the build (``dehla compile --output DIR``); default, where ``dehla compile`` puts it.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from dehla import Match
from dehla.bots import playout
from dehla.solver import compiled, fast

Builds = dict[str, compiled.Kernels]


def positions(count: int, tricks: int, seed: int) -> list[Match]:
    """Random ``pagat`` hands after ``tricks`` random tricks (a hand that ended before is skipped)."""
    rng = random.Random(seed)
    found: list[Match] = []
    while len(found) < count:
        match = Match.new("pagat", rng)
        match.apply(match.random_deal(rng))
        while len(match.tricks) < tricks and not match.results:
            match.apply(rng.choice(match.legal_actions()))
        if not match.results:
            found.append(match)
    return found


def timed(kernels: compiled.Kernels, match: Match, worlds: int, seed: int) -> tuple[float, float, int]:
    """CPU seconds of one solve and of the playouts with ``kernels``, and the nodes the solve searched."""
    fast.kernels = lambda: kernels  # type: ignore[assignment]  # the builds in turn, in one process
    playout.kernels = lambda: kernels  # type: ignore[assignment]
    start = time.thread_time()
    solution = fast.Solver(table_bits=19).solve(match)
    solved = time.thread_time() - start
    seen = match.observe(match.to_act)  # type: ignore[arg-type]
    left = iter(range(worlds))
    start = time.thread_time()
    for _ in playout.playout_batches(seen, match.legal_actions(), random.Random(seed), lambda: next(left, -1) >= 0):
        pass
    return solved, time.thread_time() - start, solution.nodes


def bootstrap_ratio(logs: list[float], seed: int, rounds: int = 2000) -> tuple[float, float, float]:
    """Geometric mean of the ratios (given as logs) and its 95% bootstrap interval."""
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(logs, k=len(logs))) / len(logs) for _ in range(rounds))
    mean = sum(logs) / len(logs)
    return math.exp(mean), math.exp(means[int(0.025 * rounds)]), math.exp(means[int(0.975 * rounds) - 1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--tricks", type=int, default=4, help="random tricks before each position (default 4)")
    parser.add_argument("--worlds", type=int, default=64, help="worlds played out after every action (default 64)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", type=Path, metavar="DIR", help="the build's directory (dehla compile --output)")
    args = parser.parse_args()
    path = compiled.module_path(args.build)
    if not path.exists():
        print(f"no build at {path}: run `dehla compile` first", file=sys.stderr)
        return 1
    builds: Builds = {"compiled": compiled.load_compiled(path), "numba": compiled.load_jit()}
    warm = positions(1, args.tricks, args.seed + 1)[0]
    for kernels in builds.values():  # numba compiles or loads from its cache here, not in a timed call
        timed(kernels, warm, 8, 0)
    solve_logs: list[float] = []
    play_logs: list[float] = []
    totals: dict[str, list[float]] = {name: [0.0, 0.0] for name in builds}
    agree = True
    for index, match in enumerate(positions(args.positions, args.tricks, args.seed)):
        order = list(builds) if index % 2 == 0 else list(reversed(builds))
        found: dict[str, tuple[float, float, int]] = {
            name: timed(builds[name], match, args.worlds, index) for name in order
        }
        agree &= found["compiled"][2] == found["numba"][2]
        solve_logs.append(math.log(found["compiled"][0] / found["numba"][0]))
        play_logs.append(math.log(found["compiled"][1] / found["numba"][1]))
        for name, (solved, played, _) in found.items():
            totals[name][0] += solved
            totals[name][1] += played
    print(f"{args.positions} pagat positions after {args.tricks} tricks, {args.worlds} worlds each; {path.name}")
    for name, (solved, played) in totals.items():
        print(f"  {name:9} solves {solved:7.2f} s CPU, playouts {played:6.2f} s CPU")
    for what, logs in (("solve", solve_logs), ("playouts", play_logs)):
        mean, low, high = bootstrap_ratio(logs, args.seed)
        print(f"  {what}: compiled / numba time {mean:.3f} [{low:.3f}, {high:.3f}] (geometric mean, 95% bootstrap)")
    print(f"  nodes searched: {'the same in every solve' if agree else 'DIFFERENT'}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
