"""Search bot strength and speed: ``hard`` against ``heuristic`` in duplicate, and the gap to ``cheat``.

Each deal is played twice with the same cards, the bot under test holding the
even seats in one leg and the odd seats in the other, the ``heuristic`` bot the
rest (``cheat`` is bound to the true match, as it must be).  Reports the share
of hands the bot's team wins (a drawn hand counts half) with its Wilson 95%
interval, the 50th/95th/99th percentile of its move times, and how much of the
gap between the heuristic (50%) and ``cheat`` the search bot closes:
``(hard - 50%) / (cheat - 50%)``, measured on the same deals.  ``--json`` adds
each deal's score (0 to 2, both legs), so that two versions of a bot measured on
the same deals can be compared deal by deal, which needs far fewer deals to see
a difference than comparing the two rates.

A long run can be split: ``--first-deal K`` plays deals ``K`` to ``K + deals - 1``
of the seed's sequence, so two runs of 1,000 deals (``--first-deal 0`` and
``--first-deal 1000``) cover exactly the deals of one 2,000-deal run, and
``benchmarks/pool_runs.py`` joins their ``--json`` reports into one rate.  ``--parts DIR`` does that
itself for a run of hours: it plays the range in parts of ``--part-deals`` deals, keeps each part's
report in ``DIR`` as it ends, skips the parts already there (so a stopped run goes on where it
stopped, and a second process on the same ``DIR`` takes the parts the first has not claimed), and
prints the pooled result once every part is in.

Move times are given twice: wall clock, and the CPU time of the thread that
thought (``time.thread_time``), which is what one core gives the bot whatever
else the machine is doing.  ``--workers`` plays deals in that many processes
(one bot thinking per process, so each move has one core on an idle machine).
Usage::

    python benchmarks/bench_search.py [--rules pagat] [--deals 200] [--budget 0.5] [--seed 1]
                                      [--cheat] [--workers 2] [--json]
    python benchmarks/bench_search.py --bot cheat --cheat-nodes 2000000 [...]    # cheat alone
    python benchmarks/bench_search.py --deals 1000 --first-deal 1000 --json [...]  # the second half of 2,000
    python benchmarks/bench_search.py --against openspiel-ismcts [...]   # another opponent than heuristic
    python benchmarks/bench_search.py --sighted-after 3 [...]   # a control: cheat's moves once 3 tricks are done
    python benchmarks/bench_search.py --deals 2000 --parts runs/pagat-seed1 [...]  # resumable, in 20-deal parts
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling model_search.py

from model_search import ModelSearchBot  # a sibling script, found by the path set above
from pool_runs import PoolError, as_report, opponent, pool  # likewise

from dehla import Match
from dehla.arena.stats import percentile, wilson
from dehla.bots import make_bot
from dehla.bots.base import Bot, bind_bots
from dehla.bots.search import CheatBot, SearchBot, SearchSettings
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError
from dehla.play import play_hand
from dehla.rules import Rules, parse_rules

#: Appended to a search bot's name: the bot values the samples it cannot solve in time with the learned value.
MODEL = "+model"
#: Appended to a search bot's name: no playouts (the heuristic's move where nothing is solved, as before them).
NO_PLAYOUTS = "-playouts"
#: Appended to a search bot's name with a number of tricks: ``cheat`` plays once that many are done (a control).
SIGHTED = "+sighted-after-"


class SightedAfter:
    """A control, never a player: ``bot`` until ``tricks`` tricks of the hand are done, then ``cheat``, which
    sees every card and plays a double-dummy best move.  Against the plain bot on the same deals it bounds what
    any better play from that trick on (inference, search against strategy fusion) could win, and so what is
    left to the tricks before it."""

    def __init__(self, bot: SearchBot, cheat: CheatBot, tricks: int) -> None:
        self.bot, self.cheat, self.tricks = bot, cheat, tricks
        self.name = f"{bot.name}{SIGHTED}{tricks}"
        self.last_playouts = 0  # worlds the search bot played out for the last move (0 for cheat's)

    def bind(self, match: Match) -> None:
        self.cheat.bind(match)

    def act(self, observation: Observation) -> Action:
        if observation.phase == "play" and len(observation.tricks) >= self.tricks:
            self.last_playouts = 0
            return self.cheat.act(observation)
        action = self.bot.act(observation)
        self.last_playouts = self.bot.last_playouts
        return action


def make_player(kind: str, seed: int, budget: float, cheat_nodes: int) -> Bot:
    """The bot measured: a search bot with ``budget`` seconds a move, or ``cheat`` capped at ``cheat_nodes``."""
    if kind == "cheat":
        return CheatBot(seed, node_limit=cheat_nodes or None)
    if SIGHTED in kind:
        searcher, tricks = kind.split(SIGHTED)
        bot = make_player(searcher, seed, budget, cheat_nodes)
        assert isinstance(bot, SearchBot)
        return SightedAfter(bot, CheatBot(seed, node_limit=cheat_nodes or None), int(tricks))
    if kind.endswith(MODEL):
        settings = SearchSettings(playouts=False)
        return ModelSearchBot(seed, budget=budget, name=kind.removesuffix(MODEL), settings=settings)
    if kind.endswith(NO_PLAYOUTS):
        settings = SearchSettings(playouts=False)
        return SearchBot(seed, budget=budget, name=kind.removesuffix(NO_PLAYOUTS), settings=settings)
    return SearchBot(seed, budget=budget, name=kind)


def play_leg(
    rules: Rules,
    seed: int,
    kind: str,
    budget: float,
    cheat_nodes: int,
    leg: int,
    walls: list[float],
    cpus: list[float],
    against: str = "heuristic",
    worlds: list[int] | None = None,
) -> float:
    """One hand, the tested bot's team on team ``leg``, ``against`` the other; its score (1 win, 0.5 drawn, 0 loss)."""
    chance = random.Random(seed)
    match = Match.new(rules, chance)
    bots: list[Bot] = [
        make_player(kind, seed * 10 + seat, budget, cheat_nodes)
        if seat % 2 == leg
        else make_bot(against, seed * 10 + seat)
        for seat in range(rules.players)
    ]
    bind_bots(bots, match)
    match.apply(match.random_deal(chance))

    def timed(seat: int, seen: Observation) -> Action:
        wall, cpu = time.perf_counter(), time.thread_time()
        action = bots[seat].act(seen)
        if seat % 2 == leg:
            walls.append(time.perf_counter() - wall)
            cpus.append(time.thread_time() - cpu)
            played_out = getattr(bots[seat], "last_playouts", 0)
            if worlds is not None and played_out:
                worlds.append(played_out)
        return action

    play_hand(match, timed)
    winner = match.results[-1].winner
    return 0.5 if winner is None else float(winner == leg)


