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
    args = parser.parse_args(argv)
    try:
        reports = [json.loads(Path(path).read_text(encoding="utf-8")) for path in (args.a, args.b)]
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the reports: {error}")
    first, second = (report["results"][0] for report in reports)
    if reports[0]["rules"] != reports[1]["rules"] or len(first["deal_scores"]) != len(second["deal_scores"]):
        parser.error("the reports are not on the same deals (rules or number of deals differ)")
    mean, low, high = paired_difference(first["deal_scores"], second["deal_scores"])
    same = sum(x == y for x, y in zip(first["deal_scores"], second["deal_scores"], strict=True))
    print(f"{reports[0]['rules']}, {len(first['deal_scores'])} deals: A {first['bot']} {first['win_rate']:.1%}, "
          f"B {second['bot']} {second['win_rate']:.1%}")
    print(f"B - A: {mean:+.1%} per hand, 95% interval [{low:+.1%}, {high:+.1%}]; {same} deals scored the same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
