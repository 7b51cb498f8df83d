"""Claim proof time: how long the exact solver takes to prove (or refute) a claim of the rest of the hand.

For each of ``--hands`` random hands (presets taken in turn from ``--presets``), play random legal cards to a
random point from trick 6 on (5 to 12 tricks done), then time ``claim_holds`` for the player to act claiming every
remaining trick and every remaining ten (a fresh solver each, as the web table makes one per claim), and the
proving line of play (``claim_line``) for the claims that hold.  Prints the median, p90 and worst time.
Usage::

    python benchmarks/bench_claim.py [--hands 200] [--seed 1] [--presets pagat,mendikot,taash]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dehla.arena.stats import percentile
from dehla.engine.state import Match, Phase
from dehla.play.claims import CLAIMS, Claim, claim_holds, claim_line
from dehla.solver import Solver, warm_up


def position(preset: str, rng: random.Random) -> Match | None:
    """A random hand played at random to a random point from trick 6 on, or ``None`` if it ended first."""
    match = Match(preset, rng.randrange(4))
    match.apply(match.random_deal(rng))
    stop = rng.randrange(5, 13)
    while match.phase is not Phase.PLAY or len(match.tricks) < stop:
        if match.phase not in (Phase.CALL, Phase.HIDE, Phase.PLAY):
            return None
        match.apply(rng.choice(match.legal_actions()))
    return match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default="pagat,mendikot,taash")
    args = parser.parse_args()
    warm_up(wait=True)
    rng = random.Random(args.seed)
    presets = args.presets.split(",")
    proofs: list[float] = []
    lines: list[float] = []
    held = 0
    hands = 0
    while hands < args.hands:
        match = position(presets[hands % len(presets)], rng)
        if match is None:
            continue
        hands += 1
        seat = match.to_act
        assert seat is not None
        for what in CLAIMS:
            claim = Claim(seat, what)
            start = time.perf_counter()
            holds = claim_holds(match, claim, Solver(table_bits=18))
            proofs.append(time.perf_counter() - start)
            if holds:
                held += 1
                start = time.perf_counter()
                claim_line(match, claim)
                lines.append(time.perf_counter() - start)
    print(f"{hands} hands ({args.presets}), {len(proofs)} claims from trick 6 on, {held} hold")
    print(
        f"proof: median {statistics.median(proofs) * 1000:.1f} ms, p90 {percentile(proofs, 0.9) * 1000:.1f} ms, "
        f"worst {max(proofs) * 1000:.1f} ms"
    )
    if lines:
        print(
            f"proving line (claims that hold): median {statistics.median(lines) * 1000:.1f} ms, "
            f"p90 {percentile(lines, 0.9) * 1000:.1f} ms, worst {max(lines) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
