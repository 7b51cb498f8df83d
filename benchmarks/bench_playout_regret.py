"""How much a playout's choice loses against the exact solver's, on the same sampled worlds.

Positions come from hands played by four ``heuristic`` bots, at the first decision of a trick after
``--tricks`` tricks (each listed count), with more than one legal action.  For each position ``--worlds`` deals
consistent with the seat's observation are drawn (``sampled_deals``) and every legal action is valued in each:

* ``solver``: the hand's points margin under best play with every card known (``Solver.results``: what
  ``hard`` plays by once a deal fits its budget), the reference;
* ``policy``: the compiled policy plays every seat to the end (``dehla.kernel.playout``: what ``hard``
  plays by in the opening);
* ``policy-pts``: the same playouts valued by the points margin instead of the won hand;
* ``heur-play`` (with ``--heuristic-playouts``): the Python ``heuristic`` plays every seat to the end;
* ``end-K`` (each ``--endings`` K): the policy plays until K tricks are left, the solver the rest (what a
  playout with an exact ending would give);
* ``heuristic``: the ``heuristic`` bot's move (no worlds);
* ``gate-M`` (each ``--margins`` M): the heuristic's move unless the policy's playouts put another over M ahead.

Each method picks its best action on average over the same worlds; its *regret* is how much less the reference
gives that action than its own best (a share of the rules' largest result), and *agree* the share of positions
where it picks the reference's action.  So this measures a playout's bias alone, without its sampling noise.
Intervals: a bootstrap over hands (4,000 resamples, seeded); the paired difference of each method's regret
with the ``policy``'s.  Usage::

    python benchmarks/bench_playout_regret.py [--rules pagat] [--hands 30] [--tricks 3,4] [--worlds 16]
        [--endings 4,6] [--margins 0.05,0.1] [--heuristic-playouts] [--seed 31] [--node-limit 3000000]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from bench_estimates import bootstrap  # a sibling script, found by the path set above

from dehla import Match
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.playout import values_of
from dehla.bots.sampling import sampled_deals
from dehla.bots.tracking import CardTracker
from dehla.bots.worlds import world_row
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.features.observation import action_index, action_of
from dehla.kernel import codec
from dehla.kernel import layout as L
from dehla.kernel.playout import RESULT_WORDS, play_worlds, policy_action
from dehla.learn.value import result_scale
from dehla.solver import Solver
from dehla.solver.fast import SolveLimitReached


@dataclass(frozen=True)
class Position:
    """One position: its hand, tricks done, and each method's regret (a share of the scale) and agreement."""

    hand: int
    tricks: int
    regret: dict[str, float]
    agree: dict[str, bool]


def policy_values(matches: list[Match], actions: list[Action], team: int, points: bool = False) -> np.ndarray:
    """The compiled policy's (world, action) values: the playout the search bots use (``points``: margins)."""
    params = codec.full_params(matches[0].rules)
    worlds = np.stack([world_row(match) for match in matches])
    codes = np.array([action_index(action) for action in actions], dtype=np.int64)
    out = np.zeros((len(matches), len(codes), RESULT_WORDS), dtype=np.int64)
    play_worlds(worlds, params, codes, np.zeros(L.ROW, dtype=np.int64), np.zeros(2, dtype=np.float32), out)
    return values_of(out, team, points)


def ended_value(match: Match, action: Action, team: int, left: int, solver: Solver) -> float:
    """The policy plays after ``action`` until ``left`` tricks are left, then the solver: ``team``'s margin."""
    params = codec.full_params(match.rules)
    world = match.clone()
    world.apply(action)
    per_hand = world.rules.tricks_per_hand
    while not world.results and per_hand - len(world.tricks) > left:  # the trick in play counts as left
        world.apply(action_of(int(policy_action(world_row(world), params))))
    if world.results:
        return final_margin(world, team)
    return float(solver.results(world).margin * (1 if team == 0 else -1))


def final_margin(world: Match, team: int) -> float:
    """``team``'s points margin in the hand ``world`` has just finished."""
    result = world.results[-1]
    margin = result.points[0] - result.points[1]
    return float(margin if team == 0 else -margin)


def heuristic_value(match: Match, action: Action, team: int) -> float:
    """After ``action``, the ``heuristic`` bot plays every seat from its own observation: ``team``'s margin."""
    world = match.clone()
    world.apply(action)
    bots = [HeuristicBot(seat) for seat in range(world.rules.players)]
    while not world.results:
        seat = world.to_act
        assert seat is not None
        world.apply(bots[seat].act(world.observe(seat)))
    return final_margin(world, team)


