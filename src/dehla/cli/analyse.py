"""``dehla analyse RECORD``: where a recorded hand was won and lost, in the double-dummy view.

Every decision is compared with the best one a player who could see every card
would have made: the value after the card played against the value after the
best card, the plays that cost the team a ten or the hand are flagged, and
each seat is summarised.  ``--json`` prints one ``dehla-analysis/1`` object per
record, one per line, for programs (the web replay).  A decision too big to solve
shows the learned value's estimate instead, marked ``~`` and "estimate" and never
counted with the exact findings (``--no-estimates`` leaves it out).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from dehla.analysis.render import analysis_json, analysis_text
from dehla.cli.common import positive_int, seconds, whole_number
from dehla.errors import DehlaError
from dehla.record import RecordEntry, parse_records, read_records

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="double-dummy analysis of a record: each play against the best play",
        description=(
            "Analyse game records (dehla-record/1) with every card known: for each decision, the value of the "
            "card played against the best card (the hand's result, then the tens each team ends with, under best "
            "play by both teams). Flags the plays that cost the team a ten or the hand and sums them up per seat. "
            "A position too big for its full value within the node limit is judged on the hand's result alone "
            "(from trick 2 always; at trick 1 when that fits in the limit, else it is shown as not solved, with "
            "the learned value's estimate marked '~ estimate', never counted with the exact findings). Every "
            "decision from trick 2 is answered first, whatever it takes, at least whether it costs the hand; the "
            "full values (the tens) beyond the smallest searches, then trick 1, get what is left of each hand's "
            "time budget (--hand-seconds), counted from the hand's start."
        ),
    )
    parser.add_argument(
        "record", metavar="RECORD", help="a record file (one JSON object or JSON Lines); '-' reads stdin"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per record, one per line")
    parser.add_argument(
        "--nodes",
        type=positive_int,
        default=None,
        metavar="N",
        help="search nodes allowed per position (default 3000000, a few seconds)",
    )
    parser.add_argument(
        "--hand-seconds",
        type=_seconds,
        default=None,
        metavar="S",
        help="time budget of a hand for full values and trick 1; from trick 2 every decision still gets its "
        "result (default 9; 'inf' for none but --nodes)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="analyse up to N hands of a record at once, each in a process of its own with its own time budget "
        "(default 1; the machine's cores are a sensible most)",
    )
    parser.add_argument(
        "--hand",
        dest="hands",
        type=_hand_number,
        action="append",
        metavar="N",
        help="analyse hand N only (numbered from 0, as the report and the replay number them); repeat for more "
        "hands (default: every hand)",
    )
    parser.add_argument("--all", action="store_true", help="list every decision, not only the costly ones")
    parser.add_argument(
        "--no-estimates",
        dest="estimates",
        action="store_false",
        help="no model estimates for the decisions the solver cannot answer (they are shown as not solved)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def _seconds(text: str) -> float:
    value = seconds(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} must be 0 or more")
    return value


def _hand_number(text: str) -> int:
    value = whole_number(text, "a hand number")
    if value < 0:
        raise argparse.ArgumentTypeError(f"hands are numbered from 0, not {value}")
    return value


def _entries(name: str) -> list[RecordEntry]:
    if name == "-":
        return list(parse_records(sys.stdin.read(), "<stdin>"))
    return list(read_records(name))


def run(args: argparse.Namespace) -> int:
    from dehla.analysis.record import DEFAULT_NODE_LIMIT, HAND_SECONDS, analyse_record
    from dehla.solver.fast import Solver

    limit = args.nodes or DEFAULT_NODE_LIMIT
    seconds = HAND_SECONDS if args.hand_seconds is None else args.hand_seconds
    failed = False
    solver: Solver | None = None
    for entry in _entries(args.record):
        where = entry.source if entry.line is None else f"{entry.source}:{entry.line}"
        if entry.error is not None:
            failed = True
            _report(args.json, entry.error)
            continue
        if solver is None:
            solver = Solver()
        try:
            with _Progress(not args.quiet and not args.json and sys.stderr.isatty()) as progress:
                analysis = analyse_record(
                    entry.data,
                    solver,
                    limit,
                    progress.update,
                    hands=args.hands,
                    estimates=args.estimates,
                    hand_seconds=seconds,
                    workers=args.workers,
                )
        except DehlaError as error:
            failed = True
            _report(args.json, f"{where}: {error}")
            continue
        if args.json:
            sys.stdout.write(json.dumps(analysis_json(analysis), ensure_ascii=False) + "\n")
        else:
            names = entry.data.get("players") if isinstance(entry.data, dict) else None
            text = analysis_text(analysis, where, names if isinstance(names, list) else None, args.all)
            sys.stdout.write(text + "\n")
    return 1 if failed else 0


def _report(as_json: bool, message: str) -> None:
    if as_json:
        sys.stdout.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write(f"dehla analyse: {message}\n")


class _Progress:
    """A rich progress bar on stderr for a long analysis (nothing when not at a terminal)."""

    def __init__(self, shown: bool) -> None:
        self.shown = shown
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self.shown:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("analysing"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task("analyse", total=None)
        return self

    def update(self, done: int, total: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
