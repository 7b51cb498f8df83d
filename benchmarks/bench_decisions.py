"""Decision quality of search-bot variants: how often each one misses the best card of the true deal.

Game results need thousands of deals to show a change of a few points, because
most deals end the same whatever the bot does.  This benchmark looks at single
decisions instead: it plays hands with four ``heuristic`` bots, keeps some of
the decisions with a choice (tricks ``--from-trick`` to ``--to-trick``), solves
each of those positions with every card known, and asks each variant of the
search bot (reproducible mode: ``--nodes`` search nodes a sample, all
``--samples`` samples, no early stop) for its card from the seat's observation.
A choice is *suboptimal* when its double-dummy value in the true deal is below
the best card's; the *loss* is the difference in value, whatever the variant's
own settings.  The value is the hand's points margin (``--score result``, the
default; the search bots play for the winner alone, the same thing outside
Taash), or ``utility``, which adds 0.05 a ten
(``--score utility``: the tens decide among equal results, so a result-only
variant is charged for tens that do not change the score).  Every variant sees
the same positions, so the counts are paired.

    python benchmarks/bench_decisions.py --deals 120
    python benchmarks/bench_decisions.py --deals 120 --variant s16:max_samples=16 --variant s64:max_samples=64
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from dehla import Match
from dehla.arena.stats import wilson
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import SearchBot, SearchSettings, utility
from dehla.engine.actions import Action
from dehla.errors import DehlaError
from dehla.rules import parse_rules

#: Search settings a variant may change (``max_samples``, the rest ``SearchSettings``), and how to read them.
SETTINGS: dict[str, Callable[[str], Any]] = {
    "max_samples": int,
    "sample_nodes": int,
}
DEFAULT_VARIANTS = ("s32:max_samples=32", "s64:max_samples=64")


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME:key=value,key=value`` as a name and SearchBot keyword arguments."""
    name, _, spec = text.partition(":")
    if not name:
        raise DehlaError(f"a variant needs a name, as in plain:max_samples=32 (got {text!r})")
    settings: dict[str, Any] = {}
    for item in filter(None, spec.split(",")):
        key, equals, value = item.partition("=")
        if not equals or key not in SETTINGS:
            raise DehlaError(f"unknown variant setting {item!r}; known: {', '.join(SETTINGS)}")
        try:
            settings[key] = SETTINGS[key](value)
        except ValueError:
            raise DehlaError(f"{key} needs a {SETTINGS[key].__name__}, not {value!r}") from None
    return name, settings


def positions(rules_text: str, deals: int, seed: int, first: int, last: int, share: float) -> list[Match]:
    """Decisions with a choice in tricks ``first`` to ``last`` of hands played by four heuristic bots."""
    rules = parse_rules(rules_text)
    found = []
    for deal in range(deals):
        rng = random.Random(f"{seed}:{deal}")
        match = Match(rules, deal % rules.players)
        match.apply(match.random_deal(rng))
        players = [HeuristicBot(seat) for seat in range(match.players)]
        while not match.results:
            seat = match.to_act
            assert seat is not None
            seen = match.observe(seat)
            trick = len(seen.tricks) + 1
            if seen.phase == "play" and first <= trick <= last and len(seen.legal_actions) > 1 and rng.random() < share:
                found.append(match.clone())
            match.apply(players[seat].act(seen))
    return found


#: How a true deal values an action for the seat to act: its points margin, or ``utility`` (with the tens).
SCORES = ("result", "utility")


def true_values(matches: list[Match], node_limit: int, score: str = "result") -> list[dict[Action, float] | None]:
    """Each position's value (``score``) for the seat to act after every legal action, all cards known."""
    from dehla.solver.fast import SolveLimitReached, Solver

    solver = Solver(table_bits=20)
    solver.node_limit = node_limit
    values: list[dict[Action, float] | None] = []
    for match in matches:
        seat = match.to_act
        assert seat is not None
        team = seat % 2
        try:
            if score == "result":
                results = solver.results(match)
                values.append({action: float(results.for_team(action, team)) for action in results.actions})
            else:
                solution = solver.solve(match)
                values.append({action: utility(value, team) for action, value in solution.actions.items()})
        except SolveLimitReached:
            values.append(None)
    return values