Share = tuple[list[int], list[float], list[float], list[float], list[int]]


def play_deals(job: tuple[str, str, float, int, int, str, list[int]]) -> Share:
    """A worker's share: both legs of each deal index; returns the indexes, their scores, the move times and the
    worlds of each move that played sampled worlds out."""
    rules_text, kind, budget, cheat_nodes, seed, against, indexes = job
    rules = parse_rules(rules_text)
    scores: list[float] = []
    walls: list[float] = []
    cpus: list[float] = []
    worlds: list[int] = []
    for index in indexes:
        deal_seed = seed * 100_003 + index
        scores.append(
            sum(
                play_leg(rules, deal_seed, kind, budget, cheat_nodes, leg, walls, cpus, against, worlds)
                for leg in (0, 1)
            )
        )
    return indexes, scores, walls, cpus, worlds


def code_version() -> dict[str, str | None]:
    """The git commit measured, and the tree of ``src/`` (the engine and bots: what split runs must share).

    ``-dirty`` is appended to the tree when ``src/`` has uncommitted changes; both are ``None`` outside git.
    """

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", *args], cwd=Path(__file__).resolve().parent, capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    tree = git("rev-parse", "HEAD:src")
    if tree and git("status", "--porcelain", "--", "../src"):
        tree += "-dirty"
    return {"commit": git("rev-parse", "HEAD"), "src_tree": tree}


