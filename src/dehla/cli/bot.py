"""``dehla bot NAME``: run a registered bot as a process speaking the bot protocol on stdin/stdout.

The way chess engines speak UCI: any host (the arena, ``dehla play``, another
program) can start ``dehla bot heuristic`` and talk JSON Lines to it.  See
``docs/protocol.md``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from dehla.bots import BOTS, bot_info, bot_names
from dehla.cli.common import seed_value
from dehla.errors import DehlaError
from dehla.protocol.host import COMMAND_PREFIX
from dehla.protocol.messages import PROTOCOL
from dehla.protocol.serve import serve


def _bots_text() -> str:
    return ", ".join(f"{name} (level {BOTS[name].level}, {BOTS[name].label})" for name in bot_names())


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "bot",
        help="run a registered bot as a process speaking the bot protocol (JSON Lines on stdin/stdout)",
        description=(
            f"Serve a registered bot over the bot protocol ({PROTOCOL}): one JSON message per line on standard "
            "input ('hello', 'act' with the seat's observation, 'quit'), one answer per line on standard output "
            '(\'ready\', then {"action": "10H"}). See docs/protocol.md. '
            f"Bots: {_bots_text()}."
        ),
    )
    parser.add_argument("name", metavar="NAME", help=f"a registered bot ({', '.join(bot_names())})")
    parser.add_argument(
        "--seed",
        type=seed_value,
        default=None,
        help="random seed for the bot (default: the seed the host sends in 'hello')",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.name.startswith(COMMAND_PREFIX):
        raise DehlaError("dehla bot serves a registered bot; a cmd: bot is already an outside program")
    if bot_info(args.name).uses_solver:
        from dehla.solver import warm_up

        warm_up()  # a fresh install compiles the solver's kernel aside; the first moves are heuristic meanwhile
    protocol_out = sys.stdout
    sys.stdout = sys.stderr  # a bot that prints cannot corrupt the protocol: its prints go to standard error
    try:
        return serve(args.name, args.seed, sys.stdin, protocol_out, sys.stderr)
    finally:
        sys.stdout = protocol_out


__all__ = ["add_parser", "run"]