def measure(
    matches: list[Match], truth: list[dict[Action, float] | None], settings: dict[str, Any], label: str
) -> dict[str, Any]:
    """One variant's losses, position by position (``None`` where the truth was not solved)."""
    losses: list[float | None] = []
    start = time.process_time()
    for index, (match, values) in enumerate(zip(matches, truth)):
        if values is None:
            losses.append(None)
            continue
        seat = match.to_act
        assert seat is not None
        options = dict(settings)
        samples = options.pop("max_samples")
        bot = SearchBot(index, max_samples=samples, settings=SearchSettings(settle_after=0, **options))
        action = bot.act(match.observe(seat))
        losses.append(max(values.values()) - values[action])
        if (index + 1) % 50 == 0:
            print(f"  {label}: {index + 1}/{len(matches)} positions", file=sys.stderr, flush=True)
    seconds = time.process_time() - start
    counted = [loss for loss in losses if loss is not None]
    wrong = sum(loss > 1e-9 for loss in counted)
    interval = wilson(wrong, len(counted))
    return {
        "variant": label,
        "settings": settings,
        "positions": len(counted),
        "suboptimal": wrong,
        "suboptimal_rate": wrong / len(counted) if counted else 0.0,
        "low": interval["low"],
        "high": interval["high"],
        "mean_loss": sum(counted) / len(counted) if counted else 0.0,
        "cpu_ms_per_decision": 1000 * seconds / max(1, len(counted)),
        "losses": losses,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--deals", type=int, default=120, help="hands played to find positions")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--from-trick", type=int, default=5)
    parser.add_argument("--to-trick", type=int, default=11)
    parser.add_argument("--share", type=float, default=0.25, help="chance each decision with a choice is kept")
    parser.add_argument("--samples", type=int, default=24, help="samples each variant solves a decision")
    parser.add_argument("--nodes", type=int, default=300_000, help="search nodes a sample")
    parser.add_argument("--truth-nodes", type=int, default=3_000_000, help="node limit of the true solve")
    parser.add_argument(
        "--variant", action="append", help="NAME:key=value,... (repeatable); default: " + " and ".join(DEFAULT_VARIANTS)
    )
    parser.add_argument(
        "--score",
        choices=SCORES,
        default="result",
        help="value of a card in the true deal: the hand's points margin (default) or utility, which adds 0.05 a ten",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON, with every loss")
    args = parser.parse_args()
    try:
        parse_rules(args.rules)
        if args.deals <= 0 or args.samples <= 0 or args.nodes <= 0 or not 0 < args.share <= 1:
            raise DehlaError("--deals, --samples and --nodes must be positive and --share in (0, 1]")
        variants = [parse_variant(text) for text in (args.variant or DEFAULT_VARIANTS)]
    except DehlaError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    matches = positions(args.rules, args.deals, args.seed, args.from_trick, args.to_trick, args.share)
    if not matches:
        print(
            f"error: no decision with a choice in tricks {args.from_trick} to {args.to_trick} of {args.deals} "
            "hands; widen the tricks or play more deals",
            file=sys.stderr,
        )
        return 2
    print(f"{len(matches)} positions; solving them with every card known", file=sys.stderr, flush=True)
    truth = true_values(matches, args.truth_nodes, args.score)
    results = []
    for name, settings in variants:
        settings = {"max_samples": args.samples, "sample_nodes": args.nodes, **settings}
        results.append(measure(matches, truth, settings, name))
    first = results[0]["losses"]
    for result in results:
        pairs = [(a, b) for a, b in zip(first, result["losses"]) if a is not None and b is not None]
        result["better_than_first"] = sum(b < a - 1e-9 for a, b in pairs)
        result["worse_than_first"] = sum(b > a + 1e-9 for a, b in pairs)
    if args.json:
        print(
            json.dumps(
                {"rules": args.rules, "deals": args.deals, "seed": args.seed, "score": args.score, "results": results}
            )
        )
        return 0
    print(
        f"{args.rules}: {len(matches)} positions from {args.deals} hands (seed {args.seed}), "
        f"tricks {args.from_trick}-{args.to_trick}, {args.samples} samples of {args.nodes} nodes, "
        f"scored by {args.score}"
    )
    print(f"{'variant':<14} {'suboptimal':>22} {'mean loss':>10} {'vs first +/-':>13} {'ms/decision':>12}")
    for result in results:
        share = (
            f"{result['suboptimal']} ({100 * result['suboptimal_rate']:.1f}%, "
            f"{100 * result['low']:.1f}-{100 * result['high']:.1f})"
        )
        versus = f"{result['better_than_first']}/{result['worse_than_first']}"
        print(
            f"{result['variant']:<14} {share:>22} {result['mean_loss']:>10.4f} {versus:>13} "
            f"{result['cpu_ms_per_decision']:>12.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
