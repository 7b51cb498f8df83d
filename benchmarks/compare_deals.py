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
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


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
    parser.add_argument("--deals", type=int, metavar="N", help="compare only the first N deals of each report")
    parser.add_argument(
        "--overlap", action="store_true", help="compare the deals both reports cover (their first_deal may differ)"
    )
    args = parser.parse_args(argv)
    if args.deals is not None and args.deals < 2:
        parser.error("--deals must be at least 2")
    if args.deals is not None and args.overlap:
        parser.error("--deals and --overlap do not go together")
    try:
        reports = [json.loads(Path(path).read_text(encoding="utf-8")) for path in (args.a, args.b)]
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the reports: {error}")
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
    if reports[0]["rules"] != reports[1]["rules"] or len(a_scores) != len(b_scores):
        parser.error("the reports are not on the same deals (rules or number of deals differ)")
    # An old report's seed is not known, so only seeds that both reports record are compared.
    if starts[0] != starts[1]:
        parser.error(f"the reports are not on the same deals (first_deal {starts[0]} and {starts[1]})")
    if "seed" in reports[0] and "seed" in reports[1] and reports[0]["seed"] != reports[1]["seed"]:
        parser.error(f"the reports are not on the same deals (seed {reports[0]['seed']} and {reports[1]['seed']})")
    mean, low, high = paired_difference(a_scores, b_scores)
    same = sum(x == y for x, y in zip(a_scores, b_scores, strict=True))
    n = len(a_scores)
    print(
        f"{reports[0]['rules']}, {n} deals from deal {starts[0]}: A {first['bot']} {sum(a_scores) / (2 * n):.1%}, "
        f"B {second['bot']} {sum(b_scores) / (2 * n):.1%}"
    )
    print(f"B - A: {mean:+.1%} per hand, 95% interval [{low:+.1%}, {high:+.1%}]; {same} deals scored the same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