def bot_label(kind: str, budget: float, cheat_nodes: int) -> str:
    """How a report names the bot measured (runs that pool must name the same)."""
    if kind == "cheat":
        return f"cheat (at most {cheat_nodes:,} nodes a solve)" if cheat_nodes else "cheat"
    return f"{kind} ({budget:g} s)"


def measure(
    rules_text: str,
    deals: int,
    seed: int,
    kind: str,
    budget: float,
    cheat_nodes: int,
    workers: int,
    first_deal: int = 0,
    against: str = "heuristic",
) -> dict[str, Any]:
    chunk = max(1, min(10, deals // (4 * workers) or 1))
    end = first_deal + deals
    jobs = [
        (rules_text, kind, budget, cheat_nodes, seed, against, list(range(start, min(end, start + chunk))))
        for start in range(first_deal, end, chunk)
    ]
    scores: list[float] = []
    by_deal: dict[int, float] = {}
    walls: list[float] = []
    cpus: list[float] = []
    worlds: list[int] = []
    started = time.perf_counter()
    label = bot_label(kind, budget, cheat_nodes)

    def collect(result: Share) -> None:
        by_deal.update(zip(result[0], result[1]))
        scores.extend(result[1])
        walls.extend(result[2])
        cpus.extend(result[3])
        worlds.extend(result[4])
        done = len(scores)
        elapsed = time.perf_counter() - started
        eta = elapsed / done * (deals - done)
        rate = sum(scores) / (2 * done)
        print(
            f"  {label}: {done}/{deals} deals, {rate:.3f}, {elapsed:.0f} s, about {eta:.0f} s to go",
            file=sys.stderr,
            flush=True,
        )

    if workers == 1:
        for job in jobs:
            collect(play_deals(job))
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for result in pool.imap_unordered(play_deals, jobs):
                collect(result)
    rate = wilson(sum(scores), 2 * deals)
    return {
        "bot": label,
        "against": against,
        "hands": 2 * deals,
        "win_rate": rate["value"],
        "low": rate["low"],
        "high": rate["high"],
        "move_p50_s": percentile(walls, 0.50),
        "move_p95_s": percentile(walls, 0.95),
        "move_p99_s": percentile(walls, 0.99),
        "cpu_p50_s": percentile(cpus, 0.50),
        "cpu_p95_s": percentile(cpus, 0.95),
        "cpu_p99_s": percentile(cpus, 0.99),
        "moves": len(walls),
        "playout_moves": len(worlds),
        "worlds_p50": percentile([float(count) for count in worlds], 0.50) if worlds else 0.0,
        "worlds_p95": percentile([float(count) for count in worlds], 0.95) if worlds else 0.0,
        "seconds": round(time.perf_counter() - started, 1),
        "deal_scores": [by_deal[index] for index in range(first_deal, end)],
    }


def make_report(rules: str, deals: int, seed: int, first_deal: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    """A run's ``--json`` report: what it measured, on which deals, with which code."""
    return {
        "rules": rules,
        "deals": deals,
        "seed": seed,
        "first_deal": first_deal,
        **code_version(),
        "results": results,
        "load_average": os.getloadavg()[0],
    }


def _claim(claim: Path) -> bool:
    """Take the part whose claim file is ``claim`` unless a live process holds it (a dead one's claim is stale)."""
    try:
        descriptor = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        try:
            holder = claim.read_text(encoding="utf-8").strip()
            if not holder:
                return False  # claimed this instant by another process
            os.kill(int(holder), 0)
            return False  # a live process plays this part
        except PermissionError:
            return False  # alive, another user's
        except (OSError, ValueError):
            claim.unlink(missing_ok=True)  # its process has ended: take the part over
            return _claim(claim)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(str(os.getpid()))
    return True


def run_in_parts(args: argparse.Namespace, tested: str, parser: argparse.ArgumentParser) -> int:
    """Play ``args``' deals in parts kept in ``args.parts``, skipping those there or held by another process;
    print the pooled result once all are in."""
    version = code_version()
    if version["src_tree"] is None or str(version["src_tree"]).endswith("-dirty"):
        parser.error("--parts needs src/ committed in git: only parts made by one committed version pool")
    folder = Path(args.parts)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"--parts: cannot make {folder}: {error}")
    end = args.first_deal + args.deals
    bounds = [(start, min(end, start + args.part_deals)) for start in range(args.first_deal, end, args.part_deals)]
    parts = [
        (start, stop, folder / f"{args.rules}-seed{args.seed}-deals{start}-{stop - 1}.json") for start, stop in bounds
    ]
    paths = [path for _, _, path in parts]
    label = bot_label(tested, args.budget, args.cheat_nodes)
    for path in paths:  # a part made by other code or for another bot is refused before hours are spent
        if path.exists():
            try:
                made = json.loads(path.read_text(encoding="utf-8"))
                found = (made.get("src_tree"), made["results"][0]["bot"], opponent(made))
            except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
                parser.error(f"--parts: cannot read {path}: {error}")
            if found != (version["src_tree"], label, args.against):
                parser.error(
                    f"--parts: {path} is a part of another run (src {found[0]}, {found[1]} vs {found[2]}); "
                    "give a new DIR or remove it"
                )
    for number, (start, stop, path) in enumerate(parts, 1):
        claim = path.with_suffix(".running")
        if path.exists() or not _claim(claim):
            continue
        if path.exists():  # ended while we claimed it
            claim.unlink(missing_ok=True)
            continue
        print(f"part {number} of {len(paths)}: deals {start} to {stop - 1}", file=sys.stderr)
        try:
            count = stop - start
            result = measure(
                args.rules, count, args.seed, tested, args.budget, args.cheat_nodes, args.workers, start, args.against
            )
            written = path.with_suffix(".tmp")
            written.write_text(json.dumps(make_report(args.rules, count, args.seed, start, [result])), encoding="utf-8")
            written.replace(path)
        finally:
            claim.unlink(missing_ok=True)
    missing = [path.name for path in paths if not path.exists()]
    if missing:
        print(
            f"{len(missing)} of {len(paths)} parts are still being played by another process (first: "
            f"{missing[0]}); run this again when it ends to join them",
            file=sys.stderr,
        )
        return 1
    try:
        pooled = pool([json.loads(path.read_text(encoding="utf-8")) for path in paths])
    except (PoolError, OSError, ValueError, KeyError) as error:
        parser.error(f"--parts: the parts in {folder} are not one run: {error}")
    if args.json:
        print(json.dumps(as_report(pooled)))
        return 0
    last = pooled["first_deal"] + pooled["deals"] - 1
    print(
        f"{args.rules}, seed {args.seed}, deals {pooled['first_deal']} to {last}, {len(paths)} parts: {pooled['bot']} "
        f"vs {pooled['against']}, {pooled['hands']} hands: wins {pooled['win_rate']:.2%} [{pooled['low']:.2%}, "
        f"{pooled['high']:.2%}]; CPU p95 a move, the slowest part: {max(pooled['cpu_p95_s_per_part']):.3f} s"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.5, help="seconds a move for the search bot")
    parser.add_argument(
        "--bot",
        default="hard",
        choices=["hard", "expert", "cheat"],
        help="the bot measured (cheat alone, to compare later with a search bot's --json run of the same deals)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="play the seed's deals from this index on (to split a long run; default 0)",
    )
    parser.add_argument("--cheat", action="store_true", help="also measure cheat against heuristic on the same deals")
    parser.add_argument(
        "--cheat-nodes",
        type=int,
        default=0,
        help="node limit of each cheat solve; above it cheat plays as the heuristic (default: none, exact everywhere)",
    )
    parser.add_argument(
        "--model",
        action="store_true",
        help="the search bot values the samples it cannot solve in time by the learned value (model_search.py)",
    )
    parser.add_argument(
        "--no-playouts",
        action="store_true",
        help="the search bot plays the heuristic's move where nothing is solved (the bot before playouts)",
    )
    parser.add_argument(
        "--against",
        default="heuristic",
        help="the opponents' bot, any registered name (e.g. openspiel-ismcts, at its stated budget); default heuristic",
    )
    parser.add_argument(
        "--sighted-after",
        type=int,
        metavar="TRICKS",
        help="a control: the search bot plays as cheat (every card seen) once TRICKS tricks of a hand are done",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes playing deals (default 1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON, with every deal's score")
    parser.add_argument(
        "--parts",
        metavar="DIR",
        help="play the deals in parts kept in DIR, skipping those already there (resumable); print the pooled result",
    )
    parser.add_argument("--part-deals", type=int, default=20, help="deals a part with --parts (default 20)")
    args = parser.parse_args()
    if args.model and args.bot == "cheat":
        parser.error("--model is for the search bots (hard, expert)")
    if args.deals < 1 or args.workers < 1 or args.budget <= 0 or args.first_deal < 0:
        parser.error("--deals and --workers must be at least 1, --budget positive and --first-deal at least 0")
    if args.parts and (args.cheat or args.part_deals < 1):
        parser.error("--parts needs --part-deals of at least 1 and measures one bot (leave out --cheat)")
    if args.bot == "cheat" and args.cheat:
        parser.error("--cheat measures cheat beside a search bot; with --bot cheat leave it out")
    parse_rules(args.rules)  # a clear error before any worker starts
    try:
        make_bot(args.against, 0)  # likewise for an unknown opponent (the registry's message lists the names)
    except DehlaError as error:
        parser.error(f"--against: {error}")
    tested = args.bot + MODEL * args.model + NO_PLAYOUTS * args.no_playouts
    if args.sighted_after is not None:
        if args.bot == "cheat" or args.model or args.sighted_after < 0:
            parser.error("--sighted-after takes a number of tricks (0 or more) and a search bot (hard, expert)")
        tested += f"{SIGHTED}{args.sighted_after}"
    if args.model and args.no_playouts:
        parser.error("--model and --no-playouts are one switch each, one at a time")
    if args.parts:
        return run_in_parts(args, tested, parser)
    results = [
        measure(
            args.rules,
            args.deals,
            args.seed,
            kind,
            args.budget,
            args.cheat_nodes,
            args.workers,
            args.first_deal,
            args.against,
        )
        for kind in ([tested, "cheat"] if args.cheat else [tested])
    ]
    report = make_report(args.rules, args.deals, args.seed, args.first_deal, results)
    if args.cheat:
        hard_rate, cheat_rate = results[0]["win_rate"], results[1]["win_rate"]
        report["gap_closed"] = (hard_rate - 0.5) / (cheat_rate - 0.5) if cheat_rate != 0.5 else None
    if args.json:
        print(json.dumps(report))
        return 0
    for item in results:
        print(
            f"{args.rules}: {item['bot']} vs {args.against}, {item['hands']} hands in duplicate: "
            f"wins {item['win_rate']:.1%} [{item['low']:.1%}, {item['high']:.1%}]; "
            f"move time p50 {item['move_p50_s']:.3f} s, p95 {item['move_p95_s']:.3f} s, p99 {item['move_p99_s']:.3f} s "
            f"(CPU p50 {item['cpu_p50_s']:.3f} s, p95 {item['cpu_p95_s']:.3f} s); "
            f"{item['seconds']:.0f} s with {args.workers} worker(s)"
        )
        if item["playout_moves"]:
            print(
                f"  {item['playout_moves']} moves played worlds out: p50 {item['worlds_p50']:,.0f}, "
                f"p95 {item['worlds_p95']:,.0f} worlds a move"
            )
    if args.cheat and report["gap_closed"] is not None:
        print(f"{args.bot} closes {report['gap_closed']:.0%} of the gap between heuristic and cheat")
    print(f"load average at the end: {report['load_average']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
