"""``dehla simulate``: bots play whole matches and the records are written as JSON Lines."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from dehla.bots import bot_names
from dehla.cli.common import positive_int, read_rules, seed_value
from dehla.errors import DehlaError
from dehla.play import play_match
from dehla.protocol.host import make_player
from dehla.record import dumps_record, to_record
from dehla.rules import PRESETS


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate",
        help="bots play whole matches; records are written as JSON Lines",
        description="Bots play whole matches from a seed and write one dehla-record/1 per line.",
    )
    parser.add_argument("--rules", required=True, help=f"a preset ({', '.join(PRESETS)}) or a JSON rules object")
    parser.add_argument("--seed", required=True, type=seed_value, help="random seed (a whole number)")
    parser.add_argument("--matches", type=positive_int, default=1, help="how many matches (default 1)")
    parser.add_argument("--out", required=True, help="output file (JSON Lines); '-' for standard output")
    parser.add_argument(
        "--bots",
        default="random",
        help=f"bot name for every seat, or one per seat comma-separated ({', '.join(bot_names())})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = read_rules(args.rules)
    names = [name.strip() for name in args.bots.split(",")]
    if len(names) == 1:
        names *= rules.players
    if len(names) != rules.players:
        raise DehlaError(f"--bots needs 1 or {rules.players} names, not {len(names)}")
    for name in names:
        make_player(name)  # unknown names fail before any work is done
    rng = random.Random(args.seed)
    try:
        out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise DehlaError(f"cannot write {args.out}: {error.strerror}") from None
    try:
        for _ in range(args.matches):
            bots = [make_player(name, rng.getrandbits(64)) for name in names]
            match = play_match(rules, bots, rng)
            out.write(dumps_record(to_record(match)) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    if args.out != "-":
        print(f"wrote {args.matches} match record{'s' if args.matches != 1 else ''} to {args.out}", file=sys.stderr)
    return 0


__all__ = ["add_parser", "run"]
