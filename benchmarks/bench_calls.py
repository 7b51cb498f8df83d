"""Does the trump call leave hands on the table, and would sampling find better calls?

Where a seat names trump from its first cards (``pagat``: the caller sees five),
every bot calls as ``heuristic`` does: the longest, strongest suit.  This
benchmark plays each deal's hand once for every suit the caller could name,
with the same four ``heuristic`` players (same seeds) otherwise, and reports how
often the caller's team wins with the heuristic's call, with the other suits,
and with the best suit for that very deal (a ceiling no real caller reaches: it
knows the outcome).  Then it tries a sampling caller: it draws ``--rollouts``
deals consistent with what the caller sees (``CardTracker.sample``), plays each
out once per suit with four ``heuristic`` players, and names the suit that won
most often, switching away from the heuristic's suit only when that suit won at
least ``--margin`` more of the rollouts.  Its gain is scored on the real deal,
paired with the heuristic's call, so only the deals where the two calls differ
count.  With ``--model-margin`` it also scores the search bots' call with the
learned value (``SearchSettings(use_model=True)``: the position each call leads
to, valued by the model over ``--model-samples`` sampled deals, named when it
beats the heuristic's call by that share of the rules' largest result), on the
real deal, paired with the heuristic's call in the same way.  ``--rollouts 0``
skips the rollout caller.  Usage::

    python benchmarks/bench_calls.py [--rules pagat] [--deals 200] [--rollouts 12] [--margin 1] [--seed 1]
                                     [--model-margin 0.1 0.2] [--model-samples 64]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from dehla import Match
from dehla.arena.stats import mean_interval
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import SearchBot, SearchSettings, determinize
from dehla.bots.tracking import CardTracker
from dehla.engine.actions import CALLS, Call
from dehla.errors import DehlaError
from dehla.play import play_hand
from dehla.rules import Rules, parse_rules


def caller_won(match: Match, call: Call, seeds: list[int]) -> bool:
    """Play ``match`` (at its trump call) to the end with ``heuristic`` players after ``call``; did the caller's
    team win the hand?"""
    caller = match.to_act
    assert caller is not None
    players = [HeuristicBot(seed) for seed in seeds]
    match.apply(call)
    play_hand(match, lambda seat, seen: players[seat].act(seen))
    return match.results[0].winner == caller % 2


def study_deal(
    rules: Rules, index: int, seed: int, rollouts: int, model_margins: list[float], model_samples: int
) -> tuple[int, list[bool], list[int], list[int]]:
    """One deal: the heuristic's suit, whether the caller's team wins with each suit, each suit's rollout wins,
    and the suit the model's caller names at each of ``model_margins``."""
    rng = random.Random(f"{seed}:{rules.name}:{index}")
    dealer = index % rules.players
    match = Match(rules, dealer)
    match.apply(match.random_deal(rng))
    seeds = [rng.randrange(2**32) for _ in range(rules.players)]
    caller = match.to_act
    assert caller is not None
    observation = match.observe(caller)
    call = HeuristicBot(seeds[caller]).act(observation)
    assert isinstance(call, Call)  # main() admits only presets whose hands open with a trump call
    heuristic = int(call.suit)
    outcomes = [caller_won(match.clone(), CALLS[suit], seeds) for suit in range(4)]
    tracker = CardTracker(observation)
    sampler = random.Random(f"rollouts:{seed}:{rules.name}:{index}")
    wins = [0, 0, 0, 0]
    for _ in range(rollouts):
        world = determinize(observation, tracker.sample(sampler))
        world_seeds = [sampler.randrange(2**32) for _ in range(rules.players)]
        for suit in range(4):
            wins[suit] += caller_won(world.clone(), CALLS[suit], world_seeds)
    model_calls = []
    for margin in model_margins:
        knobs = SearchSettings(sample_nodes=1, model_samples=model_samples, use_model=True, model_margin=margin)
        named = SearchBot(seeds[caller], settings=knobs).act(observation)
        assert isinstance(named, Call)
        model_calls.append(int(named.suit))
    return heuristic, outcomes, wins, model_calls


