"""The solver's table size against its speed and its work: the same positions solved at each ``table_bits``.

A smaller transposition table saves memory in every search bot (42 MB at 19 bits, 21 at 18, 10.5 at 17; MB of
10^6 bytes), but a table that overflows forgets positions and searches more nodes, which would change what a bot
with a time budget finds.  Random ``pagat`` positions after ``--tricks`` tricks (trump a random called suit) are
each asked what the search bots ask of their samples (``Solver.results``: every action's hand result) by one
solver per size, kept from position to position as a bot keeps its own, the sizes taking turns to go first.
Reports per size the nodes (total, and on how many positions they differ from the largest size's), the CPU time
of the thread (``time.thread_time``) and nodes a second.  Usage::

    python benchmarks/bench_table_bits.py [--bits 17,18,19] [--tricks 3,4] [--positions 40] [--seed 1]
                                          [--node-limit 5000000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from dehla import Match
from dehla.engine.actions import CALLS
from dehla.solver.fast import SolveLimitReached, Solver


def positions(count: int, tricks: int, seed: int) -> list[Match]:
    """``count`` random ``pagat`` positions at the start of trick ``tricks + 1``."""
    rng = random.Random(seed * 1000 + tricks)
    found = []
    for _ in range(count):
        match = Match("pagat", rng.randrange(4))
        match.apply(match.random_deal(rng))
        match.apply(rng.choice(CALLS))
        while len(match.tricks) < tricks or match.current_trick:
            match.apply(rng.choice(match.legal_actions()))
        found.append(match)
    return found


def measure(bits: list[int], tricks: list[int], count: int, seed: int, node_limit: int) -> dict[str, Any]:
    solvers = {size: Solver(table_bits=size, node_limit=node_limit) for size in bits}
    for solver in solvers.values():  # first use writes the table's pages: not measured (a bot pays it once)
        solver.results(positions(1, 4, seed + 1)[0])
    nodes: dict[int, list[int]] = {size: [] for size in bits}
    cpu = dict.fromkeys(bits, 0.0)
    stopped = dict.fromkeys(bits, 0)
    index = 0
    for done in tricks:
        for match in positions(count, done, seed):
            order = bits[index % len(bits) :] + bits[: index % len(bits)]
            index += 1
            for size in order:
                solver = solvers[size]
                before, start = solver.nodes, time.thread_time()
                try:
                    solver.results(match)
                except SolveLimitReached:
                    stopped[size] += 1
                cpu[size] += time.thread_time() - start
                nodes[size].append(solver.nodes - before)
    largest = max(bits)
    return {
        "positions": index,
        "sizes": [
            {
                "table_bits": size,
                "table_mb": (1 + (1 << (size - 2)) + (1 << size)) * 64 / 1e6,
                "nodes": sum(nodes[size]),
                "positions_with_other_nodes": sum(a != b for a, b in zip(nodes[size], nodes[largest], strict=True)),
                "stopped": stopped[size],
                "cpu_s": cpu[size],
                "nodes_per_cpu_s": sum(nodes[size]) / cpu[size] if cpu[size] else None,
            }
            for size in bits
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bits", default="17,18,19")
    parser.add_argument("--tricks", default="3,4", help="tricks played before each position")
    parser.add_argument("--positions", type=int, default=40, help="positions for each --tricks value")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--node-limit", type=int, default=5_000_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        bits = [int(word) for word in args.bits.split(",")]
        tricks = [int(word) for word in args.tricks.split(",")]
    except ValueError:
        parser.error("--bits and --tricks take numbers separated by commas, like 17,18,19")
    if any(not 10 <= size <= 26 for size in bits) or any(not 0 <= done <= 12 for done in tricks):
        parser.error("--bits must be 10..26 and --tricks 0..12")
    if args.positions < 1 or args.node_limit < 1:
        parser.error("--positions and --node-limit must be at least 1")
    report = measure(bits, tricks, args.positions, args.seed, args.node_limit)
    report["load_average"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(report))
        return 0
    for row in report["sizes"]:
        print(
            f"table_bits {row['table_bits']} ({row['table_mb']:.1f} MB): {row['nodes']:,} nodes, "
            f"{row['positions_with_other_nodes']} of {report['positions']} positions with other counts than "
            f"{max(bits)} bits, {row['stopped']} stopped, {row['cpu_s']:.2f} s CPU, "
            f"{row['nodes_per_cpu_s'] or 0:,.0f} nodes/s"
        )
    print(f"load average at the end: {report['load_average']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
