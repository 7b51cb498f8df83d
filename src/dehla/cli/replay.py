"""``dehla replay FILE...``: a readable transcript, or SPEC 4.3 JSON with ``--json``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from dehla.engine.actions import Action, Deal, Hide
from dehla.engine.events import Event
from dehla.engine.state import Match
from dehla.errors import RecordError
from dehla.record import RecordEntry, parse_records, read_records, replay, replay_json
from dehla.text import describe_event, hand_text, score_text, seat_label


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="replay dehla-record/1 files: a transcript, or JSON with --json",
        description=(
            "Replay game records (dehla-record/1: one JSON object or JSON Lines per file). "
            "Prints a transcript, or with --json one JSON object per record (SPEC 4.3). "
            "A record that breaks the rules or the format gives an error naming the hand and action "
            "(0-based positions in the record) and the exit status is 1."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per record, one per line")
    parser.set_defaults(run=run)


def record_entries(files: list[str]) -> list[RecordEntry]:
    """The records of ``files`` in order, each read or with its error (``-`` reads standard input)."""
    entries: list[RecordEntry] = []
    for name in files:
        if name == "-":
            entries.extend(parse_records(sys.stdin.read(), "<stdin>"))
        else:
            entries.extend(read_records(name))
    return entries


def entry_place(entry: RecordEntry) -> str:
    """Where a record stands: its file, and its line in a JSON Lines file."""
    return entry.source if entry.line is None else f"{entry.source}:{entry.line}"


def run(args: argparse.Namespace) -> int:
    failed = False
    out = sys.stdout
    for entry in record_entries(args.files):
        if entry.error is not None:
            failed = True
            _report(out, args.json, entry.error)
            continue
        if args.json:
            try:
                match = replay(entry.data)
            except RecordError as error:
                failed = True
                _report(out, True, f"{entry_place(entry)}: {error}")
                continue
            out.write(json.dumps(replay_json(match), ensure_ascii=False) + "\n")
        else:
            lines: list[str] = []
            try:
                _transcript(entry, lines)
            except RecordError as error:
                failed = True
                out.write("\n".join(lines) + ("\n" if lines else ""))
                _report(out, False, f"{entry_place(entry)}: {error}")
                continue
            out.write("\n".join(lines) + "\n\n")
    return 1 if failed else 0


def _report(out: Any, as_json: bool, message: str) -> None:
    if as_json:
        out.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
    else:
        out.write(f"error: {message}\n")


def _transcript(entry: RecordEntry, lines: list[str]) -> None:
    data = entry.data if isinstance(entry.data, dict) else {}
    names = data.get("players") if isinstance(data.get("players"), list) else None
    rules_text = json.dumps(data.get("rules"))
    lines.append(f"Record {entry_place(entry)}: rules {rules_text}, first dealer {data.get('first_dealer')}")

    def on_step(match: Match, hand: int, index: int | None, action: Action | Deal, events: tuple[Event, ...]) -> None:
        rules = match.rules
        if isinstance(action, Deal):
            lines.append("")
            lines.append(f"Hand {hand}: {seat_label(match.dealer, names)} deals")
            for seat, cards in enumerate(action.hands):
                lines.append(f"  {seat_label(seat, names)}: {hand_text(cards)}")
            events = events[1:]
        elif isinstance(action, Hide):
            chooser = (match.dealer + 1) % match.players
            lines.append(f"  {seat_label(chooser, names)} lays {action.card} face down as the hidden trump")
        for event in events:
            text = describe_event(event, rules, names)
            if text:
                lines.append(f"  {text}")

    match = replay(entry.data, on_step)
    if not match.results and match.is_chance:
        lines.append("  (no hands)")
    if match.phase.value in ("call", "hide", "play"):
        trick = ", ".join(f"{card} ({seat_label(seat, names)})" for seat, card in match.current_trick)
        lines.append(f"  hand in progress; trick so far: {trick or '(none)'}; seat {match.to_act} to act")
    over = f"team {match.winner} won the match" if match.is_over else "the match is not over"
    lines.append(f"Match: {score_text(match.score, match.rules)}; {over}")
