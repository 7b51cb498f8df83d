"""Playout kernel speed: hands played to the end per second on one core from opening positions, beside the batch
simulator's random hands in the same run; and how often the compiled policy agrees with the ``heuristic`` bot.

``speed``: for each preset, ``--worlds`` opening positions (the hand just dealt: the call, the hide or the first
lead) are encoded once; each round copies them and plays every hand to its end with the compiled policy for
every seat (``dehla.kernel.playout.play_out``), alternating with rounds of ``Batch.play_random()`` (a random
legal action per step) on as many hands.  numba runs on one thread; times are the CPU time of the thread
(``time.thread_time``), what one core gives it however loaded the machine.  Figures are medians of ``--rounds``.

``agree``: every decision with a choice in ``--hands`` hands played by four ``heuristic`` bots: does the
policy, given the true position (it reads only the seat's own cards and the set of cards out), choose the
heuristic's action?  Usage::

    python benchmarks/bench_playout.py speed [--presets pagat,taash,mendikot] [--worlds 4096] [--rounds 5]
    python benchmarks/bench_playout.py agree [--presets ...] [--hands 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from dehla import Match
from dehla.batch import Batch
from dehla.bots.heuristic import HeuristicBot
from dehla.features.observation import ACTIONS
from dehla.kernel import codec
from dehla.kernel import layout as L
from dehla.kernel.playout import RESULT_WORDS, play_out, policy_action

Rows = np.ndarray[Any, np.dtype[np.int64]]


def opening_rows(preset: str, count: int, seed: int) -> tuple[Rows, Rows]:
    """``count`` freshly dealt hands of ``preset`` as rows, and the parameter vector."""
    rng = random.Random(seed)
    rows = np.zeros((count, L.ROW), dtype=np.int64)
    params = None
    for index in range(count):
        match = Match.new(preset, rng)
        match.apply(match.random_deal(rng))
        codec.encode_phase(match.hand_state(), match.phase.value, rows[index])
        params = codec.full_params(match.rules) if params is None else params
    assert params is not None
    return rows, params


def speed(preset: str, worlds: int, rounds: int, seed: int) -> tuple[float, float]:
    """Median hands a second: policy playouts from opening positions, and the batch simulator's random hands."""
    rows, params = opening_rows(preset, worlds, seed)
    out = np.zeros((worlds, RESULT_WORDS), dtype=np.int64)
    rewards = np.zeros(2, dtype=np.float32)
    batch = Batch(preset, worlds)
    play_out(rows[:2].copy(), params, rewards, out[:2])  # compile (or load) before timing
    batch.reset(seed=0)
    batch.play_random()
    policy: list[float] = []
    randoms: list[float] = []
    for number in range(rounds):
        work = rows.copy()
        start = time.thread_time()
        play_out(work, params, rewards, out)
        policy.append(worlds / (time.thread_time() - start))
        batch.reset(seed=number + 1)
        start = time.thread_time()
        batch.play_random()
        randoms.append(worlds / (time.thread_time() - start))
    return statistics.median(policy), statistics.median(randoms)


def agreement(preset: str, hands: int, seed: int) -> tuple[int, int]:
    """Decisions with a choice where the policy picks the heuristic's action, and all such decisions."""
    rng = random.Random(seed)
    same = total = 0
    row = np.zeros(L.ROW, dtype=np.int64)
    params = None
    for hand in range(hands):
        match = Match.new(preset, rng)
        match.apply(match.random_deal(rng))
        bots = [HeuristicBot(seed * 100 + hand * 10 + seat) for seat in range(match.rules.players)]
        params = codec.full_params(match.rules) if params is None else params
        while not match.results:
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            action = bots[seat].act(observation)
            if len(observation.legal_actions) > 1:
                codec.encode_phase(match.hand_state(), match.phase.value, row)
                total += 1
                same += ACTIONS[policy_action(row, params)] == action
            match.apply(action)
    return same, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speed", "agree"))
    parser.add_argument("--presets", default="pagat,taash,mendikot")
    parser.add_argument("--worlds", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for preset in args.presets.split(","):
        if args.what == "speed":
            policy, randoms = speed(preset, args.worlds, args.rounds, args.seed)
            print(f"{preset}: policy playouts {policy:,.0f} hands/s, random batch hands {randoms:,.0f} hands/s")
        else:
            same, total = agreement(preset, args.hands, args.seed)
            print(f"{preset}: policy = heuristic on {same} of {total} decisions ({100 * same / total:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
