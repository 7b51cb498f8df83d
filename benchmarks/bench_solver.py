"""Double-dummy solver speed: full pagat deals at trick 1 against DDS on bridge deals, in the same run.

Ours: random ``pagat`` deals, trump called (a random suit), the position at the
first lead; a *solve* is the value of every legal opening lead (as DDS's
``solve_board`` gives the tricks of every opening lead).  DDS: ``solve_board``
on random bridge deals, one trump suit, all opening leads, through the
``endplay`` package (``pip install endplay``; skipped with a note if missing).

A solve that passes ``--node-limit`` nodes is stopped and counted as slower
than every finished one (its time is reported as the time it ran).  Also
reports how long the compiled kernel takes to load from its on-disk cache in
a fresh process, and to compile from nothing.  Usage::

    python benchmarks/bench_solver.py [--deals 30] [--seed 1] [--node-limit 20000000] [--tricks-done 0] [--json]
                                      [--results [--focus K]] [--no-dds] [--no-kernel-times]

``--results`` asks only each lead's hand result (``Solver.results``, what the
search bots ask of their samples) instead of every lead's full value;
``--focus K`` with it, only the results of the ``heuristic`` bot's K best
actions (what ``SearchSettings(focus=K)`` asks in the first tricks).
``--worlds W`` solves, for each deal, W worlds sampled from the observation of
the seat to act instead of the deal itself (what a search move would solve);
``--table-bits`` sizes the solver's table and ``--keep-table`` keeps it from
one world of a deal to the next.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from dehla import Match
from dehla.arena.stats import percentile
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.sampling import sampled_deals
from dehla.bots.tracking import CardTracker
from dehla.engine.actions import CALLS
from dehla.solver.fast import SolveLimitReached, Solver


def _worlds(match: Match, count: int, seed: int) -> list[Match]:
    """``count`` deals of the unseen cards that fit what the seat to act in ``match`` has seen."""
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    drawn = [0]

    def more() -> bool:
        drawn[0] += 1
        return drawn[0] <= count

    return list(sampled_deals(observation, CardTracker(observation), random.Random(seed), more))


def ours(
    deals: int,
    seed: int,
    node_limit: int,
    tricks_done: int,
    results: bool = False,
    focus: int = 0,
    worlds: int = 0,
    table_bits: int = 21,
    keep_table: bool = False,
) -> dict[str, Any]:
    rng = random.Random(seed)
    solver = Solver(table_bits=table_bits, node_limit=node_limit, keep_table=keep_table)
    ranker = HeuristicBot(0)
    times: list[float] = []
    nodes: list[int] = []
    stopped = 0
    for deal in range(deals):
        match = Match("pagat", rng.randrange(4))
        match.apply(match.random_deal(rng))
        match.apply(rng.choice(CALLS))
        while len(match.tricks) < tricks_done or match.current_trick:
            match.apply(rng.choice(match.legal_actions()))
        seat = match.to_act
        assert seat is not None
        focused = ranker.ranked(match.observe(seat))[:focus] if results and focus else None
        solver.clear()  # a new deal: with --keep-table only its own worlds share the table
        for position in _worlds(match, worlds, seed * 100_000 + deal) if worlds else [match]:
            start = time.perf_counter()
            before = solver.nodes
            try:
                if results:
                    solver.results(position, focused)
                else:
                    solver.solve(position)
            except SolveLimitReached:
                stopped += 1
            times.append(time.perf_counter() - start)
            nodes.append(solver.nodes - before)
            print(f"  ours: {times[-1] * 1000:9.1f} ms  {nodes[-1]:>11,} nodes", file=sys.stderr, flush=True)
    return {
        "deals": deals,
        "solves": len(times),
        "total_nodes": sum(nodes),
        "times_ms": [seconds * 1000 for seconds in times],
        "stopped_at_node_limit": stopped,
        "median_ms": statistics.median(times) * 1000,
        "p90_ms": percentile(times, 0.9) * 1000,
        "p99_ms": percentile(times, 0.99) * 1000,
        "max_ms": max(times) * 1000,
        "median_nodes": statistics.median(nodes),
        "p90_nodes": percentile([float(count) for count in nodes], 0.9),
        "nodes_per_second": sum(nodes) / sum(times),
    }


def dds(deals: int, seed: int) -> dict[str, Any] | None:
    try:
        from endplay.dds import solve_board
        from endplay.dealer import generate_deal
        from endplay.types import Denom, Player
    except ImportError:
        return None
    random.seed(seed)
    times = []
    for index in range(deals):
        deal = generate_deal(seed=seed * 1000 + index)
        deal.first = Player.west
        deal.trump = Denom.spades
        start = time.perf_counter()
        solve_board(deal)
        times.append(time.perf_counter() - start)
    return {
        "deals": deals,
        "times_ms": [seconds * 1000 for seconds in times],
        "median_ms": statistics.median(times) * 1000,
        "p99_ms": percentile(times, 0.99) * 1000,
        "max_ms": max(times) * 1000,
    }


def median_ratio(ours: list[float], theirs: list[float], seed: int, rounds: int = 2000) -> dict[str, float]:
    """Our median time over theirs, with a 95% bootstrap interval (each side's deals resampled on its own)."""
    rng = random.Random(seed)
    ratios = sorted(
        statistics.median(rng.choices(ours, k=len(ours))) / statistics.median(rng.choices(theirs, k=len(theirs)))
        for _ in range(rounds)
    )
    return {
        "ratio": statistics.median(ours) / statistics.median(theirs),
        "low": ratios[int(0.025 * rounds)],
        "high": ratios[int(0.975 * rounds) - 1],
    }


_LOAD = (
    "import time; t = time.perf_counter(); from dehla.solver import kernel_load_seconds as k; k(); "
    "print(time.perf_counter() - t)"
)


def kernel_times() -> dict[str, float]:
    """Seconds to import and run the kernel once: from a cold cache (compile) and from the warm cache (load)."""
    with tempfile.TemporaryDirectory() as cold:
        env = dict(os.environ, NUMBA_CACHE_DIR=cold)
        compile_s = float(
            subprocess.run([sys.executable, "-c", _LOAD], env=env, capture_output=True, text=True, check=True).stdout
        )
    subprocess.run([sys.executable, "-c", _LOAD], capture_output=True, check=True)  # make sure the cache is warm
    load_s = float(subprocess.run([sys.executable, "-c", _LOAD], capture_output=True, text=True, check=True).stdout)
    return {"compile_seconds": compile_s, "cached_load_seconds": load_s}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--node-limit", type=int, default=20_000_000)
    parser.add_argument("--tricks-done", type=int, default=0, help="solve after this many random tricks (0: trick 1)")
    parser.add_argument(
        "--results",
        action="store_true",
        help="ours solves only each lead's hand result (Solver.results), as the search bots do",
    )
    parser.add_argument(
        "--focus",
        type=int,
        default=0,
        help="with --results: only the results of the heuristic bot's best FOCUS actions",
    )
    parser.add_argument(
        "--worlds",
        type=int,
        default=0,
        help="solve this many worlds sampled from the seat to act's observation of each deal (0: the deal itself)",
    )
    parser.add_argument("--table-bits", type=int, default=21, help="the solver's table: 2**BITS entries (default 21)")
    parser.add_argument("--keep-table", action="store_true", help="keep the table from one world of a deal to the next")
    parser.add_argument("--no-dds", action="store_true", help="skip DDS")
    parser.add_argument("--no-kernel-times", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.focus < 0 or (args.focus and not args.results):
        parser.error("--focus needs --results and a number of actions of at least 1")
    if args.worlds < 0 or not 10 <= args.table_bits <= 26 or (args.keep_table and not args.worlds):
        parser.error("--worlds must be at least 0, --table-bits 10 to 26, and --keep-table needs --worlds")
    report: dict[str, Any] = {"load_average_before": os.getloadavg()}
    if not args.no_kernel_times:
        report["kernel"] = kernel_times()
    report["dds"] = None if args.no_dds else dds(args.deals, args.seed)
    report["ours"] = ours(
        args.deals,
        args.seed,
        args.node_limit,
        args.tricks_done,
        args.results,
        args.focus,
        args.worlds,
        args.table_bits,
        args.keep_table,
    )
    report["load_average_after"] = os.getloadavg()
    if report["dds"] is not None:
        report["median_over_dds"] = median_ratio(report["ours"]["times_ms"], report["dds"]["times_ms"], args.seed)
    if args.json:
        print(json.dumps(report))
        return 0
    if "kernel" in report:
        kernel = report["kernel"]
        print(f"kernel: compile {kernel['compile_seconds']:.1f} s, cached load {kernel['cached_load_seconds']:.2f} s")
    if report["dds"] is not None:
        d = report["dds"]
        print(f"DDS solve_board, {d['deals']} bridge deals: median {d['median_ms']:.1f} ms, p99 {d['p99_ms']:.1f} ms")
    elif not args.no_dds:
        print("DDS: endplay is not installed (pip install endplay); ours alone below")
    o = report["ours"]
    asked = "every lead's value"
    if args.results:
        asked = f"the result of the heuristic's best {args.focus} leads" if args.focus else "the result of every lead"
    what = f"{o['solves']} worlds sampled for the seat to act of {o['deals']}" if args.worlds else f"{o['deals']}"
    print(
        f"ours, {what} pagat deals after {args.tricks_done} tricks, "
        f"{asked}: median {o['median_ms']:.1f} ms, p90 {o['p90_ms']:.1f} ms, "
        f"p99 {o['p99_ms']:.1f} ms, max {o['max_ms']:.1f} ms; {o['stopped_at_node_limit']} stopped at "
        f"{args.node_limit:,} nodes; median {o['median_nodes']:,.0f} nodes, p90 {o['p90_nodes']:,.0f} nodes, "
        f"{o['nodes_per_second'] / 1e6:.1f} M nodes/s, {o['total_nodes']:,} nodes in all"
    )
    if "median_over_dds" in report:
        ratio = report["median_over_dds"]
        print(f"our median over DDS's: {ratio['ratio']:.2f} [95% bootstrap {ratio['low']:.2f}, {ratio['high']:.2f}]")
    before, after = report["load_average_before"], report["load_average_after"]
    print(
        f"load average (1, 5, 15 min): before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, "
        f"after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
