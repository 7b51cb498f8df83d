"""Batch simulator speed: random legal hands per second of ``dehla.batch``, beside OpenSpiel spades, on one core.

For every preset, three ways of playing random legal hands in batches of ``--size`` hands:

* ``kernel``: ``Batch.play_random()``, the whole hand in compiled code (a legal action drawn per step);
* ``stepped``: the loop a trainer runs, one Python call per step for the whole batch:
  ``legal_mask()``, ``random_actions()``, ``step(actions)``;
* ``observed``: as ``stepped``, plus the observation vector of the seat to act (``observations()``) at every step.

Beside them, in the same run and alternating with them, random full games per second of OpenSpiel's
spades through pyspiel (``bench_engine.spades_games_per_second``), and the ratio of each figure to it
(target: 100x).  numba runs on one thread here.  Usage::

    python benchmarks/bench_batch.py [--size 4096] [--seconds 1] [--rounds 3] [--presets pagat,taash] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable

from bench_engine import _load_average, _load_text, spades_games_per_second

from dehla.batch import Batch
from dehla.rules import PRESETS

MODES = ("kernel", "stepped", "observed")


def _play_kernel(batch: Batch) -> int:
    return batch.play_random()


def _play_stepped(batch: Batch) -> int:
    actions = 0
    while not batch.done.all():
        batch.legal_mask()
        chosen = batch.random_actions()
        actions += int((chosen >= 0).sum())
        batch.step(chosen)
    return actions


def _play_observed(batch: Batch) -> int:
    actions = 0
    while not batch.done.all():
        batch.observations()
        batch.legal_mask()
        chosen = batch.random_actions()
        actions += int((chosen >= 0).sum())
        batch.step(chosen)
    return actions


PLAYERS: dict[str, Callable[[Batch], int]] = {
    "kernel": _play_kernel,
    "stepped": _play_stepped,
    "observed": _play_observed,
}


def batch_rates(preset: str, mode: str, size: int, seconds: float, seed: int) -> tuple[float, float]:
    """Hands and actions per second: whole batches dealt and played until ``seconds`` have passed."""
    batch = Batch(preset, size)
    play = PLAYERS[mode]
    hands = actions = 0
    round_number = seed * 1_000_000
    start = time.perf_counter()
    while True:
        batch.reset(seed=round_number)
        round_number += 1
        actions += play(batch)
        hands += size
        if time.perf_counter() - start >= seconds:
            break
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=4096, help="hands per batch (default 4096)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement slice (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="slices per preset and mode (default 3)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    presets = [name for name in args.presets.split(",") if name]
    for name in presets:  # compile (or load from the cache) before anything is timed
        for mode in MODES:
            batch_rates(name, mode, 64, 0.0, seed=99)
    load_before = _load_average()
    hands: dict[str, dict[str, float]] = {}
    actions: dict[str, dict[str, float]] = {}
    ratios: dict[str, dict[str, float]] = {}
    spreads: dict[str, dict[str, tuple[float, float]]] = {}  # lowest and highest paired ratio: the target's test
    peers: list[float] = []
    for name in presets:
        hands[name], actions[name], ratios[name], spreads[name] = {}, {}, {}, {}
        for mode in MODES:
            ours, per_action, pairs = [], [], []
            for round_number in range(args.rounds):
                # Short slices alternating with OpenSpiel: on a shared machine the load changes by the second.
                peer = spades_games_per_second(args.seconds / 2, seed=round_number)
                rate, action_rate = batch_rates(name, mode, args.size, args.seconds, seed=round_number)
                ours.append(rate)
                per_action.append(action_rate)
                if peer:
                    peers.append(peer)
                    pairs.append(rate / peer)
            hands[name][mode] = statistics.median(ours)
            actions[name][mode] = statistics.median(per_action)
            if pairs:
                ratios[name][mode] = statistics.median(pairs)
                spreads[name][mode] = (min(pairs), max(pairs))
    peer_figure = statistics.median(peers) if peers else None
    load = {"before": load_before, "after": _load_average()}
    if args.json:
        print(
            json.dumps(
                {
                    "size": args.size,
                    "hands_per_second": hands,
                    "actions_per_second": actions,
                    "ratio_to_openspiel": ratios,
                    "ratio_range": spreads,
                    "openspiel_spades_games_per_second": peer_figure,
                    "load_average": load,
                    "numba_threads": os.environ.get("NUMBA_NUM_THREADS"),
                }
            )
        )
        return 0
    print(f"load average (1, 5, 15 min): {_load_text(load['before'])} before, {_load_text(load['after'])} after")
    if peer_figure is None:
        print("OpenSpiel spades: not measured (pip install open_spiel)")
    else:
        print(f"OpenSpiel spades, random full games/s (median of {len(peers)} slices): {peer_figure:8.0f}")
    print(f"batches of {args.size} hands; hands/s, actions/s and x OpenSpiel (median of paired slices)")
    print(f"{'preset':<20}" + "".join(f"{mode + ' hands/s':>18}{'actions/s':>12}{'x':>7}" for mode in MODES))
    for name in presets:
        cells = "".join(
            f"{hands[name][mode]:18.0f}{actions[name][mode]:12.0f}{ratios[name].get(mode, float('nan')):7.0f}"
            for mode in MODES
        )
        print(f"{name:<20}{cells}")
    for mode in MODES:
        ranges = [spreads[name][mode] for name in presets if mode in spreads[name]]
        if ranges:
            low = min(pair[0] for pair in ranges)
            verdict = "met" if low >= 100 else "not met"
            print(
                f"{mode}: paired ratios {low:.0f}x to {max(pair[1] for pair in ranges):.0f}x "
                f"over every preset and slice (target 100x: {verdict} in this mode)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
