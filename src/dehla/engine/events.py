"""What happens automatically after a decision: the engine's events.

``Match.apply`` returns the events its action caused, in order.  Nothing here
is a decision, so none of it is ever written in a record: a replay recomputes
them by folding ``apply`` over the record's actions.

Every event is an immutable named tuple: the engine makes several per trick
and per hand, in every random playout and search, and a named tuple is built
in one step where a frozen dataclass sets each field through a call.  The
engine builds each one naming its fields (tests/test_event_order.py).
"""

from __future__ import annotations

from typing import NamedTuple, NotRequired, TypedDict

from dehla.cards import TENS_MASK, Card, Suit, cards_of

__all__ = [
    "Event",
    "HandStarted",
    "TrumpSet",
    "TrumpRevealed",
    "StagedDeal",
    "Trick",
    "CentreCollected",
    "HandEnded",
    "HandResult",
    "KotAwarded",
    "MatchOver",
    "suit_text",
    "trick_json",
    "result_json",
]


class HandStarted(NamedTuple):
    """A new hand was dealt."""

    hand: int
    dealer: int
    open_draw: Card | None


class TrumpSet(NamedTuple):
    """Trump became known to every seat: called, drawn or cut (``how``)."""

    suit: Suit
    seat: int | None
    how: str
    card: Card | None = None


class TrumpRevealed(NamedTuple):
    """The band-hukum card was turned up and went back to its chooser's hand.

    ``asked_by`` is the seat that asked, or ``None`` for an automatic reveal.
    """

    suit: Suit
    card: Card
    chooser: int
    asked_by: int | None


class StagedDeal(NamedTuple):
    """Every seat received the rest of its hand (staged deal); ``trump`` is ``None`` if nobody cut."""

    after_trick: int
    trump: Suit | None


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, its winner, and who collected at it.

    ``number`` counts from 1.  ``collected_by`` is the seat whose team took cards
    into its captures at this trick, or ``None`` when they stayed in the centre.
    """

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    collected_by: int | None

    @property
    def seats(self) -> tuple[int, ...]:
        count = len(self.cards)
        return tuple((self.leader + offset) % count for offset in range(count))


class CentreCollected(NamedTuple):
    """A team took the centre into its captures (two in a row, or the last trick)."""

    seat: int
    team: int
    mask: int  # the cards collected, as a bitmask (see dehla.cards)

    @property
    def cards(self) -> list[Card]:
        return cards_of(self.mask)

    @property
    def tens(self) -> int:
        return (self.mask & TENS_MASK).bit_count()


class HandEnded(NamedTuple):
    """The hand is over; ``early`` when Taash's result was settled before the last trick."""

    early: bool
    tricks_played: int


class HandResult(NamedTuple):
    """A scored hand: everything ``dehla replay --json`` reports for it, and the match after it."""

    hand: int
    dealer: int
    trump: Suit | None
    tricks: tuple[Trick, ...]
    tens: tuple[int, int]
    tricks_won: tuple[int, int]
    winner: int | None
    sweep: bool
    whitewash: bool
    points: tuple[int, int]
    ended_early: bool
    kot: bool
    next_dealer: int | None
    score: tuple[int, int]
    streak: tuple[int, int]


class KotAwarded(NamedTuple):
    """A team earned a kot (Pagat scoring): four tens, or ``streak_kot`` hand wins in a row."""

    team: int
    reason: str


class MatchOver(NamedTuple):
    """The match has a winner."""

    winner: int
    score: tuple[int, int]


Event = (
    HandStarted
    | TrumpSet
    | TrumpRevealed
    | StagedDeal
    | Trick
    | CentreCollected
    | HandEnded
    | HandResult
    | KotAwarded
    | MatchOver
)


def suit_text(suit: Suit | None) -> str | None:
    """A suit's name in JSON (``"H"``), or ``None``."""
    return None if suit is None else suit.name


class TrickJSON(TypedDict):
    """A finished trick as JSON (SPEC 4.3)."""

    leader: int
    cards: list[str]
    winner: int
    collected_by: int | None


class CurrentTrickJSON(TypedDict):
    """The trick in progress of an unfinished hand: who led it and the cards so far."""

    leader: int | None
    cards: list[str]


class HandResultJSON(TypedDict):
    """A scored hand as JSON (SPEC 4.3), plus ``kot`` and ``complete``.

    An unfinished hand (``complete`` false) also has its trick in progress, ``current_trick``.
    """

    dealer: int
    trump: str | None
    tricks: list[TrickJSON]
    tens: list[int]
    tricks_won: list[int]
    winner: int | None
    sweep: bool
    whitewash: bool
    points: list[int]
    ended_early: bool
    next_dealer: int | None
    kot: bool
    complete: bool
    current_trick: NotRequired[CurrentTrickJSON]


def trick_json(trick: Trick) -> TrickJSON:
    """A finished trick in the JSON form of ``dehla replay --json`` (SPEC 4.3)."""
    return {
        "leader": trick.leader,
        "cards": [str(card) for card in trick.cards],
        "winner": trick.winner,
        "collected_by": trick.collected_by,
    }


def result_json(result: HandResult) -> HandResultJSON:
    """A scored hand in the JSON form of ``dehla replay --json`` (SPEC 4.3), plus ``kot`` and ``complete``."""
    return {
        "dealer": result.dealer,
        "trump": suit_text(result.trump),
        "tricks": [trick_json(trick) for trick in result.tricks],
        "tens": list(result.tens),
        "tricks_won": list(result.tricks_won),
        "winner": result.winner,
        "sweep": result.sweep,
        "whitewash": result.whitewash,
        "points": list(result.points),
        "ended_early": result.ended_early,
        "next_dealer": result.next_dealer,
        "kot": result.kot,
        "complete": True,
    }
