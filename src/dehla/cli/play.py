"""``dehla play``: a person plays a whole match in the terminal against bots.

The person sees only their seat's observation, the same view a bot gets.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from typing import TYPE_CHECKING, Any

from dehla.bots import BOTS, Bot, bot_names
from dehla.cli.common import positive_seconds, read_rules, seconds, seed_value
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.play import BotFailure, close_bots
from dehla.protocol.host import COMMAND_PREFIX, make_player
from dehla.protocol.messages import DEFAULT_MOVE_TIMEOUT
from dehla.record import to_record, write_records
from dehla.rules import PRESETS, Rules
from dehla.terminal.plain import TerminalPlayer, play_lines
from dehla.text import seat_label

if TYPE_CHECKING:
    from dehla.terminal.game import TableGame

#: The bot in every other seat unless chosen: strong enough that a first match teaches something.
DEFAULT_BOT = "heuristic"
#: Seconds a finished trick (and a collection) stays in view on the full-screen table.
DEFAULT_PAUSE = 1.6


def _bots_help() -> str:
    named = ", ".join(f"{name} (level {BOTS[name].level}, {BOTS[name].label})" for name in bot_names(for_people=True))
    return f"{named}, or cmd:COMMAND for an outside program speaking the bot protocol"


def _bots_list() -> str:
    """The registered bots, easiest first, for --list-bots."""
    lines = ["Bots (easiest first) for --partner and --opponents:"]
    for name in bot_names(for_people=True):
        info = BOTS[name]
        lines.append(f"  {name:<12} level {info.level} ({info.label}): {info.description}")
    lines.append('  cmd:COMMAND  an outside program speaking the bot protocol ("cmd:python examples/simple_bot.py")')
    return "\n".join(lines)


def _bot_title(kind: str) -> str:
    """A short name for a bot at the table: 'Heuristic', or 'Program' for an outside program."""
    return "Program" if kind.startswith(COMMAND_PREFIX) else kind.capitalize()


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play a whole match in the terminal against bots",
        description="Play a match in the terminal: you take one seat, bots take the others.",
    )
    parser.add_argument("--rules", default="pagat", help=f"a preset ({', '.join(PRESETS)}) or a JSON rules object")
    parser.add_argument("--seat", type=int, default=0, help="your seat number (default 0)")
    parser.add_argument("--seed", type=seed_value, default=None, help="random seed for the cards and the bots")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument(
        "--partner", default=DEFAULT_BOT, help=f"your partner's bot: {_bots_help()} (default {DEFAULT_BOT})"
    )
    parser.add_argument(
        "--opponents", default=DEFAULT_BOT, help=f"the opponents' bot: {_bots_help()} (default {DEFAULT_BOT})"
    )
    parser.add_argument("--list-bots", action="store_true", help="list the bots by level, then exit")
    parser.add_argument(
        "--move-timeout",
        type=positive_seconds,
        default=DEFAULT_MOVE_TIMEOUT,
        help=f"seconds an outside (cmd:) bot may take per move (default {DEFAULT_MOVE_TIMEOUT:g})",
    )
    parser.add_argument("--save", metavar="FILE", help="write the match record (dehla-record/1) to FILE at the end")
    parser.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line-by-line play instead of the full-screen table (for screen readers and pipes; "
        "used anyway when input or output is not a terminal)",
    )
    parser.add_argument(
        "--pause",
        type=pause_seconds,
        default=DEFAULT_PAUSE,
        help=f"seconds a finished trick stays in view on the full-screen table, 0 to wait for a key "
        f"(default {DEFAULT_PAUSE:g})",
    )
    parser.set_defaults(run=run)


def pause_seconds(text: str) -> float:
    """``--pause``: a number of seconds, 0 or more (0 waits for a key)."""
    value = seconds(text)
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"{text} must be 0 or a positive number of seconds")
    return value


def full_screen_possible() -> bool:
    """The full-screen table needs a terminal on both ends and one that can draw (not ``TERM=dumb``)."""
    try:
        terminal = sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False
    return terminal and os.environ.get("TERM", "") != "dumb"


def _seat_names(rules: Rules, args: argparse.Namespace) -> list[str]:
    names = []
    for seat in range(rules.players):
        if seat == args.seat:
            names.append(args.name)
        else:
            kind = args.partner if seat % 2 == args.seat % 2 else args.opponents
            names.append(f"{_bot_title(kind)}{seat}")
    return names


def _bots(rules: Rules, args: argparse.Namespace, rng: random.Random) -> list[Bot | None]:
    """A player for every seat but the person's (``None`` there), seeded from ``rng`` in seat order."""
    players: list[Bot | None] = []
    for seat in range(rules.players):
        if seat == args.seat:
            players.append(None)
        else:
            kind = args.partner if seat % 2 == args.seat % 2 else args.opponents
            players.append(make_player(kind, rng.getrandbits(64), move_timeout=args.move_timeout))
    return players


