"""Engine speed: random full hands per second through the public API, for every preset.

Measure the engine as installed for play: a wheel build compiles it with mypyc (``./run.sh`` sets up
``.venv`` that way, then ``.venv/bin/python benchmarks/bench_engine.py``); under an editable install
it runs as Python source.  The first line printed says which.

Beside it, in the same run, random full games per second of OpenSpiel's spades
through its Python API (when the ``open_spiel`` package is installed), as the
peer figure.  Usage::

    python benchmarks/bench_engine.py [--seconds 0.5] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

from dehla import PRESETS, Match
from dehla.engine import COMPILED

#: Both loops are timed in this process's CPU seconds, not wall-clock seconds: on a shared machine the
#: wall clock also counts the time other processes hold the core, which differs from slice to slice.
clock = time.process_time


def dehla_hands_per_second(preset: str, seconds: float, seed: int = 1) -> float:
    """Play random legal actions; count hands completed per second (new matches as needed)."""
    rng = random.Random(seed)
    pick = rng.random  # a uniform index as int(random() * n), the same way for both games
    hands = 0
    match = Match.new(preset, rng)
    start = clock()
    deadline = start + seconds
    while True:
        if match.is_over:
            match = Match.new(preset, rng)
        if match.is_chance:
            if clock() > deadline:
                break
            match.apply(match.random_deal(rng))
            hands += 1
            continue
        legal = match.legal_actions()
        match.apply(legal[int(pick() * len(legal))])
    elapsed = clock() - start
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
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(pick() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(pick() * len(legal))])
        games += 1
    return games / (clock() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds of one measurement slice (default 0.5)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="slices per preset, alternating with OpenSpiel (default 5)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    load_before = _load_average()
    # On a shared machine the load changes from second to second, so each preset is measured in
    # short slices alternating with OpenSpiel; the ratio of each pair of neighbouring slices is
    # taken, and the median over the rounds is reported.
    figures: dict[str, float] = {}
    ratios: dict[str, float] = {}
    spreads: dict[str, tuple[float, float]] = {}  # lowest and highest paired ratio: how noisy the run was
    peers: list[float] = []
    for name in PRESETS:
        ours, pairs = [], []
        for round_number in range(args.rounds):
            peer = spades_games_per_second(args.seconds, seed=round_number)
            rate = dehla_hands_per_second(name, args.seconds, seed=round_number)
            ours.append(rate)
            if peer:
                peers.append(peer)
                pairs.append(rate / peer)
        figures[name] = statistics.median(ours)
        if pairs:
            ratios[name] = statistics.median(pairs)
            spreads[name] = (min(pairs), max(pairs))
    peer_figure = statistics.median(peers) if peers else None
    load = {"before": load_before, "after": _load_average()}
    if args.json:
        print(
            json.dumps(
                {
                    "hands_per_second": figures,
                    "ratio_to_openspiel": ratios,
                    "ratio_range": spreads,
                    "openspiel_spades_games_per_second": peer_figure,
                    "load_average": load,
                    "engine_compiled": COMPILED,
                }
            )
        )
        return 0
    print("engine:", "compiled (mypyc)" if COMPILED else "Python source (an editable install; see the docstring)")
    print(f"load average (1, 5, 15 min): {_load_text(load['before'])} before, {_load_text(load['after'])} after")
    if peer_figure is None:
        print("OpenSpiel spades: not measured (pip install open_spiel)")
    else:
        print(f"OpenSpiel spades, random full games/s (median of {len(peers)} slices): {peer_figure:8.0f}")
    for name, rate in figures.items():
        ratio = ""
        if name in ratios:
            low, high = spreads[name]
            ratio = f"  {ratios[name]:4.2f}x OpenSpiel (median of paired slices; {low:4.2f}-{high:4.2f})"
        print(f"dehla {name:<20} random hands/s: {rate:8.0f}{ratio}")
    if ratios:
        print(f"lowest ratio: {min(ratios.values()):4.2f}x (target 1.5x)")
    return 0


def _load_average() -> list[float] | None:
    """The machine's load average, to print beside the figures (they mean little on a busy machine)."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # pragma: no cover - not available on every platform
        return None


def _load_text(load: list[float] | None) -> str:
    return "unknown" if load is None else ", ".join(f"{value:.2f}" for value in load)


if __name__ == "__main__":
    sys.exit(main())