def report_calls(label: str, calls: list[tuple[int, int, list[bool]]]) -> None:
    """One row of the table: ``calls`` holds (heuristic's suit, suit named, whether each suit wins the real deal)."""
    differences = [int(outcomes[call]) - int(outcomes[heuristic]) for heuristic, call, outcomes in calls]
    changed = sum(call != heuristic for heuristic, call, _ in calls)
    gain = mean_interval(differences)
    interval = f"[{gain['low']:+.1%}, {gain['high']:+.1%}]"
    better = sum(d > 0 for d in differences)
    worse = sum(d < 0 for d in differences)
    print(f"{label:>6} {changed:>14} {better:>7} {worse:>6} {gain['value']:>+22.1%} {interval:>17}")


def sampled_call(heuristic: int, wins: list[int], margin: int) -> int:
    """The suit that won most rollouts, if it beat the heuristic's suit by at least ``margin``; else the
    heuristic's."""
    best = max(range(4), key=lambda suit: (wins[suit], suit == heuristic))
    return best if wins[best] - wins[heuristic] >= margin else heuristic


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat", help="a preset whose trump is called (default pagat)")
    parser.add_argument("--deals", type=int, default=200, help="deals (default 200)")
    parser.add_argument("--rollouts", type=int, default=12, help="sampled deals per call (default 12)")
    parser.add_argument("--margin", type=int, nargs="+", default=[1, 2, 3, 4],
                        help="rollout wins by which a suit must beat the heuristic's to be named (default 1 2 3 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--model-margin", type=float, nargs="*", default=[],
                        help="also score the model's caller at these margins (shares of the largest result)")
    parser.add_argument("--model-samples", type=int, default=64,
                        help="sampled deals the model's caller values (default 64, a move's most)")
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.rules)
    except DehlaError as error:
        parser.error(str(error))
    if rules.trump != "called":
        parser.error(f"{args.rules}: its trump is {rules.trump!r}, not called; try pagat")
    if args.deals < 1 or args.rollouts < 0 or min(args.margin) < 1 or args.model_samples < 1:
        parser.error("--deals, --margin and --model-samples must be at least 1, --rollouts at least 0")
    if any(margin < 0 for margin in args.model_margin):
        parser.error("--model-margin must not be negative")
    print(f"{rules.name}: {args.deals} deals, seed {args.seed}; the caller's team's hand, four heuristic players")
    studied = []
    started = time.perf_counter()
    for index in range(args.deals):
        studied.append(study_deal(rules, index, args.seed, args.rollouts, args.model_margin, args.model_samples))
        if sys.stderr.isatty():
            elapsed = time.perf_counter() - started
            eta = elapsed / (index + 1) * (args.deals - index - 1)
            print(f"\r{index + 1}/{args.deals} deals, eta {eta:.0f}s ", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    deals = len(studied)
    own = sum(outcomes[heuristic] for heuristic, outcomes, _, _ in studied) / deals
    others = sum(sum(outcomes) - outcomes[heuristic] for heuristic, outcomes, _, _ in studied) / (3 * deals)
    ceiling = sum(max(outcomes) for _, outcomes, _, _ in studied) / deals
    print(f"caller's team wins: heuristic's call {own:.1%}, the other suits {others:.1%}, "
          f"the best suit for each deal {ceiling:.1%} (knows the outcome)")
    header = (f"{'margin':>6} {'calls changed':>14} {'better':>7} {'worse':>6} {'gain per calling hand':>22}"
              f" {'95% interval':>17}")
    if args.rollouts:
        print(f"sampling caller, {args.rollouts} rollouts a suit, scored on the real deal against the heuristic's "
              "call:")
        print(header)
        for margin in args.margin:
            report_calls(str(margin), [(heuristic, sampled_call(heuristic, wins, margin), outcomes)
                                       for heuristic, outcomes, wins, _ in studied])
    if args.model_margin:
        print(f"the model's caller, {args.model_samples} sampled deals, scored on the real deal against the "
              "heuristic's call:")
        print(header)
        for at, margin in enumerate(args.model_margin):
            report_calls(f"{margin:g}", [(heuristic, named[at], outcomes)
                                         for heuristic, outcomes, _, named in studied])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
