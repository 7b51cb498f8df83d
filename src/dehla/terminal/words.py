"""Words for people at a terminal table, shared by the full-screen table and the line-by-line mode.

Nothing here decides a rule: the reasons and lists are read from the seat's observation
(``legal_actions``, ``hand``, ``led``), so both terminal modes say the same thing the engine allows.
"""

from __future__ import annotations

from collections.abc import Sequence

from dehla.cards import Card, Suit
from dehla.engine.actions import Action, Play
from dehla.engine.observe import Observation
from dehla.rules import Rules
from dehla.text import seat_label

__all__ = ["GLOSSARY", "KEYS", "card_text", "hint_note", "last_trick_text", "trump_text", "why_not"]

#: The game's words, for the full-screen table's help (the line-by-line mode has its own short help).
GLOSSARY = """\
Trick: every player plays one card in turn; the first card sets the suit led. Follow suit if you can,
otherwise play any card. The highest trump wins, otherwise the highest card of the suit led.
Tens: only the four tens score. Captured tens are tens a team has taken into its pile.
Trump: the suit that beats the others. It is called (named by the player after the dealer),
cut (katte: the first card of a player who cannot follow suit sets it), drawn (open draw),
or hidden (band hukum: a card laid face down, turned up when someone asks).
Band hukum: the player after the dealer hides one card face down; its suit is trump, secret
until a player who cannot follow suit asks for it ("Ask for trump"). Only the chooser sees it.
Centre: in the Pagat games a trick's cards go to the centre; a player who wins two tricks in a
row collects the whole centre for the team, and the last trick collects what is left.
Kot: four tens in one hand, or seven hands won in a row (Pagat scoring); it wins the match.
Mendikot: all four tens in one hand; whitewash: all the tricks as well.
Teams: partners sit opposite (with 6 or 8 players the teams alternate around the table)."""

#: The keys of the full-screen table, for its help.
KEYS = """\
← → choose a card   Enter or Space play it (or hide it, under band hukum)   or click a card
type a card: 10h, qs, a♦ then Enter (T for ten is fine); 'call h', 'reveal' also work
h  hint: what the hard search bot would play and why (it sees only what you see; '~ estimate' where not solved)
l  the last trick      ?  this help      s  save the match record      Ctrl+Q  leave
After a trick or a collection, any key (or a click) goes on at once."""


def card_text(card: Card, symbols: bool = True) -> str:
    """``10♥`` with symbols, ``10H`` without (``--ascii``)."""
    return f"{_rank(card)}{card.suit.symbol if symbols else card.suit.letter}"


def _rank(card: Card) -> str:
    text = str(card)
    return text[:-1]


def suit_text(suit: Suit, symbols: bool = True) -> str:
    return f"{suit.symbol} {suit.word}" if symbols else suit.word


def trump_text(obs: Observation, symbols: bool = True) -> str:
    """Trump as this seat may know it: hidden under band hukum except to its chooser."""
    if obs.trump_hidden:
        text = "hidden (band hukum)"
        if obs.hidden_card is not None:
            text += f", you hid {card_text(obs.hidden_card, symbols)}"
        return text
    if obs.trump is None:
        return "not set yet"
    text = suit_text(obs.trump, symbols)
    if obs.open_draw is not None:
        text += f" (drawn {card_text(obs.open_draw, symbols)})"
    return text


def why_not(observation: Observation, action: Action) -> str:
    """Why ``action`` is not among the seat's legal actions, and what is."""
    legal = ", ".join(str(item) for item in observation.legal_actions)
    if isinstance(action, Play):
        if action.card not in observation.hand:
            return f"you do not hold {action.card}. Legal: {legal}"
        if observation.led is not None and any(card.suit == observation.led for card in observation.hand):
            return f"you must follow {observation.led.word}. Legal: {legal}"
    return f"legal now: {legal}"


def last_trick_text(observation: Observation, names: Sequence[str]) -> str:
    """The last finished trick of this hand in words, or that there is none yet."""
    if not observation.tricks:
        return "  no trick finished yet this hand"
    trick = observation.tricks[-1]
    plays = ", ".join(f"{card} ({seat_label(seat, names)})" for seat, card in zip(trick.seats, trick.cards))
    return f"  last trick: {plays}; won by {seat_label(trick.winner, names)}"


def team_seats(team: int, rules: Rules) -> list[int]:
    return [seat for seat in range(rules.players) if seat % 2 == team]


def hint_note(bot: object, observation: Observation, action: Action) -> tuple[str, str]:
    """A hint's ``(short, full)`` words: what the hinted action does in the position (its reasons, such as
    "It takes the trick: no one still to play can beat it."), and where a search bot's hint did not come from
    solved deals, saying so, with the estimate for it (the words are ``play.hints``', shared with the web table).

    Both empty when the hint has no reason and is exact over its samples (or forced), or the hinter is no bot;
    a bot that is no search bot gets its reasons only.
    The reasons and the estimate use the seat's observation only, as the bot does: nothing hidden is shown.
    """
    from dehla.bots import Bot, SearchBot
    from dehla.play.hints import hint_of, hint_words, reasons_words

    if not isinstance(bot, Bot):
        return "", ""
    hint = hint_of(bot, observation, action)
    if not isinstance(bot, SearchBot):  # a bot that samples no deal: nothing to say of where its move came from
        why = reasons_words(hint)
        return why, why
    return hint_words(hint)