def judge(
    observation: Observation,
    solver: Solver,
    worlds: int,
    endings: list[int],
    hand: int,
    heuristic_playouts: bool,
    margins: list[float],
) -> Position | None:
    """Value every legal action in ``worlds`` sampled deals by each method (``hand`` numbers the position and
    seeds its draws); ``None`` if none could be solved."""
    rng = random.Random(hand)
    actions = list(observation.legal_actions)
    team = observation.seat % 2
    reference: list[list[float]] = []
    kept: list[Match] = []
    drawn = 0

    def more() -> bool:
        return drawn < worlds

    for world in sampled_deals(observation, CardTracker(observation), rng, more):
        drawn += 1
        try:
            results = solver.results(world)
        except SolveLimitReached:
            continue
        reference.append([float(results.for_team(action, team)) for action in actions])
        kept.append(world)
    if not kept:
        return None
    truth = np.mean(np.array(reference), axis=0)
    scale = result_scale(observation.rules)
    values = {
        "policy": np.mean(policy_values(kept, actions, team), axis=0),
        "policy-pts": np.mean(policy_values(kept, actions, team, points=True), axis=0),
    }
    if heuristic_playouts:
        played = [[heuristic_value(world, action, team) for action in actions] for world in kept]
        values["heur-play"] = np.mean(np.array(played), axis=0)
    for left in endings:
        ended = [[ended_value(world, action, team, left, solver) for action in actions] for world in kept]
        values[f"end-{left}"] = np.mean(np.array(ended), axis=0)
    chosen = {name: int(np.argmax(row)) for name, row in values.items()}
    usual = chosen["heuristic"] = actions.index(HeuristicBot(hand).act(observation))
    for margin in margins:
        # The heuristic's move unless the playouts put another clearly ahead of it.
        ahead = values["policy"][chosen["policy"]] - values["policy"][usual] > margin
        chosen[f"gate-{margin:g}"] = chosen["policy"] if ahead else usual
    best = float(truth.max())
    regret = {name: (best - float(truth[index])) / scale for name, index in chosen.items()}
    agree = {name: bool(truth[index] == best) for name, index in chosen.items()}
    return Position(hand, len(observation.tricks), regret, agree)


def report(positions: list[Position], seed: int) -> None:
    if not positions:
        print("no position solved")
        return
    names = list(positions[0].regret)
    print(f"{len(positions)} positions of {len({p.hand for p in positions})} hands")
    print(f"{'method':<10} {'agree':>6} {'regret (share of scale) [95%]':>34} {'minus policy [95%]':>30}")
    for name in names:
        agree = sum(p.agree[name] for p in positions) / len(positions)
        mean, low, high = bootstrap(positions, lambda position, name=name: position.regret[name], seed)
        line = f"{name:<10} {agree:6.1%} {mean:+10.4f} [{low:+.4f}, {high:+.4f}]"
        if name != "policy":
            diff, dlow, dhigh = bootstrap(
                positions, lambda position, name=name: position.regret[name] - position.regret["policy"], seed
            )
            line += f"   {diff:+.4f} [{dlow:+.4f}, {dhigh:+.4f}]"
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--tricks", default="3,4", help="positions after these many tricks (comma separated)")
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--endings", default="4,6", help="tricks left to the solver in the end-K methods")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--node-limit", type=int, default=3_000_000)
    parser.add_argument("--margins", default="0.05,0.1", help="gate-M: the heuristic's move unless beaten by M")
    parser.add_argument("--heuristic-playouts", action="store_true", help="also play out with the Python heuristic")
    args = parser.parse_args(argv)
    try:
        tricks = {int(text) for text in args.tricks.split(",")}
        endings = [int(text) for text in args.endings.split(",") if text]
        margins = [float(text) for text in args.margins.split(",") if text]
    except ValueError:
        parser.error("--tricks, --endings and --margins take comma-separated numbers")
    if args.hands <= 0 or args.worlds <= 0:
        parser.error("--hands and --worlds must be positive")
    solver = Solver(node_limit=args.node_limit)
    positions: list[Position] = []
    started = time.process_time()
    try:
        for hand in range(args.hands):
            rng = random.Random(args.seed * 100_003 + hand)
            match = Match.new(args.rules, rng)
            match.apply(match.random_deal(rng))
            bots = [HeuristicBot(hand * 10 + seat) for seat in range(match.rules.players)]
            while not match.results:
                seat = match.to_act
                assert seat is not None
                observation = match.observe(seat)
                if len(match.tricks) in tricks and not observation.trick and len(observation.legal_actions) > 1:
                    judged = judge(observation, solver, args.worlds, endings, hand, args.heuristic_playouts, margins)
                    if judged is not None:
                        positions.append(judged)
                        print(
                            f"hand {hand} after {judged.tricks} tricks: "
                            + "  ".join(f"{k} {v:.3f}" for k, v in judged.regret.items())
                            + f"  ({time.process_time() - started:.0f} s)",
                            file=sys.stderr,
                        )
                match.apply(bots[seat].act(observation))
    except KeyboardInterrupt:
        print("stopped: the positions so far", file=sys.stderr)
    print(f"{args.rules}, worlds {args.worlds}, seed {args.seed}, tricks {sorted(tricks)}")
    report(positions, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
