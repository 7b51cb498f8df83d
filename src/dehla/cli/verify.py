"""``dehla verify FILE...``: check each hand's revealed seed against its commitment and its cards."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from dehla.cli.replay import entry_place, record_entries
from dehla.record import check_deals

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "verify",
        help="check that each hand's cards follow from its revealed seed (deals anyone can check)",
        description=(
            "Check game records (dehla-record/1) whose hands carry a revealed seed: the seed's SHA-256 must be the "
            "hand's commitment, and the cards (and the drawn card under open draw) must be those the seed deals "
            "(docs/records.md, 'Checkable deals'). Prints a verdict per hand; the exit status is 1 on any mismatch, "
            "on a file or record that cannot be read, and when no hand carries a seed."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-' reads standard input)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    failed = False
    checked = 0
    out = sys.stdout
    for entry in record_entries(args.files):
        where = entry_place(entry)
        if entry.error is not None:
            failed = True
            out.write(f"{entry.error}\n")
            continue
        for check in check_deals(entry.data):
            place = where if check.hand is None else f"{where}: hand {check.hand}"
            if check.verdict == "mismatch":
                failed = True
                out.write(f"{place}: MISMATCH: {check.message}\n")
            else:
                checked += check.verdict == "ok"
                out.write(f"{place}: {check.message}\n")
    if not checked and not failed:
        out.write("no hand carries a revealed seed: nothing was checked\n")
        return 1
    return 1 if failed else 0
