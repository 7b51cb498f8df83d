"""The line-by-line terminal mode: a person types moves at a prompt and the game is told in lines of text.

For screen readers and pipes (``dehla play --plain``, or when input or output is not a terminal); the
full-screen table is ``dehla.terminal.app``.  The person sees only their seat's observation, the same view
a bot gets.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from dehla.bots import Bot, make_bot
from dehla.cards import sort_hand
from dehla.engine.actions import Action, Hide, Play, parse_action
from dehla.engine.events import Event
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.play import checked_act, play_steps
from dehla.terminal.words import hint_note, last_trick_text, why_not
from dehla.text import describe_event, hand_text, makes_trump, score_text, seat_label

__all__ = ["HELP", "TerminalPlayer", "play_lines"]

HELP = """Type a card to play it: 10h, QS, a♦ (T for ten is fine).
Other actions when offered: 'call H' (name trump), 'hide 10H' (band hukum), 'reveal' (ask for the hidden trump).
Commands: 'hand' shows the table again, 'last' the last trick, 'rules' the rules, 'help' this text, 'quit' leaves.
'hint' shows what the hard search bot would play (it sees only what you see) and what that card does (takes
the trick, keeps a ten...); where no deal can be solved yet, it adds an estimate, marked '~ estimate'."""


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

        A second line gives the move's reasons in game terms (``play.reasons``) and, where that is not a
        solved move, says so and gives the estimate for it.
        """
        hinter: Bot | None = getattr(self, "_hinter", None)
        if hinter is None:
            hinter = self._hinter = make_bot("hard", 0)
        action = hinter.act(observation)
        lines = [f"  hint: the hard bot would play {action}"]
        _, note = hint_note(hinter, observation, action)
        if note:
            lines.append(f"  {note}")
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
            lines.append(f"Centre: {len(obs.centre)} cards, tens: {' '.join(tens) or 'none'}{collector}")
        for team in (0, 1):
            tens = [str(card) for card in obs.captured[team] if card.is_ten]
            mine = " (yours)" if team == obs.team else ""
            lines.append(f"Team {team}{mine}: tens {' '.join(tens) or '—'} · tricks {obs.tricks_won[team]}")
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


def play_lines(
    match: Match,
    players: list[Bot],
    rng: random.Random,
    names: list[str],
    me: int,
    write: Callable[[str], None] = print,
) -> None:
    """Play ``match`` to its end on the shared pacing loop, unpaced (the person's prompt blocks while it waits
    for them), seat ``me`` being the person, telling each move and event in a line."""
    rules = match.rules

    def choose(seat: int, observation: Observation) -> Action:
        return players[seat].act(observation) if seat == me else checked_act(players[seat], observation)

    def told(seat: int | None, action: Action | None, events: tuple[Event, ...]) -> None:
        if isinstance(action, Play) and seat is not None and not makes_trump(action.card, events):
            write(f"  {seat_label(seat, names)} plays {action.card}")
        elif isinstance(action, Hide) and seat is not None and seat != me:
            write(f"  {seat_label(seat, names)} lays a card face down as the hidden trump")
        for event in events:
            text = describe_event(event, rules, names)
            if text:
                write(f"  {text}")

    play_steps(match, choose, rng, told)
    write(f"\nMatch over: {score_text(match.score, rules)}.")
    assert match.winner is not None
    verdict = "Your team wins!" if match.winner == me % 2 else "The other team wins."
    write(verdict)
