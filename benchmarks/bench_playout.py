"""Playout kernel speed: hands played to the end per second on one core from opening positions, beside the batch
simulator's random hands in the same run; and how often the compiled policy agrees with the ``heuristic`` bot.

``speed``: for each preset, ``--worlds`` opening positions (the hand just dealt: the call, the hide or the first
lead) are encoded once; each round copies them and plays every hand to its end with the compiled policy for
every seat (``dehla.kernel.playout.play_out``), alternating with rounds of ``Batch.play_random()`` (a random
legal action per step) on as many hands.  numba runs on one thread; times are the CPU time of the thread
(``time.thread_time``), what one core gives it however loaded the machine.  Figures are medians of ``--rounds``.

``sample``: sampled worlds a CPU second of the seat to act, on ``--positions`` positions per preset after
``--tricks`` random tricks (0: the call, the hide or the first lead): ``replay`` (each sample replayed in the
engine, ``sampled_deals`` + ``world_row``), ``fast`` (``sampled_worlds``: the first replayed, the others built
from its row), ``draw`` (``CardTracker.sample`` alone), and
``search`` (``playout_batches``: the worlds played out after every legal action, as a move does).

``agree``: every decision with a choice in ``--hands`` hands played by four ``heuristic`` bots: does the
policy, given the true position (it reads only the seat's own cards and the set of cards out), choose the
heuristic's action?  Usage::

    python benchmarks/bench_playout.py speed [--presets pagat,taash,mendikot] [--worlds 4096] [--rounds 5]
    python benchmarks/bench_playout.py sample [--presets ...] [--positions 8] [--tricks 0] [--worlds 500]
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
from dehla.bots.playout import playout_batches
from dehla.bots.sampling import sampled_deals
from dehla.bots.tracking import CardTracker
from dehla.bots.worlds import sampled_worlds, world_row
from dehla.engine.observe import Observation
from dehla.engine.state import Phase
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


def _position(preset: str, tricks: int, rng: random.Random) -> Observation:
    """The seat to act's view after ``tricks`` random tricks of a fresh deal (the call and the hide too)."""
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    while match.phase is not Phase.PLAY or len(match.hand_state().trick) or match.hand_state().tricks_played < tricks:
        match.apply(rng.choice(match.legal_actions()))
    seat = match.to_act
    assert seat is not None
    return match.observe(seat)


def _counting(limit: int) -> Any:
    """A ``more`` that says yes ``limit`` times."""
    asked = [0]

    def more() -> bool:
        asked[0] += 1
        return asked[0] <= limit

    return more


def sampling(preset: str, positions: int, tricks: int, worlds: int, seed: int) -> dict[str, float]:
    """Worlds a CPU second per way of sampling them, over ``positions`` positions (``worlds`` each)."""
    rng = random.Random(seed)
    seen = [_position(preset, tricks, rng) for _ in range(positions)]
    ways: dict[str, Any] = {
        "replay": lambda o, r, n: (world_row(match) for match in sampled_deals(o, CardTracker(o), r, _counting(n))),
        "fast": lambda o, r, n: sampled_worlds(o, CardTracker(o), r, _counting(n)),
        "draw": lambda o, r, n: (lambda t: (t.sample(r) for _ in range(n)))(CardTracker(o)),
        "search": lambda o, r, n: (
            world for values in playout_batches(o, list(o.legal_actions), r, _counting(n)) for world in values
        ),
    }
    list(ways["search"](seen[0], random.Random(0), 8))  # compile (or load) the kernels before timing
    rates = {}
    for name, way in ways.items():
        count = 0
        start = time.thread_time()
        for index, observation in enumerate(seen):
            count += sum(1 for _ in way(observation, random.Random(index), worlds))
        rates[name] = count / (time.thread_time() - start)
    return rates


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
    parser.add_argument("what", choices=("speed", "sample", "agree"))
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--tricks", type=int, default=0)
    parser.add_argument("--presets", default="pagat,taash,mendikot")
    parser.add_argument("--worlds", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for preset in args.presets.split(","):
        if args.what == "sample":
            worlds = 500 if args.worlds == 4096 else args.worlds  # (--worlds defaults to the speed mode's count)
            rates = sampling(preset, args.positions, args.tricks, worlds, args.seed)
            print(f"{preset}: worlds a second " + ", ".join(f"{name} {rate:,.0f}" for name, rate in rates.items()))
        elif args.what == "speed":
            policy, randoms = speed(preset, args.worlds, args.rounds, args.seed)
            print(f"{preset}: policy playouts {policy:,.0f} hands/s, random batch hands {randoms:,.0f} hands/s")
        else:
            same, total = agreement(preset, args.hands, args.seed)
            print(f"{preset}: policy = heuristic on {same} of {total} decisions ({100 * same / total:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
