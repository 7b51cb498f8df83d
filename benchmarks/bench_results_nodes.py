"""Solver nodes of a hand's result asked by the points and by the winner alone, on random positions.

For each preset, random hands are played with uniformly random legal actions to a position in play after
``--min-actions`` to ``--max-actions`` actions; each position is solved by ``Solver.results`` (every legal
action's points margin) and by ``Solver.results(winner_only=True)`` (who wins alone, what the search bots ask),
each with a fresh table.  Prints the node totals, their ratio, and checks that each winner is the sign of its
margin.  Node counts are exact, so the figures repeat on any machine.  Usage::

    python benchmarks/bench_results_nodes.py [--rules taash,taash-b2b,pagat] [--positions 40] [--seed 5]
"""

from __future__ import annotations

import argparse
import random
import sys

from dehla.engine.state import Match, Phase
from dehla.rules import PRESETS
from dehla.solver.fast import SolveLimitReached, Solver


def positions(preset: str, count: int, seed: int, actions: tuple[int, int]) -> list[Match]:
    """``count`` random positions in play of ``preset`` with at least two legal actions."""
    rng = random.Random(f"{seed}-{preset}")
    found: list[Match] = []
    while len(found) < count:
        match = Match.new(preset, rng)
        match.apply(match.random_deal(rng))
        for _ in range(rng.randint(*actions)):
            if match.phase not in (Phase.CALL, Phase.HIDE, Phase.PLAY):
                break
            match.apply(rng.choice(match.legal_actions()))
        if match.phase is Phase.PLAY and len(match.legal_actions()) > 1:
            found.append(match)
    return found


def measure(preset: str, count: int, seed: int, actions: tuple[int, int], node_limit: int) -> dict[str, int]:
    """Nodes of both questions over the positions both answered within ``node_limit``; ``disagree`` counts
    actions whose winner is not the sign of their margin (0 unless the solver is wrong)."""
    points = winner = solved = disagree = 0
    for match in positions(preset, count, seed, actions):
        try:
            margins = Solver(table_bits=19, node_limit=node_limit).results(match)
            winners = Solver(table_bits=19, node_limit=node_limit).results(match, winner_only=True)
        except SolveLimitReached:
            continue
        solved += 1
        points += margins.nodes
        winner += winners.nodes
        disagree += sum(winners.actions[action] != (net > 0) - (net < 0) for action, net in margins.actions.items())
    return {"positions": solved, "points_nodes": points, "winner_nodes": winner, "disagree": disagree}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="taash,taash-b2b,pagat", help="comma-separated presets")
    parser.add_argument("--positions", type=int, default=40, help="positions per preset")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--min-actions", type=int, default=12)
    parser.add_argument("--max-actions", type=int, default=24)
    parser.add_argument("--node-limit", type=int, default=3_000_000, help="a position past it is left out")
    args = parser.parse_args(argv)
    presets = [name.strip() for name in args.rules.split(",") if name.strip()]
    unknown = [name for name in presets if name not in PRESETS]
    if unknown or not presets:
        parser.error(f"unknown presets: {', '.join(unknown) or '(none given)'}; known: {', '.join(PRESETS)}")
    if args.positions <= 0 or args.node_limit <= 0 or not 0 <= args.min_actions <= args.max_actions:
        parser.error("--positions and --node-limit must be positive, and 0 <= --min-actions <= --max-actions")
    for preset in presets:
        found = measure(preset, args.positions, args.seed, (args.min_actions, args.max_actions), args.node_limit)
        ratio = found["winner_nodes"] / found["points_nodes"] if found["points_nodes"] else float("nan")
        print(
            f"{preset}: {found['positions']} positions, nodes by the points {found['points_nodes']:,}, "
            f"by the winner {found['winner_nodes']:,} ({ratio:.2f}x); winners not the margin's sign: "
            f"{found['disagree']}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
