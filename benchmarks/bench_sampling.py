"""How the search bots' deals are drawn: how close to uniform, and how fast.

``CardTracker.sample`` draws a placement of the unseen cards consistent with a
seat's observation, each one equally likely; ``sample(rng, exact=False)`` is the
older greedy pass, always consistent but not uniform.  This benchmark plays
random hands and, at decisions late in a hand where a few hundred placements
are possible and some seats have shown voids (``--cards`` cards a hand left),
draws ``--draws`` deals each way and reports the total variation distance from
the uniform spread over every placement (listed with ``CardTracker.deals``).
For scale it also draws as many deals uniformly from that list: what a perfect
sampler gets from the finite number of draws.  Then it times both ways at
every decision of ``--games`` hands: counting the placements once (exact, per
move) and one draw.  Usage::

    python benchmarks/bench_sampling.py [--rules pagat] [--positions 12] [--draws 20000] [--cards 4] [--games 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

from dehla import Match
from dehla.bots.tracking import CardTracker
from dehla.errors import DehlaError
from dehla.rules import parse_rules

Hands = tuple[int, ...]


def distance(placements: list[Hands], draw: Callable[[random.Random], Hands], draws: int, seed: int) -> float:
    """Total variation distance between ``draws`` draws and the uniform spread over ``placements``."""
    rng = random.Random(seed)
    counts = Counter(draw(rng) for _ in range(draws))
    outside = set(counts) - set(placements)
    if outside:
        raise AssertionError(f"{len(outside)} drawn placements are not consistent with the observation")
    share = 1 / len(placements)
    return 0.5 * sum(abs(counts[hands] / draws - share) for hands in placements)


def every_placement(track: CardTracker, most: int) -> list[Hands] | None:
    """Every placement consistent with the tracker's observation, or ``None`` if there are more than ``most``."""
    deals = track.deals(most + 1, random.Random(0))  # past ``most + 1`` it returns that many random draws
    return [deal.hands for deal in deals] if len(deals) <= most else None


def late_positions(rules: str, count: int, cards: int, seed: int) -> list[tuple[CardTracker, list[Hands]]]:
    """Trackers of seat 0 with ``cards`` cards left and some seat void in a suit, with their 20 to 2,000
    placements."""
    found: list[tuple[CardTracker, list[Hands]]] = []
    for game in range(seed, seed + 50 * count):
        rng = random.Random(game)
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        while not match.results and not (match.to_act == 0 and len(match.hand_of(0)) == cards):
            match.apply(rng.choice(match.legal_actions()))
        if match.results or match.observe(0).phase != "play":
            continue
        track = CardTracker(match.observe(0))
        if not any(track.voids[seat] for seat in range(1, match.players)):
            continue
        placements = every_placement(track, 2000)
        if placements is not None and len(placements) >= 20:
            found.append((track, placements))
            if len(found) == count:
                break
    return found


def uniformity(rules: str, positions: int, draws: int, cards: int, seed: int) -> None:
    found = late_positions(rules, positions, cards, seed)
    if not found:
        print(f"no position with {cards} cards a hand left, a void and 20 to 2,000 placements was found")
        return
    print(f"distance from uniform, {draws:,} draws a position, {rules}, {cards} cards a hand left:")
    print(f"{'placements':>10} {'exact':>7} {'greedy':>7} {'perfect':>8}")
    rows = []
    for track, placements in found:
        exact = distance(placements, lambda rng, t=track: t.sample(rng).hands, draws, 1)
        greedy = distance(placements, lambda rng, t=track: t.sample(rng, exact=False).hands, draws, 1)
        perfect = distance(placements, lambda rng, p=placements: rng.choice(p), draws, 2)
        rows.append((exact, greedy, perfect))
        print(f"{len(placements):>10} {exact:>7.3f} {greedy:>7.3f} {perfect:>8.3f}", flush=True)
    for name, column in (("exact", 0), ("greedy", 1), ("perfect", 2)):
        values = [row[column] for row in rows]
        print(f"{name}: mean {statistics.mean(values):.3f}, worst {max(values):.3f}")
    worse = sum(1 for exact, greedy, perfect in rows if greedy > 1.5 * perfect + 0.01)
    print(f"positions where the greedy pass is clearly off (over 1.5 times the perfect figure): {worse} of {len(rows)}")


def speed(rules: str, games: int, seed: int) -> None:
    by_trick: dict[int, list[tuple[float, float, float]]] = {}
    for game in range(seed, seed + games):
        rng = random.Random(game)
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        while not match.results:
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            if observation.phase == "play" and len(observation.legal_actions) > 1:
                track = CardTracker(observation)
                start = time.perf_counter()
                track.sample(random.Random(0))  # counts the placements, then draws
                first = time.perf_counter() - start
                start = time.perf_counter()
                for index in range(10):
                    track.sample(random.Random(index))
                exact = (time.perf_counter() - start) / 10
                start = time.perf_counter()
                for index in range(10):
                    track.sample(random.Random(index), exact=False)
                greedy = (time.perf_counter() - start) / 10
                by_trick.setdefault(len(observation.tricks), []).append((first - exact, exact, greedy))
            match.apply(rng.choice(match.legal_actions()))
    print(f"\ntimes at every decision with a choice of {games} random {rules} hands (median, ms):")
    header = ("tricks done", "decisions", "count (once a move)", "max", "exact draw", "greedy draw")
    print(" ".join(f"{name:>{width}}" for name, width in zip(header, (11, 9, 19, 7, 10, 11))))
    for trick in sorted(by_trick):
        rows = by_trick[trick]
        count = statistics.median(row[0] for row in rows) * 1000
        worst = max(row[0] for row in rows) * 1000
        exact = statistics.median(row[1] for row in rows) * 1000
        greedy = statistics.median(row[2] for row in rows) * 1000
        print(f"{trick:>11} {len(rows):>9} {count:>19.3f} {worst:>7.2f} {exact:>10.3f} {greedy:>11.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--positions", type=int, default=12, help="late positions checked for uniformity")
    parser.add_argument("--draws", type=int, default=20_000, help="deals drawn each way at each position")
    parser.add_argument("--cards", type=int, default=4, help="cards a hand left at those positions")
    parser.add_argument("--games", type=int, default=60, help="random hands whose every decision is timed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        parse_rules(args.rules)
    except DehlaError as error:
        parser.error(str(error))
    for name in ("positions", "draws", "cards", "games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    uniformity(args.rules, args.positions, args.draws, args.cards, args.seed)
    speed(args.rules, args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
