"""``dehla arena``: bots play duplicate deals (and matches) against each other; a report with 95% intervals.

Thin shell over ``dehla.arena``: checks every argument before any work is
done (bot and preset names, counts, the Ray address, the output directory),
shows a progress bar with ETA, then writes results.json, results.csv and the
win-rate plots.  See ``docs/arena.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dehla.arena.executors import check_ray_address
from dehla.arena.games import ArenaConfig
from dehla.arena.report import summary_lines
from dehla.arena.runner import BACKENDS, ArenaRun, check_writable_dir, check_writable_file, run_arena, write_outputs
from dehla.bots import BOTS, bot_names
from dehla.cli.common import positive_int, positive_seconds, read_rules, seed_value
from dehla.errors import DehlaError
from dehla.play import close_bots
from dehla.protocol.host import make_player
from dehla.protocol.messages import DEFAULT_MOVE_TIMEOUT
from dehla.rules import PRESETS

#: Deals played when neither --deals nor --matches is given.
DEFAULT_DEALS = 100


def _bots_help() -> str:
    listed = ", ".join(f"{name} (level {BOTS[name].level})" for name in bot_names())
    return f"comma-separated bots, two or more: {listed}, or cmd:COMMAND for an outside program"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "arena",
        help="bots play duplicate deals against each other; win rates with 95%% intervals, Elo, plots",
        description=(
            "Measure bots against each other. Each deal is played twice with the teams' seats swapped (duplicate), "
            "so the luck of the cards cancels; with more than two bots every pair meets (round robin) and Elo "
            "ratings are fitted. Reports hand-win and match-win rates, tens per hand, sweeps, kots and whitewashes "
            "with 95% confidence intervals, writes results.json, results.csv, win_rates.png and win_rates.svg. "
            "Results are identical for a seed whatever --workers or --backend. See docs/arena.md."
        ),
    )
    parser.add_argument("--rules", default="pagat", help=f"a preset ({', '.join(PRESETS)}) or a JSON rules object")
    parser.add_argument("--bots", required=True, help=_bots_help())
    parser.add_argument(
        "--deals",
        type=positive_int,
        default=None,
        help=f"duplicate deals (single hands) per pair (default {DEFAULT_DEALS}, or none with --matches)",
    )
    parser.add_argument("--matches", type=positive_int, default=None, help="duplicate whole matches per pair")
    parser.add_argument("--seed", type=seed_value, default=1, help="seed for every deal and bot (default 1)")
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="processes to play in parallel (local default 1; with Ray: CPUs of a Ray started here)",
    )
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="local processes (default) or ray")
    parser.add_argument("--address", default=None, help="a Ray cluster's address HOST:PORT (with --backend ray)")
    parser.add_argument("--out", default="arena-results", help="directory for the results (default arena-results)")
    parser.add_argument(
        "--records",
        metavar="FILE",
        default=None,
        help="also save every hand (or match) played as dehla-record/1 JSON Lines",
    )
    parser.add_argument(
        "--move-timeout",
        type=positive_seconds,
        default=DEFAULT_MOVE_TIMEOUT,
        help=f"seconds an outside (cmd:) bot may take per move (default {DEFAULT_MOVE_TIMEOUT:g})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def split_bots(text: str) -> tuple[str, ...]:
    """Bot names separated by commas; a piece that is no bot name continues the ``cmd:`` command before it."""
    names: list[str] = []
    for piece in text.split(","):
        name = piece.strip()
        if names and names[-1].startswith("cmd:") and name not in BOTS and not name.startswith("cmd:"):
            names[-1] += "," + piece
            continue
        names.append(name)
    return tuple(names)


def _bot_list(text: str) -> tuple[str, ...]:
    names = split_bots(text)
    if any(not name for name in names):
        raise DehlaError(f"--bots {text!r} has an empty name; write names separated by commas, e.g. heuristic,random")
    if len(names) < 2:
        raise DehlaError(f"--bots needs at least two bots separated by commas, not {text!r}")
    for name in names:
        close_bots([make_player(name)])  # unknown names and missing programs fail before any work
    return names


def run(args: argparse.Namespace) -> int:
    rules = read_rules(args.rules)
    bots = _bot_list(args.bots)
    deals = args.deals if args.deals is not None else (0 if args.matches else DEFAULT_DEALS)
    matches = args.matches or 0
    if args.address and args.backend != "ray":
        raise DehlaError("--address names a Ray cluster; add --backend ray")
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise DehlaError("--backend ray needs Ray: pip install 'dehla[ray]' (or pip install ray)") from None
        if args.address:
            check_ray_address(args.address)
    out = Path(args.out)
    check_writable_dir(out)
    records = Path(args.records) if args.records else None
    if records is not None:
        check_writable_file(records)
    config = ArenaConfig(
        rules=rules,
        bots=bots,
        seed=args.seed,
        deals=deals,
        matches=matches,
        move_timeout=args.move_timeout,
        keep_records=records is not None,
    )
    what = []
    if deals:
        what.append(f"{deals} duplicate deal{'s' if deals != 1 else ''}")
    if matches:
        what.append(f"{matches} duplicate match{'es' if matches != 1 else ''}")
    print(
        f"dehla arena — {rules.name}: {', '.join(config.labels)}; {' and '.join(what)} per pair, "
        f"{len(config.pairs)} pair{'s' if len(config.pairs) != 1 else ''}, seed {args.seed}",
        file=sys.stderr,
    )
    result = _run_with_progress(config, args)
    written = write_outputs(result, out, records)
    print("\n".join(summary_lines(result.report)))
    seconds = result.report["run"]["seconds"]
    print(f"{result.report['run']['hands']} hands in {seconds:.1f} s; wrote {', '.join(str(path) for path in written)}")
    if records is not None:
        print(f"replay the records with: dehla replay {records}")
    return 0


def _run_with_progress(config: ArenaConfig, args: argparse.Namespace) -> ArenaRun:
    if args.no_progress:
        return run_arena(config, args.backend, args.workers, args.address)
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task("arena", total=config.total_legs)
        return run_arena(
            config,
            args.backend,
            args.workers,
            args.address,
            on_progress=lambda count: progress.advance(task, count),
        )


__all__ = ["add_parser", "run"]
