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

from dehla.cli.common import positive_int, whole_number
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
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
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
    from dehla.solver.analysis import DEFAULT_NODE_LIMIT, HAND_SECONDS, analyse_record
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
                    entry.data, solver, limit, progress.update, hands=args.hands, estimates=args.estimates,
                    hand_seconds=seconds, workers=args.workers,
                )
        except DehlaError as error:
            failed = True
            _report(args.json, f"{where}: {error}")
            continue
        if args.json:
            sys.stdout.write(json.dumps(analysis.to_json(), ensure_ascii=False) + "\n")
        else:
            names = entry.data.get("players") if isinstance(entry.data, dict) else None
            sys.stdout.write(_text(analysis, where, names if isinstance(names, list) else None, args.all) + "\n")
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


def _seat(seat: int, names: list[str] | None) -> str:
    if names and seat < len(names) and isinstance(names[seat], str):
        return f"{names[seat]} (seat {seat})"
    return f"seat {seat}"


def _text(analysis: Any, where: str, names: list[str] | None, everything: bool) -> str:
    from dehla.solver.analysis import Decision, RecordAnalysis

    assert isinstance(analysis, RecordAnalysis)
    lines = [f"Analysis of {where} (rules {json.dumps(analysis.rules)}): every card known, best play by both teams."]

    def describe(decision: Decision) -> str:
        who = _seat(decision.seat, names)
        head = f"  trick {decision.trick:>2}  {who} {decision.action}"
        if not decision.solved:
            if decision.estimate is not None:
                return f"{head}: not solved; {_estimate_text(decision.estimate)}"
            return f"{head}: not solved (too big for the node limit or the hand's time budget)"
        if decision.scope == "result":
            best = " ".join(str(action) for action in decision.best)
            if decision.hand_lost and not best:
                return f"{head}: COSTS THE HAND (result solved, not the tens); the best play is beyond the node limit"
            if decision.hand_lost:
                return f"{head}: COSTS THE HAND (result solved, not the tens); best was {best}"
            return f"{head}: keeps the hand's result (result solved, not the tens)"
        if decision.value is None or decision.best_value is None:
            return f"{head}: forced"
        value = decision.value.describe()
        if decision.levels_lost == 0:
            return f"{head}: best ({value})"
        flags = []
        if decision.hand_lost:
            flags.append("COSTS THE HAND")
        if decision.tens_lost:
            flags.append(f"costs {decision.tens_lost} ten{'s' if decision.tens_lost > 1 else ''}")
        if not flags:
            flags.append("gives ground")
        best = " ".join(str(action) for action in decision.best)
        return f"{head}: {', '.join(flags)} — {value}; best was {best} ({decision.best_value.describe()})"

    legend = False
    for hand in analysis.hands:
        lines.append("")
        start = "not solved" if hand.start is None else hand.start.describe()
        lines.append(f"Hand {hand.hand} (dealer {_seat(hand.dealer, names)}): value at the start {start}")
        shown = [d for d in hand.decisions if everything or d.mistake or not d.solved]
        unsolved = sum(1 for d in hand.decisions if not d.solved)
        estimated = [d for d in hand.decisions if d.estimate is not None]
        if not everything and unsolved:
            shown = [d for d in hand.decisions if d.mistake or d.estimate is not None]
            lines.append(
                f"  {unsolved} decision(s) not solved (too big for the node limit or the hand's time budget); "
                "--nodes and --hand-seconds raise them"
            )
        if not any(d.mistake for d in shown):
            lines.append("  every solved decision kept the best value")
        lines.extend(describe(decision) for decision in shown)
        if estimated:
            legend = True
    if legend:
        lines.append("")
        lines.append(ESTIMATE_LEGEND.format(scale=_scale_text(analysis)))
    lines.append("")
    lines.append("Seats (solved decisions):")
    for seat in analysis.seats:
        accuracy = "—" if seat.accuracy is None else f"{100 * seat.accuracy:.0f}%"
        lines.append(
            f"  {_seat(seat.seat, names)}: {seat.solved}/{seat.decisions} solved, {seat.best} best ({accuracy}), "
            f"{seat.mistakes} costly: {seat.tens_lost} ten(s) and {seat.hands_lost} hand(s) lost"
        )
    if legend:
        lines.append("Estimates (the model's guesses, not exact; not counted above):")
        for seat in analysis.seats:
            lines.append(
                f"  ~ {_seat(seat.seat, names)}: {seat.estimated} decision(s) estimated, "
                f"{seat.estimated_hands_lost} look(s) like costing the hand"
            )
    return "\n".join(lines)


#: What ``~`` means, printed under the hands whenever one shows an estimate.
ESTIMATE_LEGEND = (
    "~ marks an ESTIMATE from the learned value, not the solver: the hand's expected points margin for the "
    "player's team ({scale}) under best play to the end of the trick, each ending valued by the model. "
    "Estimates can be wrong and are never counted as mistakes."
)


#: The words for an estimate's verdict (``DecisionEstimate.verdict``) other than "best".
ESTIMATE_WORDS = {
    "hand": "looks like it COSTS THE HAND",
    "close": "close to the model's best",
    "weaker": "looks weaker",
}


def _signed(margin: float) -> str:
    return f"{margin:+.2f}"


def _estimate_text(estimate: Any) -> str:
    """One decision's estimate, marked so that nobody takes it for the solver's answer."""
    from dehla.solver.analysis import DecisionEstimate

    assert isinstance(estimate, DecisionEstimate)
    value = f"~{_signed(estimate.value)}"
    if estimate.verdict == "best":
        return f"~ estimate: the model's best choice ({value})"
    best = " ".join(str(action) for action in estimate.best)
    verdict = ESTIMATE_WORDS[estimate.verdict]
    return (
        f"~ estimate: {verdict} ({value} against ~{_signed(estimate.best_value)} for {best}, "
        f"~{estimate.margin_lost:.2f} lost)"
    )


def _scale_text(analysis: Any) -> str:
    scales = sorted({d.estimate.scale for hand in analysis.hands for d in hand.decisions if d.estimate is not None})
    largest = scales[-1] if scales else 1
    return f"from -{largest} to +{largest}, the largest result of these rules"
