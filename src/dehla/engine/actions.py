"""The decisions a player makes (SPEC 4.2) and the chance outcome that deals a hand.

Each action has one text form used everywhere (records, the bot protocol, the
terminal prompt, web messages): ``call H``, ``hide 10H``, ``reveal``, ``10H``.
Actions are small immutable values; the common ones are interned so that legal
action lists cost nothing to build.
"""

from __future__ import annotations

from collections.abc import Sequence

from dehla.cards import ALL_CARDS, Card, Suit, cards_text, parse_card, parse_suit
from dehla.errors import CardError, DehlaError

__all__ = ["Action", "Play", "Call", "Hide", "Reveal", "Deal", "PLAYS", "CALLS", "HIDES", "REVEAL", "parse_action"]


class _Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


class Play(_Frozen):
    """Play a card to the trick."""

    __slots__ = ("card",)
    card: Card

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", Card(card))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Play and other.card == self.card

    def __hash__(self) -> int:
        return self.card

    def __str__(self) -> str:
        return str(self.card)

    def __repr__(self) -> str:
        return f"Play({self.card})"

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Play, (int(self.card),))


class Call(_Frozen):
    """Name the trump suit (called trump)."""

    __slots__ = ("suit",)
    suit: Suit

    def __init__(self, suit: int) -> None:
        object.__setattr__(self, "suit", Suit(suit))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Call and other.suit == self.suit

    def __hash__(self) -> int:
        return 100 + self.suit

    def __str__(self) -> str:
        return f"call {self.suit.name}"

    def __repr__(self) -> str:
        return f"Call({self.suit.name})"

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Call, (int(self.suit),))


class Hide(_Frozen):
    """Lay a card face down as the hidden trump (band hukum)."""

    __slots__ = ("card",)
    card: Card

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", Card(card))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Hide and other.card == self.card

    def __hash__(self) -> int:
        return 200 + self.card

    def __str__(self) -> str:
        return f"hide {self.card}"

    def __repr__(self) -> str:
        return f"Hide({self.card})"

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Hide, (int(self.card),))


class Reveal(_Frozen):
    """Ask for the hidden trump card to be turned up (band hukum)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Reveal

    def __hash__(self) -> int:
        return 300

    def __str__(self) -> str:
        return "reveal"

    def __repr__(self) -> str:
        return "Reveal()"


class Deal(_Frozen):
    """The chance outcome that starts a hand: every seat's cards, and the open-draw card if any.

    ``hands[s]`` lists seat ``s``'s cards in dealing order: for staged deals and
    called trump the first five are the opening packet.
    """

    __slots__ = ("hands", "open_draw", "checked_for")
    hands: tuple[tuple[Card, ...], ...]
    open_draw: Card | None
    #: The game (``dehla.engine.game.Game``) this deal was made for by the engine itself (so it need not be
    #: checked again), or None.
    checked_for: object

    def __init__(self, hands: Sequence[Sequence[int]], open_draw: int | None = None) -> None:
        object.__setattr__(self, "hands", tuple(tuple(Card(card) for card in hand) for hand in hands))
        object.__setattr__(self, "open_draw", None if open_draw is None else Card(open_draw))
        object.__setattr__(self, "checked_for", None)

    @classmethod
    def trusted(cls, hands: tuple[tuple[Card, ...], ...], open_draw: Card | None, game: object) -> Deal:
        """A deal the engine made itself for ``game``: interned cards in tuples, no conversion or re-check."""
        deal = object.__new__(cls)
        _set_deal_hands(deal, hands)  # the slots' own setters: cheaper than object.__setattr__ by name
        _set_deal_open_draw(deal, open_draw)
        _set_deal_checked_for(deal, game)
        return deal

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Deal and other.hands == self.hands and other.open_draw == self.open_draw

    def __hash__(self) -> int:
        return hash((self.hands, self.open_draw))

    def __str__(self) -> str:
        text = " | ".join(cards_text(hand) for hand in self.hands)
        return f"deal {text}" + (f" (open draw {self.open_draw})" if self.open_draw is not None else "")

    def __repr__(self) -> str:
        return f"Deal({str(self)!r})"

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (Deal, ([list(map(int, hand)) for hand in self.hands], self.open_draw))


_set_deal_hands = Deal.__dict__["hands"].__set__
_set_deal_open_draw = Deal.__dict__["open_draw"].__set__
_set_deal_checked_for = Deal.__dict__["checked_for"].__set__

Action = Play | Call | Hide | Reveal

#: Interned actions, indexed by card or suit.
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in ALL_CARDS)
CALLS: tuple[Call, ...] = tuple(Call(suit) for suit in Suit)
HIDES: tuple[Hide, ...] = tuple(Hide(card) for card in ALL_CARDS)
REVEAL = Reveal()


#: What a verb typed alone is missing, as an example.
_EXAMPLES = {"call": "call S", "hide": "hide QS", "play": "play 10H"}


def parse_action(text: str) -> Action:
    """Read an action's text form: ``10H``, ``call D``, ``hide QS``, ``reveal``."""
    if not isinstance(text, str):
        raise DehlaError(f"an action must be text such as '10H' or 'call D', not {type(text).__name__}")
    words = text.split()
    try:
        if len(words) == 1:
            if words[0].lower() == "reveal":
                return REVEAL
            verb = words[0].lower()
            if verb in _EXAMPLES:
                raise DehlaError(f"cannot read action {text!r}: say what to {verb}, such as '{_EXAMPLES[verb]}'")
            return PLAYS[parse_card(words[0])]
        if len(words) == 2:
            verb = words[0].lower()
            if verb == "call":
                return CALLS[parse_suit(words[1])]
            if verb == "hide":
                return HIDES[parse_card(words[1])]
            if verb == "play":
                return PLAYS[parse_card(words[1])]
    except CardError as error:
        raise DehlaError(f"cannot read action {text!r}: {error}") from None
    raise DehlaError(f"cannot read action {text!r}; actions are a card (10H), 'call S', 'hide CARD' or 'reveal'")
