"""``dehla play``: a person plays a whole match in the terminal against bots.

The person sees only their seat's observation, the same view a bot gets.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dehla.bots import BOTS, Bot, bot_names, make_bot
from dehla.cards import sort_hand
from dehla.cli.arena import positive_seconds
from dehla.cli.common import read_rules, seed_value
from dehla.engine.actions import Action, Hide, Play, parse_action
from dehla.engine.events import Event
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.play import BotFailure, checked_act, close_bots, play_steps
from dehla.protocol.host import COMMAND_PREFIX, make_player
from dehla.protocol.messages import DEFAULT_MOVE_TIMEOUT
from dehla.record import to_record, write_records
from dehla.rules import PRESETS, Rules
from dehla.terminal.words import hint_note, last_trick_text, why_not
from dehla.text import describe_event, hand_text, makes_trump, score_text, seat_label

if TYPE_CHECKING:
    from dehla.terminal.game import TableGame

#: The bot in every other seat unless chosen: strong enough that a first match teaches something.
DEFAULT_BOT = "heuristic"
#: Seconds a finished trick (and a collection) stays in view on the full-screen table.
DEFAULT_PAUSE = 1.6

HELP = """Type a card to play it: 10h, QS, a♦ (T for ten is fine).
Other actions when offered: 'call H' (name trump), 'hide 10H' (band hukum), 'reveal' (ask for the hidden trump).
Commands: 'hand' shows the table again, 'last' the last trick, 'rules' the rules, 'help' this text, 'quit' leaves.
'hint' shows what the hard search bot would play (it sees only what you see); where that is the heuristic's
move because no deal can be solved yet, it adds the learned value's estimate, marked '~ estimate'."""


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
        "--move-timeout", type=positive_seconds, default=DEFAULT_MOVE_TIMEOUT,
        help=f"seconds an outside (cmd:) bot may take per move (default {DEFAULT_MOVE_TIMEOUT:g})",
    )
    parser.add_argument("--save", metavar="FILE", help="write the match record (dehla-record/1) to FILE at the end")
    parser.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    parser.add_argument(
        "--plain", action="store_true",
        help="line-by-line play instead of the full-screen table (for screen readers and pipes; "
             "used anyway when input or output is not a terminal)",
    )
    parser.add_argument(
        "--pause", type=pause_seconds, default=DEFAULT_PAUSE,
        help=f"seconds a finished trick stays in view on the full-screen table, 0 to wait for a key "
             f"(default {DEFAULT_PAUSE:g})",
    )
    parser.set_defaults(run=run)


