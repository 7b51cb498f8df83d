"""Engine speed: random full hands per second through the public API, for every preset.

Beside it, in the same run, random full games per second of OpenSpiel's spades
through its Python API (when the ``open_spiel`` package is installed), as the
peer figure.  Usage::

    python benchmarks/bench_engine.py [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from dehla import PRESETS, Match


def dehla_hands_per_second(preset: str, seconds: float, seed: int = 1) -> float:
    """Play random legal actions; count hands completed per second (new matches as needed)."""
    rng = random.Random(seed)
    pick = rng.random  # a uniform index as int(random() * n), the same way for both games
    hands = 0
    match = Match.new(preset, rng)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if match.is_over:
            match = Match.new(preset, rng)
        if match.is_chance:
            if time.perf_counter() > deadline:
                break
            match.apply(match.random_deal(rng))
            hands += 1
            continue
        legal = match.legal_actions()
        match.apply(legal[int(pick() * len(legal))])
    elapsed = time.perf_counter() - start
    return (hands - (0 if match.is_chance else 1)) / elapsed


def spades_games_per_second(seconds: float, seed: int = 1) -> float | None:
    """Random full games of OpenSpiel's spades, chance included, through pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(seed)
    pick = rng.random
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(pick() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(pick() * len(legal))])
        games += 1
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--repeat", type=int, default=1, help="measure OpenSpiel this many times, take the median")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    peer_runs = [spades_games_per_second(args.seconds) for _ in range(args.repeat)]
    figures = {name: dehla_hands_per_second(name, args.seconds) for name in PRESETS}
    peer_runs += [spades_games_per_second(args.seconds) for _ in range(args.repeat)]
    measured = [run for run in peer_runs if run is not None]
    peer = statistics.median(measured) if measured else None
    if args.json:
        print(json.dumps({"hands_per_second": figures, "openspiel_spades_games_per_second": peer}))
        return 0
    if peer is None:
        print("OpenSpiel spades: not measured (pip install open_spiel)")
    else:
        print(f"OpenSpiel spades, random games/s (median of {len(measured)} runs before and after): {peer:8.0f}")
    for name, rate in figures.items():
        ratio = f"  {rate / peer:4.2f}x OpenSpiel" if peer else ""
        print(f"dehla {name:<20} random hands/s: {rate:8.0f}{ratio}")
    if peer:
        print(f"lowest ratio: {min(figures.values()) / peer:4.2f}x (target 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
