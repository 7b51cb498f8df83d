"""Paired A/B of two versions of the engine: which one plays bench_engine's random hands faster.

Both source trees are imported into one process (``OLD`` first, then ``NEW``,
each under the name ``dehla``) and play the same seeded hands in short
alternating chunks, so that both see the same load; the time is this
process's CPU time.  Per preset it prints the ratio of the summed per-seed
fastest chunks (a load spike only ever slows a chunk down) and the median of
the paired chunk ratios.  Usage::

    git archive HEAD src | tar -x -C /tmp/old    # the version to compare against
    python benchmarks/ab_engine.py /tmp/old/src src [--rounds 24] [--hands 200] [--presets mendikot,taash]
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from types import ModuleType
from typing import Any

SEEDS = 4


def load(src: str) -> ModuleType:
    """Import ``dehla`` from ``src``, forgetting any ``dehla`` imported before (its objects stay alive)."""
    # (``dehla_engine__mypyc`` too: the shared library of a compiled engine, one per tree)
    for name in [name for name in sys.modules if name == "dehla" or name.startswith(("dehla.", "dehla_engine"))]:
        del sys.modules[name]
    sys.path.insert(0, src)
    try:
        return importlib.import_module("dehla")
    finally:
        sys.path.remove(src)


def play(match_class: Any, preset: str, hands_wanted: int, seed: int) -> float:
    """CPU seconds for ``hands_wanted`` random hands, picked exactly as bench_engine picks them."""
    rng = random.Random(seed)
    pick = rng.random
    hands = 0
    match = match_class.new(preset, rng)
    start = time.process_time()
    while True:
        if match.is_over:
            match = match_class.new(preset, rng)
        if match.is_chance:
            if hands >= hands_wanted:
                break
            match.apply(match.random_deal(rng))
            hands += 1
            continue
        legal = match.legal_actions()
        match.apply(legal[int(pick() * len(legal))])
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the src directory of the version to compare against")
    parser.add_argument("new", help="the src directory of the version under test")
    parser.add_argument("--rounds", type=int, default=24, help="chunks per version and preset (default 24)")
    parser.add_argument("--hands", type=int, default=200, help="hands per chunk (default 200)")
    parser.add_argument("--presets", default="", help="comma-separated presets (default: all)")
    args = parser.parse_args(argv)
    versions = (load(args.old), load(args.new))
    presets = args.presets.split(",") if args.presets else list(versions[0].PRESETS)
    print(f"paired A/B, CPU time, {args.rounds} chunks of {args.hands} hands per version and preset")
    for preset in presets:
        fastest = [[float("inf")] * SEEDS for _ in versions]
        ratios = []
        for round_number in range(args.rounds):
            seed = round_number % SEEDS
            order = (0, 1) if round_number % 2 else (1, 0)  # alternate which version goes first
            seconds = [0.0, 0.0]
            for index in order:
                seconds[index] = play(versions[index].Match, preset, args.hands, seed)
                fastest[index][seed] = min(fastest[index][seed], seconds[index])
            ratios.append(seconds[0] / seconds[1])
        old, new = sum(fastest[0]), sum(fastest[1])
        per_hand = 1e6 / (SEEDS * args.hands)
        print(
            f"{preset:<20} old {old * per_hand:6.1f} us/hand  new {new * per_hand:6.1f} us/hand  "
            f"new is x{old / new:.3f} as fast (fastest chunks; median paired x{statistics.median(ratios):.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