class TerminalPlayer:
    """A person at the terminal, deciding from the seat's observation only."""

    name = "person"

    def __init__(
        self,
        names: list[str],
        rules_lines: Callable[[], str],
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        symbols: bool = True,
    ) -> None:
        self.names = names
        self.rules_lines = rules_lines
        self.read = read
        self.write = write
        self.symbols = symbols

    def act(self, observation: Observation) -> Action:
        self.write(self.screen(observation))
        while True:
            try:
                text = self.read(f"{self.names[observation.seat]} > ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise KeyboardInterrupt
            if word in ("help", "?"):
                self.write(HELP)
                continue
            if word in ("hand", "table", "show"):
                self.write(self.screen(observation))
                continue
            if word == "last":
                self.write(self.last_trick(observation))
                continue
            if word == "rules":
                self.write(self.rules_lines())
                continue
            if word == "hint":
                for line in self.hint(observation).splitlines():
                    self.write(line)
                continue
            try:
                action = parse_action(text)
            except DehlaError as error:
                self.write(f"  {error}. Type 'help' for help.")
                continue
            if action in observation.legal_actions:
                return action
            self.write(f"  {action} is not allowed now: {self.why_not(observation, action)}")

    def hint(self, observation: Observation) -> str:
        """What the ``hard`` search bot would play in this seat, from this seat's observation only.

        Where that is the heuristic's move (no sampled deal could be solved this
        early), a second line says so and gives the learned value's estimate for it.
        """
        hinter: Bot | None = getattr(self, "_hinter", None)
        if hinter is None:
            hinter = self._hinter = make_bot("hard", 0)
        action = hinter.act(observation)
        lines = [f"  hint: the hard bot would play {action}"]
        _, note = hint_note(hinter, observation, action)
        if note:
            lines.append(f"  ({note})")
        return "\n".join(lines)

    def why_not(self, observation: Observation, action: Action) -> str:
        return why_not(observation, action)

    def last_trick(self, observation: Observation) -> str:
        return last_trick_text(observation, self.names)

    def screen(self, obs: Observation) -> str:
        names = self.names
        lines = ["", "─" * 72]
        trump = "not set yet" if obs.trump is None else f"{obs.trump.symbol} {obs.trump.word}"
        if obs.trump_hidden:
            trump = "hidden (band hukum)"
            if obs.hidden_card is not None:
                trump += f" — you hid {obs.hidden_card}"
        if obs.open_draw is not None:
            trump += f" (drawn {obs.open_draw})"
        unit = score_text(obs.score, obs.rules)
        streak = max(obs.streak)
        streak_text = f", streak team {0 if obs.streak[0] else 1}: {streak}" if streak else ""
        lines.append(
            f"Hand {obs.hand_number} · dealer {seat_label(obs.dealer, names)} · trump {trump} · {unit}{streak_text}"
        )
        if obs.centre or obs.next_collector is not None:
            tens = [str(card) for card in obs.centre if card.is_ten]
            collector = ""
            if obs.next_collector is not None:
                collector = f"; {seat_label(obs.next_collector, names)} collects by winning the next trick"
            lines.append(
                f"Centre: {len(obs.centre)} cards, tens: {' '.join(tens) or 'none'}{collector}"
            )
        for team in (0, 1):
            tens = [str(card) for card in obs.captured[team] if card.is_ten]
            mine = " (yours)" if team == obs.team else ""
            lines.append(
                f"Team {team}{mine}: tens {' '.join(tens) or '—'} · tricks {obs.tricks_won[team]}"
            )
        if obs.trick:
            so_far = ", ".join(f"{card} ({seat_label(seat, names)})" for seat, card in obs.trick)
            lines.append(f"Trick {len(obs.tricks) + 1}: {so_far}")
        else:
            lines.append(f"Trick {len(obs.tricks) + 1}: you lead")
        held = hand_text(obs.hand, self.symbols)
        if sum(obs.undealt):
            held += f"   (+{obs.undealt[obs.seat]} cards still to be dealt)"
        lines.append(f"Your hand: {held}")
        legal_cards = sort_hand(action.card for action in obs.legal_actions if isinstance(action, Play))
        others = [str(action) for action in obs.legal_actions if not isinstance(action, Play)]
        legal = "  ".join(others + [str(card) for card in legal_cards])
        lines.append(f"Legal: {legal}")
        return "\n".join(lines)


def pause_seconds(text: str) -> float:
    """``--pause``: a number of seconds, 0 or more (0 waits for a key)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
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
        _play(match, players, rng, names, args.seat)
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


def _play(match: Match, players: list[Bot], rng: random.Random, names: list[str], me: int) -> None:
    """The match on the shared pacing loop, unpaced: the person's prompt blocks while it waits for them."""
    rules = match.rules

    def choose(seat: int, observation: Observation) -> Action:
        return players[seat].act(observation) if seat == me else checked_act(players[seat], observation)

    def told(seat: int | None, action: Action | None, events: tuple[Event, ...]) -> None:
        if isinstance(action, Play) and seat is not None and not makes_trump(action.card, events):
            print(f"  {seat_label(seat, names)} plays {action.card}")
        elif isinstance(action, Hide) and seat is not None and seat != me:
            print(f"  {seat_label(seat, names)} lays a card face down as the hidden trump")
        for event in events:
            text = describe_event(event, rules, names)
            if text:
                print(f"  {text}")

    play_steps(match, choose, rng, told)
    print(f"\nMatch over: {score_text(match.score, rules)}.")
    assert match.winner is not None
    verdict = "Your team wins!" if match.winner == me % 2 else "The other team wins."
    print(verdict)


def _save(path: str | None, match: Match, names: list[str]) -> None:
    if not path:
        return
    try:
        write_records(path, [to_record(match, names)])
    except OSError as error:
        print(f"could not save the record to {path}: {error}", file=sys.stderr)
        return
    print(f"Record saved to {path} (replay it with: dehla replay {path})")


__all__ = ["add_parser", "run", "TerminalPlayer"]
