"""``dehla`` command-line entry point: parses arguments and dispatches to a subcommand."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from dehla import __version__
from dehla.errors import DehlaError

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    """argparse that says what is wrong in one line and exits with status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from dehla.cli import admin, analyse, arena, bot, compile, play, replay, rules, serve, simulate, train, verify

    parser = _Parser(prog="dehla", description="Dehla Pakad, Mendikot and Taash's Dehla Pakad.")
    from dehla.engine import COMPILED

    engine = "engine compiled with mypyc" if COMPILED else "engine running as Python source"
    parser.add_argument("--version", action="version", version=f"dehla {__version__} ({engine})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (play, replay, verify, rules, simulate, bot, serve, arena, analyse, train, compile, admin):
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except DehlaError as error:
        print(f"dehla: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly, without a second error at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        print(f"dehla: cannot use{where}: {error.strerror or error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ndehla: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
