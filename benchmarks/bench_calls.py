"""Does the trump call (or the band-hukum hide) leave hands on the table, and would sampling choose better?

Where a seat names trump from its first cards (``pagat``: the caller sees five),
or hides a card of its hand as the trump to come (``mendikot-band``: the chooser
holds thirteen), every bot chooses as ``heuristic`` does.  This benchmark plays
each deal's hand once for every choice the seat could make (four suits, or each
card it could hide), with the same four ``heuristic`` players (same seeds)
otherwise, and reports how often the choosing seat's team wins with the
heuristic's choice, with the others, and with the best one for that very deal
(a ceiling no real player reaches: it knows the outcome).  Then it tries a
sampling chooser: it draws ``--rollouts`` deals consistent with what the seat
sees (``CardTracker.sample``), plays each out once per choice with four
``heuristic`` players, and makes the choice that won most often, switching away
from the heuristic's only when that choice won at least ``--margin`` more of the
rollouts.  Its gain is scored on the real deal, paired with the heuristic's
choice, so only the deals where the two differ count.  With ``--model-margin``
it also scores the search bots' choice with the learned value
(``model_search.ModelSearchBot``: the position each choice leads to, valued
by the model over ``--model-samples`` sampled deals, made when it beats the
heuristic's by that share of the rules' largest result), on the real deal,
paired with the heuristic's in the same way.  ``--rollouts 0`` skips the
rollout chooser.  Usage::

    python benchmarks/bench_calls.py [--rules pagat] [--deals 200] [--rollouts 12] [--margin 1] [--seed 1]
                                     [--model-margin 0.1 0.2] [--model-samples 64]
    python benchmarks/bench_calls.py --rules mendikot-band [...]    # the band-hukum hide
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling model_search.py

from model_search import ModelSearchBot, ModelSettings  # a sibling script, found by the path set above

from dehla import Match
from dehla.arena.stats import mean_interval
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import SearchSettings, determinize
from dehla.bots.tracking import CardTracker
from dehla.engine.actions import Action
from dehla.errors import DehlaError
from dehla.play import play_hand
from dehla.rules import Rules, parse_rules


def chooser_won(match: Match, choice: Action, seeds: list[int]) -> bool:
    """Play ``match`` (at its trump call or hide) to the end with ``heuristic`` players after ``choice``; did the
    choosing seat's team win the hand?"""
    chooser = match.to_act
    assert chooser is not None
    players = [HeuristicBot(seed) for seed in seeds]
    match.apply(choice)
    play_hand(match, lambda seat, seen: players[seat].act(seen))
    return match.results[0].winner == chooser % 2


def study_deal(
    rules: Rules, index: int, seed: int, rollouts: int, model_margins: list[float], model_samples: int
) -> tuple[int, list[bool], list[int], list[int]]:
    """One deal: the heuristic's choice, whether the chooser's team wins with each choice, each choice's rollout
    wins, and the choice the model makes at each of ``model_margins`` (choices by their index among the seat's
    legal actions)."""
    rng = random.Random(f"{seed}:{rules.name}:{index}")
    dealer = index % rules.players
    match = Match(rules, dealer)
    match.apply(match.random_deal(rng))
    seeds = [rng.randrange(2**32) for _ in range(rules.players)]
    chooser = match.to_act
    assert chooser is not None
    observation = match.observe(chooser)
    choices = list(observation.legal_actions)  # main() admits only presets whose hands open with such a choice
    heuristic = choices.index(HeuristicBot(seeds[chooser]).act(observation))
    outcomes = [chooser_won(match.clone(), choice, seeds) for choice in choices]
    tracker = CardTracker(observation)
    sampler = random.Random(f"rollouts:{seed}:{rules.name}:{index}")
    wins = [0] * len(choices)
    for _ in range(rollouts):
        world = determinize(observation, tracker.sample(sampler))
        world_seeds = [sampler.randrange(2**32) for _ in range(rules.players)]
        for at, choice in enumerate(choices):
            wins[at] += chooser_won(world.clone(), choice, world_seeds)
    model_choices = []
    for margin in model_margins:
        bot = ModelSearchBot(
            seeds[chooser],
            settings=SearchSettings(playouts=False, sample_nodes=1),
            model=ModelSettings(model_samples, margin),
        )
        model_choices.append(choices.index(bot.act(observation)))
    return heuristic, outcomes, wins, model_choices


