"""Join ``bench_search.py --json`` reports of consecutive deal ranges into one result.

A 2,000-deal run of the search bot takes hours; it can be split with
``--first-deal`` into runs of the same seed that cover consecutive ranges of
its deals (0 to 999, then 1,000 to 1,999), even in different sessions.  This
checks that the reports are of the same rules, seed, bot and code (the git
tree of ``src/``, so later commits that leave the engine and bots alone still
pool), and that
their deals follow each other without a gap or an overlap, then prints the
pooled hand-win rate with its Wilson 95% interval, as one run would have.
Usage::

    python benchmarks/bench_search.py --rules taash --deals 1000 --first-deal 0 --json > a.json
    python benchmarks/bench_search.py --rules taash --deals 1000 --first-deal 1000 --json > b.json
    python benchmarks/pool_runs.py a.json b.json
    python benchmarks/pool_runs.py a.json b.json --report whole.json   # one report, as one run would make
    python benchmarks/pool_runs.py a.json c.json --gaps    # ranges apart (0-999 and 3,000-3,999): one rate

``--report`` writes the parts as one ``bench_search.py --json`` report (every
deal's score in order), so that ``compare_deals.py`` can set a run made in parts
against another run of the same deals, deal by deal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dehla.arena.stats import wilson


class PoolError(ValueError):
    """Reports that cannot be pooled, with the reason."""


def opponent(report: dict[str, Any]) -> str:
    """The bot the measured one played against (``heuristic`` in reports made before ``--against``)."""
    return str(report["results"][0].get("against", "heuristic"))


def pool(reports: list[dict[str, Any]], gaps: bool = False) -> dict[str, Any]:
    """The pooled result of ``reports`` (first measured bot of each), checked to be one run split in parts.

    With ``gaps`` the parts' deals may skip some (never overlap): a headline over held-out ranges that leave
    out deals a decision was made on.
    """
    if not reports:
        raise PoolError("no report given")
    parts = sorted(reports, key=lambda report: report.get("first_deal", 0))
    first = parts[0]
    for report in parts[1:]:
        for key in ("rules", "seed"):
            if report.get(key) != first.get(key):
                raise PoolError(f"the reports differ in {key}: {first.get(key)!r} and {report.get(key)!r}")
        if report["results"][0]["bot"] != first["results"][0]["bot"]:
            raise PoolError(
                f"the reports measure different bots: {first['results'][0]['bot']!r} and "
                f"{report['results'][0]['bot']!r}"
            )
        if opponent(report) != opponent(first):
            raise PoolError(f"the reports play against different bots: {opponent(first)!r} and {opponent(report)!r}")
    if any(report.get("seed") is None for report in parts):
        raise PoolError("a report does not say its seed (made before bench_search.py had --first-deal)")
    trees = {report.get("src_tree") for report in parts}
    if len(trees) > 1 or None in trees or any(str(tree).endswith("-dirty") for tree in trees):
        raise PoolError(f"the reports are not all of one committed version of src/: {sorted(map(str, trees))}")
    expected = first.get("first_deal", 0)
    ranges: list[list[int]] = []
    for report in parts:
        start = report.get("first_deal", 0)
        if start < expected or (start > expected and not gaps):
            gap = "overlap" if start < expected else "gap (--gaps pools ranges apart)"
            raise PoolError(
                f"the deals have a {gap}: a report starts at deal {start}, the one before ends at deal {expected - 1}"
            )
        end = start + len(report["results"][0]["deal_scores"])
        if ranges and start == expected:
            ranges[-1][1] = end - 1  # follows the range before
        else:
            ranges.append([start, end - 1])
        expected = end
    scores = [score for report in parts for score in report["results"][0]["deal_scores"]]
    rate = wilson(sum(scores), 2 * len(scores))
    return {
        "rules": first["rules"],
        "seed": first["seed"],
        "bot": first["results"][0]["bot"],
        "against": opponent(first),
        "src_tree": first.get("src_tree"),
        "commits": sorted({commit for report in parts for commit in commits_of(report)}),
        "first_deal": first.get("first_deal", 0),
        "ranges": ranges,
        "deals": len(scores),
        "hands": 2 * len(scores),
        "won": sum(scores),
        "win_rate": rate["value"],
        "low": rate["low"],
        "high": rate["high"],
        "cpu_p95_s_per_part": [report["results"][0]["cpu_p95_s"] for report in parts],
        "deal_scores": scores,
    }


def commits_of(report: dict[str, Any]) -> list[str]:
    """The commits a report was measured at: its own, or those of the parts a pooled report joined."""
    if "commits" in report:
        return [str(commit) for commit in report["commits"]]
    return [str(report.get("commit"))]


def as_report(pooled: dict[str, Any]) -> dict[str, Any]:
    """``pooled`` in the layout of a ``bench_search.py --json`` report (what ``compare_deals.py`` reads)."""
    return {
        "rules": pooled["rules"],
        "deals": pooled["deals"],
        "seed": pooled["seed"],
        "first_deal": pooled["first_deal"],
        "commits": pooled["commits"],
        "src_tree": pooled["src_tree"],
        "results": [
            {
                "bot": pooled["bot"],
                "against": pooled["against"],
                "hands": pooled["hands"],
                "win_rate": pooled["win_rate"],
                "low": pooled["low"],
                "high": pooled["high"],
                "cpu_p95_s": max(pooled["cpu_p95_s_per_part"]),  # the slowest part's
                "deal_scores": pooled["deal_scores"],
            }
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", help="bench_search.py --json reports of consecutive deals")
    parser.add_argument("--json", action="store_true", help="print the pooled result as JSON")
    parser.add_argument("--report", metavar="FILE", help="also write the parts as one bench_search.py --json report")
    parser.add_argument(
        "--gaps",
        action="store_true",
        help="let the parts' deals skip some (held-out ranges apart; never overlapping); not with --report",
    )
    args = parser.parse_args(argv)
    if args.gaps and args.report:
        parser.error("--report writes deals that follow each other: leave out --gaps")
    try:
        reports = [json.loads(Path(path).read_text(encoding="utf-8")) for path in args.reports]
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the reports: {error}")
    try:
        pooled = pool(reports, gaps=args.gaps)
    except (PoolError, KeyError, IndexError, TypeError) as error:
        parser.error(f"cannot pool these reports: {error}")
    if args.report:
        try:
            Path(args.report).write_text(json.dumps(as_report(pooled)) + "\n", encoding="utf-8")
        except OSError as error:
            parser.error(f"cannot write the report: {error}")
    if args.json:
        print(json.dumps({key: value for key, value in pooled.items() if key != "deal_scores"}))
        return 0
    deals = ", ".join(f"{first} to {last}" for first, last in pooled["ranges"])
    print(
        f"{pooled['rules']}, seed {pooled['seed']}, deals {deals}: {pooled['bot']} vs "
        f"{pooled['against']}, {pooled['hands']} hands: wins {pooled['win_rate']:.2%} [{pooled['low']:.2%}, "
        f"{pooled['high']:.2%}]; CPU p95 a move per part: "
        + ", ".join(f"{value:.3f} s" for value in pooled["cpu_p95_s_per_part"])
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
