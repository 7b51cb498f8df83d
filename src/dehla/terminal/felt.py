"""Drawing the table: seats around an ellipse in the preset's direction, the cards of the trick between them.

Pure functions of the person's ``Observation`` (and the finished trick on show, an engine ``Trick`` event)
to Rich text, so the layout is the same at any size and can be tested without a screen.  Seat ``s+1``
plays after seat ``s``; ``direction`` only says where it sits: to the left (clockwise, seen from above
with you at the bottom) or to the right (anticlockwise), as on the web table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from dehla.cards import Card, Suit
from dehla.engine.events import Trick
from dehla.engine.observe import Observation
from dehla.terminal.words import card_text, trump_text
from dehla.text import score_text, seat_label

__all__ = ["Moment", "draw_felt", "seat_angle", "seat_point", "side_text", "suit_style", "title_text"]

RED = Style(color="red", bold=True)
BLACK = Style(bold=True)
TEAM_STYLES = (Style(color="cyan"), Style(color="magenta"))
TURN = Style(color="yellow", bold=True)
WINNER = Style(reverse=True, bold=True)
#: From this felt height on, played cards are drawn with an outline (three rows).
BOXED_FROM = 20


def suit_style(suit: Suit) -> Style:
    """Hearts and diamonds red, the black suits in the text colour (bold either way, so no colour still reads)."""
    return RED if suit in (Suit.H, Suit.D) else BLACK


@dataclass(frozen=True)
class Moment:
    """Something that holds the table for a moment: a finished trick (``trick``), or words alone (a collection).

    ``title`` is what the table's frame says about it ("Trick 3 won by Heuristic1").
    """

    title: str
    trick: Trick | None = None
    note: str = ""


def seat_angle(seat: int, me: int, players: int, direction: str) -> float:
    """The angle (radians, screen coordinates: 90° is down) at which ``seat`` sits; you at the bottom."""
    offset = (seat - me) % players
    turn = 1 if direction == "clockwise" else -1
    return math.radians(90 + turn * offset * 360 / players)


def seat_point(
    seat: int, me: int, players: int, direction: str, width: int, height: int, label_width: int = 16
) -> tuple[int, int]:
    """Where the label of ``seat`` goes on a ``width`` x ``height`` felt: its centre column and its first row.

    Labels (two rows each) lie on an ellipse touching the felt's edges, in play order around the table.
    """
    angle = seat_angle(seat, me, players, direction)
    half_x = max(0.0, (width - label_width) / 2)
    x = (width - 1) / 2 + half_x * math.cos(angle)
    y = (height - 2) / 2 * (1 + math.sin(angle))
    return _nearest(x), _nearest(y)


def _nearest(value: float) -> int:
    """Round half up, after dropping the float noise of sin and cos (so the table stays symmetric)."""
    return math.floor(round(value, 6) + 0.5)


class _Canvas:
    """A grid of characters with a style each, turned into Rich text line by line."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.cells: list[list[tuple[str, Style | None]]] = [[(" ", None)] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for index, char in enumerate(text):
            column = x + index
            if 0 <= column < self.width:
                row[column] = (char, style)

    def centred(self, x: int, y: int, parts: Sequence[tuple[str, Style | None]]) -> int:
        """Write ``parts`` centred on column ``x``, kept inside the canvas; returns the first column written."""
        length = sum(len(text) for text, _ in parts)
        first = start = min(max(0, x - length // 2), max(0, self.width - length))
        for text, style in parts:
            self.put(start, y, text, style)
            start += len(text)
        return first

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for number, row in enumerate(self.cells):
            if number:
                out.append("\n")
            run = ""
            run_style: Style | None = None
            for char, style in row:
                if style is not run_style and run:
                    out.append(run, run_style)
                    run = ""
                run_style = style
                run += char
            if run:
                out.append(run, run_style)
        return out


def _short(name: str, limit: int) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def draw_felt(
    obs: Observation,
    names: Sequence[str],
    width: int,
    height: int,
    moment: Moment | None = None,
    symbols: bool = True,
    thinking: int | None = None,
) -> Text:
    """The table as Rich text: each seat's name with its turn and dealer marks, team and cards left; the trick.

    While ``moment`` holds a finished trick, its cards are drawn instead of the (new, empty) trick in play,
    the winner's card reversed; a moment without a trick (a collection) shows its note in the middle.
    ``thinking`` is a bot seat still deciding (its name gets a "…").
    """
    canvas = _Canvas(max(1, width), max(1, height))
    players = obs.players
    crowded = (players > 4 and width < 90) or width < 40
    name_limit = max(8, min(20, width // (4 if crowded else 3)))
    plays: dict[int, Card] = dict(obs.trick)
    winner: int | None = None
    if moment is not None and moment.trick is not None:
        plays = dict(zip(moment.trick.seats, moment.trick.cards))
        winner = moment.trick.winner
    elif moment is not None:
        plays = {}
    middle_x, middle_y = (width - 1) / 2, (height - 1) / 2
    for seat in range(players):
        turn = obs.to_act == seat and moment is None
        first: list[tuple[str, Style | None]] = []
        if turn:
            first.append(("▶ ", TURN))
        first.append((_short(names[seat], name_limit), TURN if turn else Style(bold=True)))
        if seat == obs.dealer:
            first.append((" (D)", None))
        if thinking == seat and moment is None:
            first.append(("…", TURN))
        held = obs.hand_sizes[seat] + obs.undealt[seat]
        team = f"T{seat % 2}" if crowded else f"team {seat % 2}"
        second: list[tuple[str, Style | None]] = [(team, TEAM_STYLES[seat % 2]), (f" · {held} cards", None)]
        if obs.trump_hidden and obs.chooser == seat:
            second.append((" · hid trump", None))
        label_width = max(sum(len(text) for text, _ in part) for part in (first, second))
        x, y = seat_point(seat, obs.seat, players, obs.direction, width, height, label_width + 2)
        left = min(canvas.centred(x, y, first), canvas.centred(x, y + 1, second))
        if seat not in plays:
            continue
        card = plays[seat]
        boxed = height >= BOXED_FROM  # room for a card's outline: three rows, the face in the middle
        face = f" {card_text(card, symbols)} "
        size = 6 if boxed else len(face)
        card_x = (x + middle_x) / 2
        card_y = _nearest((y + 0.5 + middle_y) / 2)
        if card_y - 1 <= y + 1 and card_y + 1 >= y:  # beside the label, not over it
            start, end = left, left + label_width
            if x < middle_x:
                card_x = max(card_x, end + 1 + size / 2)
            else:
                card_x = min(card_x, start - 1 - size / 2)
        style = WINNER if seat == winner else suit_style(card.suit)
        column = _nearest(card_x)
        if boxed:
            canvas.centred(column, card_y - 1, [("┌────┐", None)])
            canvas.centred(column, card_y, [("│", None), (card_text(card, symbols).center(4), style), ("│", None)])
            canvas.centred(column, card_y + 1, [("└────┘", None)])
        else:
            canvas.centred(column, card_y, [(face, style)])
    if moment is not None and moment.trick is None and moment.note:
        row = max(0, _nearest(middle_y) - 2)  # above the side seats' labels
        canvas.centred(width // 2, row, [(_short(moment.note, max(4, width - 4)), Style(bold=True))])
    return canvas.text()


#: Observation phases while a hand is being played.
IN_HAND = ("call", "hide", "play")


def title_text(obs: Observation, names: Sequence[str]) -> Text:
    """The title line: the preset, who you are, the hand, the match score."""
    me = seat_label(obs.seat, names)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"dehla · {obs.rules.preset}", Style(bold=True))
    hand = obs.hand_number + 1 if obs.phase in IN_HAND else max(1, len(obs.results))
    text.append(f" · {me}, team {obs.team} · Hand {hand} · {score_text(obs.score, obs.rules)}")
    return text


def side_text(obs: Observation, names: Sequence[str], symbols: bool = True) -> Text:
    """The side panel: trump, the dealer, the centre, each team's tricks and tens, the score and any streak."""
    out = Text(no_wrap=False)
    out.append("Trump ", Style(bold=True))
    out.append(trump_text(obs, symbols) + "\n")
    out.append("Dealer ", Style(bold=True))
    out.append(names[obs.dealer] + "\n")
    if obs.rules.collection == "centre":
        tens = " ".join(card_text(card, symbols) for card in obs.centre if card.is_ten) or "no tens"
        out.append("Centre ", Style(bold=True))
        out.append(f"{len(obs.centre)} cards, {tens}\n")
        if obs.next_collector is not None:
            out.append(f" {names[obs.next_collector]} collects by winning the next trick\n")
    for team in (0, 1):
        mine = " (yours)" if team == obs.team else ""
        out.append(f"Team {team}{mine}\n", Style(bold=True, color="cyan" if team == 0 else "magenta"))
        tens = " ".join(card_text(card, symbols) for card in obs.captured[team] if card.is_ten)
        out.append(f" tricks {obs.tricks_won[team]} · tens {obs.tens[team]}" + (f": {tens}" if tens else "") + "\n")
    out.append(score_text(obs.score, obs.rules), Style(bold=True))
    if max(obs.streak):
        team = 0 if obs.streak[0] else 1
        out.append(f"\n streak: team {team}, {max(obs.streak)} in a row")
    return out