def report_calls(label: str, calls: list[tuple[int, int, list[bool]]]) -> None:
    """One row of the table: ``calls`` holds (heuristic's choice, choice made, whether each choice wins the real
    deal)."""
    differences = [int(outcomes[call]) - int(outcomes[heuristic]) for heuristic, call, outcomes in calls]
    changed = sum(call != heuristic for heuristic, call, _ in calls)
    gain = mean_interval(differences)
    interval = f"[{gain['low']:+.1%}, {gain['high']:+.1%}]"
    better = sum(d > 0 for d in differences)
    worse = sum(d < 0 for d in differences)
    print(f"{label:>6} {changed:>14} {better:>7} {worse:>6} {gain['value']:>+22.1%} {interval:>17}")


def sampled_call(heuristic: int, wins: list[int], margin: int) -> int:
    """The choice that won most rollouts, if it beat the heuristic's by at least ``margin``; else the
    heuristic's."""
    best = max(range(len(wins)), key=lambda choice: (wins[choice], choice == heuristic))
    return best if wins[best] - wins[heuristic] >= margin else heuristic


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rules", default="pagat", help="a preset whose trump is called or hidden by a seat (default pagat)"
    )
    parser.add_argument("--deals", type=int, default=200, help="deals (default 200)")
    parser.add_argument("--rollouts", type=int, default=12, help="sampled deals per choice (default 12)")
    parser.add_argument(
        "--margin",
        type=int,
        nargs="+",
        default=[1, 2, 3, 4],
        help="rollout wins by which a choice must beat the heuristic's to be made (default 1 2 3 4)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "--model-margin",
        type=float,
        nargs="*",
        default=[],
        help="also score the model's choice at these margins (shares of the largest result)",
    )
    parser.add_argument(
        "--model-samples",
        type=int,
        default=64,
        help="sampled deals the model's chooser values (default 64, a move's most)",
    )
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.rules)
    except DehlaError as error:
        parser.error(str(error))
    if rules.trump not in ("called", "hidden", "hidden_auto"):
        parser.error(f"{args.rules}: its trump is {rules.trump!r}, not called or hidden; try pagat or mendikot-band")
    words = ("call", "caller", "suit", "calling") if rules.trump == "called" else ("hide", "hider", "card", "hiding")
    choice, choosing, ways, doing = words
    if args.deals < 1 or args.rollouts < 0 or min(args.margin) < 1 or args.model_samples < 1:
        parser.error("--deals, --margin and --model-samples must be at least 1, --rollouts at least 0")
    if any(margin < 0 for margin in args.model_margin):
        parser.error("--model-margin must not be negative")
    print(f"{rules.name}: {args.deals} deals, seed {args.seed}; the {choosing}'s team's hand, four heuristic players")
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
    others = (
        sum((sum(outcomes) - outcomes[heuristic]) / (len(outcomes) - 1) for heuristic, outcomes, _, _ in studied)
        / deals
    )
    ceiling = sum(max(outcomes) for _, outcomes, _, _ in studied) / deals
    print(
        f"{choosing}'s team wins: heuristic's {choice} {own:.1%}, the other {ways}s {others:.1%}, "
        f"the best {ways} for each deal {ceiling:.1%} (knows the outcome)"
    )
    gain = f"gain per {doing} hand"
    header = f"{'margin':>6} {choice + 's changed':>14} {'better':>7} {'worse':>6} {gain:>22} {'95% interval':>17}"
    if args.rollouts:
        print(
            f"sampling {choosing}, {args.rollouts} rollouts a {ways}, scored on the real deal against the "
            f"heuristic's {choice}:"
        )
        print(header)
        for margin in args.margin:
            report_calls(
                str(margin),
                [
                    (heuristic, sampled_call(heuristic, wins, margin), outcomes)
                    for heuristic, outcomes, wins, _ in studied
                ],
            )
    if args.model_margin:
        print(
            f"the model's {choosing}, {args.model_samples} sampled deals, scored on the real deal against the "
            f"heuristic's {choice}:"
        )
        print(header)
        for at, margin in enumerate(args.model_margin):
            report_calls(f"{margin:g}", [(heuristic, named[at], outcomes) for heuristic, outcomes, _, named in studied])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
