"""What the full-screen table tells of each step, in beats: log lines, then what holds the table on show.

A step (a deal or a decision) becomes a list of ``Beat``: the lines the log gains, then a ``Moment`` on the
felt (a finished trick, a centre collection: shown for the pause or until a key) or a ``Panel`` (a hand's
result: until it is closed).  The table plays the beats in order, so the log never runs ahead of what the
felt shows.  Pure functions of the step and the table's names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dehla.engine.actions import Hide, Play
from dehla.engine.events import CentreCollected, HandResult, HandStarted, MatchOver, Trick
from dehla.rules import Rules
from dehla.terminal.felt import Moment
from dehla.terminal.game import Step
from dehla.terminal.words import card_text
from dehla.text import describe_event, makes_trump, result_text, score_text, seat_label, team_label

__all__ = ["Beat", "Outcome", "Panel", "failure_panel", "step_beats"]


@dataclass(frozen=True)
class Outcome:
    """How the table ended, for the command to report: ``over``, ``abandoned`` or ``failed`` (a bot broke)."""

    status: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Panel:
    """A hand's result (or a bot's failure) in a panel; ``outcome`` is how the table ends, if it ends there."""

    title: str
    lines: tuple[str, ...]
    outcome: Outcome | None = None


@dataclass(frozen=True)
class Beat:
    """Lines for the log, then what holds the table (``None``: nothing, go on)."""

    lines: tuple[str, ...]
    hold: Moment | Panel | None = None


@dataclass(frozen=True)
class Teller:
    """Who sits where, in what words: enough to tell a step."""

    rules: Rules
    names: Sequence[str]
    me: int
    symbols: bool


def step_beats(step: Step, teller: Teller) -> list[Beat]:
    """The beats of one step: its log lines, a moment for each finished trick and collection, the result panel."""
    rules, names = teller.rules, teller.names
    lines: list[str] = []
    beats: list[Beat] = []
    if isinstance(step.action, Play) and step.seat is not None and not makes_trump(step.action.card, step.events):
        who = "You play" if step.seat == teller.me else f"{names[step.seat]} plays"
        lines.append(f"{who} {card_text(step.action.card, teller.symbols)}")
    elif isinstance(step.action, Hide) and step.seat is not None and step.seat != teller.me:
        lines.append(f"{names[step.seat]} lays a card face down as the hidden trump")
    result: HandResult | None = None
    over: MatchOver | None = None
    extra: list[str] = []
    for event in step.events:
        if isinstance(event, HandStarted):
            lines.append(
                f"Hand {event.hand + 1}: {seat_label(event.dealer, names)} deals"
                + (f", open draw {event.open_draw}" if event.open_draw is not None else "")
            )
            continue
        text = describe_event(event, rules, names)
        if isinstance(event, HandResult):
            result = event
        elif isinstance(event, MatchOver):
            over = event
        elif text and result is not None:
            extra.append(text)
        if isinstance(event, Trick):
            lines.append(trick_line(event, teller))
        elif text and not isinstance(event, HandResult):
            lines.append(text)
        if isinstance(event, Trick):
            title = f"Trick {event.number} won by {names[event.winner]}"
            if rules.collection == "centre" and event.collected_by is None:
                title += ", to the centre"
            beats.append(Beat(tuple(lines), Moment(title, event)))
            lines = []
        elif isinstance(event, CentreCollected):
            who = names[event.seat]
            tens = f"{event.tens} ten{'s' if event.tens != 1 else ''}"
            beats.append(
                Beat(
                    tuple(lines),
                    Moment(f"{who} collects the centre", None, f"{who} collects {len(event.cards)} cards, {tens}"),
                )
            )
            lines = []
    beats.append(Beat(tuple(lines), None if result is None else result_panel(result, extra, over, teller)))
    return beats


def trick_line(trick: Trick, teller: Teller) -> str:
    """A finished trick in short: ``Trick 3: 10♥ You, K♥ Heuristic1, ... — won by Heuristic1``."""
    names = teller.names
    plays = ", ".join(
        f"{card_text(card, teller.symbols)} {names[seat]}" for seat, card in zip(trick.seats, trick.cards)
    )
    line = f"Trick {trick.number}: {plays} — won by {names[trick.winner]}"
    if teller.rules.collection == "centre" and trick.collected_by is None:
        line += ", stays in the centre"
    return line


def result_panel(result: HandResult, extra: Sequence[str], over: MatchOver | None, teller: Teller) -> Panel:
    """A hand's result: tens and tricks per team, the points, what followed; the match's, if it is over."""
    rules, me = teller.rules, teller.me
    lines = []
    for team in (0, 1):
        mine = " (yours)" if team == me % 2 else ""
        lines.append(
            f"{team_label(team, rules.players, teller.names)}{mine}: tens {result.tens[team]}, "
            f"tricks {result.tricks_won[team]}"
        )
    lines += ["", result_text(result, rules, teller.names), *extra]
    outcome = None
    if over is not None:
        verdict = "Your team wins!" if over.winner == me % 2 else "The other team wins."
        lines += ["", f"Match over: {score_text(over.score, rules)}. {verdict}"]
        outcome = Outcome("over", (f"Match over: {score_text(over.score, rules)}.", verdict))
    title = f"Hand {result.hand + 1}: " + (
        "nobody scores"
        if result.winner is None
        else ("your team wins" if result.winner == me % 2 else "the other team wins")
    )
    return Panel(title, tuple(lines), outcome)


def failure_panel(failure_text: str, team: int, me: int) -> Panel:
    """A bot broke the rules or the protocol: its team loses the match."""
    lines = (
        failure_text,
        f"Match over: team {team} loses, as its bot failed.",
        "Your team wins!" if team != me % 2 else "The other team wins.",
    )
    return Panel("A bot failed", lines, Outcome("failed", lines))
