"""Quick duplicate evaluator for tuning a bot against another: hand-win rate per preset, and move time.

Each deal is played as one hand twice, with the same cards and dealer but the
teams' seats swapped, so card luck cancels.  A hand counts as won when the
bot's team is the hand winner (a drawn hand is not won).  Prints, per preset,
the win rate with a 95% Wilson interval and the bot's mean time per decision
(``act`` only, not the engine).

    python benchmarks/bench_heuristic.py --deals 2000            # all presets
    python benchmarks/bench_heuristic.py --rules pagat,taash --deals 300 --seed 7
    python benchmarks/bench_heuristic.py --rules pagat --deals 500 --save-losses /tmp/lost.jsonl
    python benchmarks/bench_heuristic.py --rules pagat --deals 100 --bot cheat   # the ceiling against random

``--save-losses`` writes every hand the bot's team lost as a ``dehla-record/1`` line (the
player names say who sat where), so that ``dehla replay`` can show how it was lost.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from dehla.arena.stats import wilson
from dehla.bots import bot_names, make_bot
from dehla.bots.base import Bot, bind_bots
from dehla.bots.search import CheatBot
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.play import play_hand
from dehla.record import dumps_record, to_record
from dehla.rules import PRESETS, preset


class _Timed:
    """Wraps a bot and adds up the time its decisions take."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.moves = 0

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = self.bot.act(observation)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action


#: Node limit of each ``cheat`` solve by default: above it ``cheat`` plays as the heuristic (an exact
#: solve of a full Pagat deal's first trick would not finish).
CHEAT_NODES = 2_000_000


def _seat_bot(name: str, seed: int, cheat_nodes: int) -> Bot:
    if name == "cheat":
        return CheatBot(seed, node_limit=cheat_nodes)
    return make_bot(name, seed)


def _chooser(players: list[Bot], timed_seats: set[int], clock: _Timed | None) -> Callable[[int, Observation], Action]:
    """Each seat's player decides; the ``timed_seats``' decisions are timed by ``clock``."""

    def choose(seat: int, observation: Observation) -> Action:
        if clock is not None and seat in timed_seats:
            clock.bot = players[seat]
            return clock.act(observation)
        return players[seat].act(observation)

    return choose


def play_deal(
    rules_name: str,
    deal_index: int,
    seed: int,
    bot: str,
    opponent: str,
    clock: _Timed | None,
    lost: list[str] | None = None,
    cheat_nodes: int = CHEAT_NODES,
) -> list[bool]:
    """Play one deal twice (bot's team 0, then team 1); whether the bot's team won each hand.

    The records of the hands lost are appended to ``lost`` (one JSON line each) when it is given.
    A ``cheat`` seat is shown the match it plays in, and each of its solves stops at ``cheat_nodes``.
    """
    rules = preset(rules_name)
    rng = random.Random(f"{seed}:{rules_name}:{deal_index}")
    dealer = deal_index % rules.players
    deal = Match(rules, dealer).random_deal(rng)
    won = []
    for bot_team in (0, 1):
        match = Match(rules, dealer)
        match.apply(deal)
        players = []
        for seat in range(rules.players):
            name = bot if seat % 2 == bot_team else opponent
            players.append(_seat_bot(name, rng.randrange(2**32), cheat_nodes))
        bind_bots(players, match)
        timed_seats = {seat for seat in range(rules.players) if seat % 2 == bot_team}
        play_hand(match, _chooser(players, timed_seats, clock))
        won.append(match.results[0].winner == bot_team)
        if lost is not None and not won[-1]:
            names = [bot if seat % 2 == bot_team else opponent for seat in range(rules.players)]
            lost.append(dumps_record(to_record(match, [f"{name}{seat}" for seat, name in enumerate(names)])))
    return won


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="all", help="comma-separated presets, or 'all' (default)")
    parser.add_argument("--deals", type=int, default=2000, help="deals per preset, each played twice (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--bot", default="heuristic", help="bot measured (default heuristic)")
    parser.add_argument("--opponent", default="random", help="bot it plays against (default random)")
    parser.add_argument("--save-losses", metavar="FILE", help="write the hands the bot lost here (JSON Lines records)")
    parser.add_argument(
        "--cheat-nodes",
        type=int,
        default=CHEAT_NODES,
        help=f"node limit of each solve of a cheat bot (default {CHEAT_NODES:,})",
    )
    args = parser.parse_args(argv)
    names = list(PRESETS) if args.rules == "all" else [name.strip() for name in args.rules.split(",")]
    for name in names:
        if name not in PRESETS:
            parser.error(f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}")
    for name in (args.bot, args.opponent):
        if name not in bot_names():
            parser.error(f"unknown bot {name!r}; bots are: {', '.join(bot_names())}")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.cheat_nodes < 1:
        parser.error("--cheat-nodes must be at least 1")
    print(f"{args.bot} vs {args.opponent}, duplicate, {args.deals} deals x 2 hands per preset, seed {args.seed}")
    print(f"{'preset':<20} {'hands':>6} {'won':>6} {'rate':>7} {'95% interval':>17} {'ms/move':>8}")
    lost: list[str] | None = [] if args.save_losses else None
    for name in names:
        clock = _Timed(make_bot(args.bot))
        wins = hands = 0
        started = time.perf_counter()
        for index in range(args.deals):
            for won in play_deal(name, index, args.seed, args.bot, args.opponent, clock, lost, args.cheat_nodes):
                hands += 1
                wins += won
            if sys.stderr.isatty() and (index + 1) % 50 == 0:
                elapsed = time.perf_counter() - started
                eta = elapsed / (index + 1) * (args.deals - index - 1)
                print(
                    f"\r{name}: {index + 1}/{args.deals} deals, {wins / hands:.1%}, eta {eta:.0f}s ",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        if sys.stderr.isatty():
            print("\r" + " " * 70 + "\r", end="", file=sys.stderr)
        interval = wilson(wins, hands)
        low, high = interval["low"], interval["high"]
        ms = 1000 * clock.seconds / max(1, clock.moves)
        print(
            f"{name:<20} {hands:>6} {wins:>6} {wins / hands:>7.1%} {f'[{low:.1%}, {high:.1%}]':>17} {ms:>8.2f}",
            flush=True,
        )
    if args.save_losses and lost is not None:
        with open(args.save_losses, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in lost)
        print(f"{len(lost)} lost hands written to {args.save_losses}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