def run(args: argparse.Namespace) -> int:
    if args.list_bots:
        print(_bots_list())
        return 0
    rules = read_rules(args.rules)
    if not 0 <= args.seat < rules.players:
        raise DehlaError(f"--seat must be a seat number 0..{rules.players - 1}, not {args.seat}")
    for kind in (args.partner, args.opponents):
        if kind in BOTS and BOTS[kind].measurement_only:
            raise DehlaError(f"{kind!r} sees every card and is for measurement only; play against {_bots_help()}")
    close_bots([make_player(args.partner), make_player(args.opponents)])  # names checked before the match starts
    if args.plain or not full_screen_possible():
        return _run_plain(rules, args)
    return _run_table(rules, args)


def _run_table(rules: Rules, args: argparse.Namespace) -> int:
    """The full-screen table (Textual); when it closes, the same closing words as the line-by-line mode."""
    from dehla.solver import warm_up
    from dehla.terminal.app import TableApp
    from dehla.terminal.game import TableGame

    warm_up()  # the hint and any search-bot seat: the solver's kernel loads (or compiles aside), never mid-move
    rng = random.Random(args.seed)
    names = _seat_names(rules, args)
    players = _bots(rules, args, rng)
    game = TableGame(rules, players, args.seat, names, rng)
    app = TableApp(game, symbols=not args.ascii, pause=args.pause or None, save_path=args.save)
    try:
        outcome = app.run()
    finally:
        close_bots(players)
    if outcome is None:  # the app could not start, or ended without a word
        outcome_lines: tuple[str, ...] = ("Match abandoned.",)
        status = "abandoned"
    else:
        outcome_lines, status = outcome.lines, outcome.status
    for line in outcome_lines:
        print(line)
    if args.save:
        _save_game(args.save, game)
    return 1 if status == "failed" else 0


def _save_game(path: str, game: TableGame) -> None:
    try:
        game.save(path)
    except OSError as error:
        print(f"could not save the record to {path}: {error}", file=sys.stderr)
        return
    print(f"Record saved to {path} (replay it with: dehla replay {path})")


def _run_plain(rules: Rules, args: argparse.Namespace) -> int:
    """Today's line-by-line play: a prompt, the table in words, the events as lines."""
    from dehla.rules_text import explain

    rng = random.Random(args.seed)
    names = _seat_names(rules, args)
    human = TerminalPlayer(names, lambda: "\n".join(explain(rules)), symbols=not args.ascii)
    bots = _bots(rules, args, rng)
    players: list[Bot] = [human if bot is None else bot for bot in bots]
    print(f"dehla play — {rules.preset}. You are seat {args.seat}, team {args.seat % 2}. Type 'help' for help.")
    match = Match.new(rules, rng)
    print(f"First dealer by lot: {seat_label(match.dealer, names)}")
    try:
        play_lines(match, players, rng, names, args.seat)
    except KeyboardInterrupt:
        print("\nMatch abandoned.")
        _save(args.save, match, names)
        return 0
    except BotFailure as failure:
        print(f"\n{failure}")
        print(f"Match over: team {failure.team} loses, as its bot failed.")
        print("Your team wins!" if failure.team != args.seat % 2 else "The other team wins.")
        _save(args.save, match, names)
        return 1
    finally:
        close_bots(players)
    _save(args.save, match, names)
    return 0


def _save(path: str | None, match: Match, names: list[str]) -> None:
    if not path:
        return
    try:
        write_records(path, [to_record(match, names)])
    except OSError as error:
        print(f"could not save the record to {path}: {error}", file=sys.stderr)
        return
    print(f"Record saved to {path} (replay it with: dehla replay {path})")


__all__ = ["add_parser", "run"]
