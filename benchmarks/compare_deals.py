"""Compare two ``bench_search.py --json`` reports made on the same deals, deal by deal.

Two versions of a bot (or two budgets) measured on the same deals and seed
share most of their luck: the same cards, and often the same outcome.  The
difference of their scores deal by deal has a much smaller spread than either
rate, so a paired comparison shows a real difference with far fewer deals.
Prints the difference in hand-win rate (B minus A) with its 95% interval.
Usage::

    python benchmarks/bench_search.py --deals 300 --budget 0.5 --json > a.json
    python benchmarks/bench_search.py --deals 300 --budget 0.9 --json > b.json
    python benchmarks/compare_deals.py a.json b.json

``--deals N`` compares only the first N deals of each, so that a short run can be set against the
start of a longer one of the same seed (a 200-deal ``cheat`` run against a 2,000-deal ``hard`` run).
The reports must start at the same deal (one without a first deal started at 0) and, where both
record their seed, be of the same seed.

More pairs (``a.json b.json a2.json b2.json ...``) join one comparison over several ranges of deals whose
runs cannot be pooled into one report (a baseline measured by another version of ``src/`` than the later
range's): each pair is compared alone, then all their deals together.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any


def paired_difference(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Mean of ``b - a`` per hand (each deal's score covers two hands) and its 95% interval (normal)."""
    differences = [(y - x) / 2 for x, y in zip(a, b, strict=True)]
    n = len(differences)
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="the first report (bench_search.py --json)")
    parser.add_argument("b", help="the second report, on the same deals")
    parser.add_argument(
        "more", nargs="*", help="more pairs of reports (A B ...), each on its own deals, compared together too"
    )
    parser.add_argument("--deals", type=int, metavar="N", help="compare only the first N deals of each report")
    parser.add_argument(
        "--overlap", action="store_true", help="compare the deals both reports cover (their first_deal may differ)"
    )
    args = parser.parse_args(argv)
    if args.deals is not None and args.deals < 2:
        parser.error("--deals must be at least 2")
    if args.deals is not None and args.overlap:
        parser.error("--deals and --overlap do not go together")
    if len(args.more) % 2:
        parser.error("reports come in pairs (A B A2 B2 ...): one has no partner")
    paths = [args.a, args.b, *args.more]
    try:
        reports = [json.loads(Path(path).read_text(encoding="utf-8")) for path in paths]
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the reports: {error}")
    for path, report in zip(paths, reports, strict=True):
        if not _is_report(report):
            parser.error(f"{path} is not a bench_search.py --json report (rules, results[0].deal_scores)")
    if len({report["rules"] for report in reports}) > 1:
        parser.error("the reports are not on the same deals (rules differ)")
    all_a: list[float] = []
    all_b: list[float] = []
    covered: list[tuple[object, int, int]] = []  # (seed, first deal, end) of each pair's deals
    for pair in range(0, len(reports), 2):
        start, a_scores, b_scores = _compare_pair(reports[pair], reports[pair + 1], args, parser)
        seed, end = reports[pair].get("seed"), start + len(a_scores)
        if any(seed == other and start < other_end and other_start < end for other, other_start, other_end in covered):
            parser.error(f"the pairs share deals (from deal {start}): a deal would count twice")
        covered.append((seed, start, end))
        all_a += a_scores
        all_b += b_scores
    if len(reports) > 2:
        n = len(all_a)
        print(f"all {n} deals: A {sum(all_a) / (2 * n):.1%}, B {sum(all_b) / (2 * n):.1%}; {_difference(all_a, all_b)}")
    return 0


def _is_report(report: object) -> bool:
    """Whether ``report`` has what a comparison reads: the rules and the first result's deal scores."""
    if not isinstance(report, dict) or not isinstance(report.get("rules"), str):
        return False
    results = report.get("results")
    return isinstance(results, list) and bool(results) and isinstance(results[0], dict) and "deal_scores" in results[0]


def _difference(a: list[float], b: list[float]) -> str:
    """The paired difference of ``b`` over ``a`` per hand, with its 95% interval, as printed."""
    mean, low, high = paired_difference(a, b)
    return f"B - A: {mean:+.1%} per hand, 95% interval [{low:+.1%}, {high:+.1%}]"


def _compare_pair(
    a_report: dict[str, Any], b_report: dict[str, Any], args: argparse.Namespace, parser: argparse.ArgumentParser
) -> tuple[int, list[float], list[float]]:
    """Print one pair's paired difference; return the first deal and the deal scores compared."""
    reports = [a_report, b_report]
    first, second = (report["results"][0] for report in reports)
    a_scores, b_scores = first["deal_scores"], second["deal_scores"]
    # A report made before bench_search.py had --first-deal started at deal 0 (as pool_runs.py reads it).
    starts = [report.get("first_deal", 0) for report in reports]
    if args.overlap:
        start = max(starts)
        end = min(starts[0] + len(a_scores), starts[1] + len(b_scores))
        if end - start < 2:
            parser.error("the reports share fewer than 2 deals")
        a_scores = a_scores[start - starts[0] : end - starts[0]]
        b_scores = b_scores[start - starts[1] : end - starts[1]]
        starts = [start, start]
    if args.deals is not None:
        if min(len(a_scores), len(b_scores)) < args.deals:
            parser.error(f"--deals {args.deals}: the reports have {len(a_scores)} and {len(b_scores)} deals")
        a_scores, b_scores = a_scores[: args.deals], b_scores[: args.deals]
    if len(a_scores) != len(b_scores):  # (main has checked that every report is of the same rules)
        parser.error("the reports are not on the same deals (their numbers of deals differ)")
    # An old report's seed is not known, so only seeds that both reports record are compared.
    if starts[0] != starts[1]:
        parser.error(f"the reports are not on the same deals (first_deal {starts[0]} and {starts[1]})")
    if "seed" in reports[0] and "seed" in reports[1] and reports[0]["seed"] != reports[1]["seed"]:
        parser.error(f"the reports are not on the same deals (seed {reports[0]['seed']} and {reports[1]['seed']})")
    same = sum(x == y for x, y in zip(a_scores, b_scores, strict=True))
    n = len(a_scores)
    print(
        f"{reports[0]['rules']}, {n} deals from deal {starts[0]}: A {first['bot']} {sum(a_scores) / (2 * n):.1%}, "
        f"B {second['bot']} {sum(b_scores) / (2 * n):.1%}"
    )
    print(f"{_difference(a_scores, b_scores)}; {same} deals scored the same")
    return starts[0], list(a_scores), list(b_scores)


if __name__ == "__main__":
    sys.exit(main())
