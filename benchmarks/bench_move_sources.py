"""Where ``hard``'s moves come from, trick by trick, and how often a played-out move differs from ``heuristic``'s.

Plays the deals of ``bench_search.py`` (``hard`` against ``heuristic``, both legs) and counts, for each
decision of the search bot by the tricks played before it (or ``call`` / ``hide``), its source
(``move_source``: forced, solved, playout, heuristic) and, for the played-out moves, how many are not
the move ``heuristic`` would make from the same observation.  Usage::

    python benchmarks/bench_move_sources.py --rules pagat --first-deal 3000 --deals 12 [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_search  # a sibling script, found by the path set above

from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import SearchBot, move_source
from dehla.engine.actions import Action
from dehla.engine.observe import Observation


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--first-deal", type=int, default=3000)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts: Counter[tuple[str, str]] = Counter()
    differs: Counter[str] = Counter()
    act = SearchBot.act

    def counted(bot: SearchBot, observation: Observation) -> Action:
        action = act(bot, observation)
        when = observation.phase if observation.phase != "play" else f"trick {len(observation.tricks) + 1}"
        source = move_source(bot, observation)
        counts[when, source] += 1
        if source == "playout":
            differs[when] += action != HeuristicBot(0).act(observation)
        return action

    SearchBot.act = counted  # type: ignore[method-assign]
    deals = list(range(args.first_deal, args.first_deal + args.deals))
    bench_search.play_deals((args.rules, "hard", 0.5, 0, args.seed, "heuristic", deals))
    moments = sorted({when for when, _ in counts}, key=lambda when: (when.startswith("trick"), len(when), when))
    print(f"{args.rules}, seed {args.seed}, deals {deals[0]} to {deals[-1]}, both legs: hard's decisions")
    for when in moments:
        by_source = {source: n for (moment, source), n in counts.items() if moment == when}
        text = ", ".join(f"{source} {n}" for source, n in sorted(by_source.items()))
        played = by_source.get("playout", 0)
        extra = f"; played out and not heuristic's move: {differs[when]} of {played}" if played else ""
        print(f"  {when}: {text}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
