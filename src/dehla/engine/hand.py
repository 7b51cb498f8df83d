"""One deal in play: the cards, the trick, the trump, the captures, and the events of the hand so far.

``Hand`` is the part of a ``Match`` that one deal starts afresh.  The rules of
a trick are the trick core's (``dehla.engine.tricks``): ``Hand`` asks it which
cards may be played, who won a trick, where its cards go and what the hand
came to, and keeps the state and the events around those answers.  The match
(``dehla.engine.state``) keeps the phase, the log and the score, and gives
this state to the solver and the search bots as the core's frozen
``HandState``; the fields here are the engine's own.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from dehla.cards import SUIT_MASKS, TENS_MASK, Card, Suit, cards_of, cards_text, sort_hand, suit_tables
from dehla.engine.actions import HIDES, PLAYS, REVEAL, Action, Call, Deal, Hide, Play
from dehla.engine.events import (
    CentreCollected,
    Event,
    HandEnded,
    HandStarted,
    StagedDeal,
    Trick,
    TrumpRevealed,
    TrumpSet,
)
from dehla.engine.game import Game
from dehla.engine.scoring import Outcome, settled_outcome
from dehla.engine.tricks import (
    NOT_YET,
    OPENING_PACKET,
    collect,
    outcome,
    playable,
    sets_trump,
    staged_deal_due,
    tens_of,
    trick_winner,
)
from dehla.errors import IllegalActionError

__all__ = ["Hand", "HAND_FIELDS", "plays_of"]

# Module constants read on the hot paths are ``Final``: compiled, they are then C variables, not dict look-ups.
_SUITS: Final = tuple(Suit)
_NO_EVENTS: Final[tuple[Event, ...]] = ()
_JUST_REVEAL: Final[tuple[Action, ...]] = (REVEAL,)
#: Card bits with a 0 at index 52.  A hand's mask is ``sum(itemgetter(52, *cards)(_BITS_AND_ZERO))``: summing
#: distinct bits is the same as or-ing them, all of it runs in C, and the extra index makes sure ``itemgetter``
#: returns a tuple even for a single card.
_BITS_AND_ZERO: Final = (*(1 << card for card in range(52)), 0)
#: The ``Play`` actions of every 13-bit set of each suit's ranks, as interned tuples.
_SUIT_PLAYS: Final = suit_tables(PLAYS.__getitem__)
_S0: Final = _SUIT_PLAYS[0]
_S1: Final = _SUIT_PLAYS[1]
_S2: Final = _SUIT_PLAYS[2]
_S3: Final = _SUIT_PLAYS[3]


def plays_of(mask: int) -> tuple[Action, ...]:
    """The ``Play`` of each card of ``mask``, in card order (four look-ups in interned tuples)."""
    return _S0[mask & 0x1FFF] + _S1[mask >> 13 & 0x1FFF] + _S2[mask >> 26 & 0x1FFF] + _S3[mask >> 39]


#: Every field a ``Hand`` keeps (its slots): ``copy`` copies each, tests check none is left out.
HAND_FIELDS = (
    "game",
    "dealer",
    "hands",  # the cards each seat may play from, as masks (never the face-down card)
    "pending",  # the cards a staged deal (or a trump call) has still to give each seat
    "staged",
    "cut_open",
    "trump",
    "trump_from",
    "hidden_card",
    "hidden_suit",
    "chooser",
    "revealed_card",
    "revealed",
    "must_trump",
    "free_play",
    "to_act",
    "leader",
    "led",
    "trick",
    "trick_mask",
    "tricks",
    "centre",
    "next_collector",
    "captured",
    "tricks_won",
    "open_draw",
    "events",
    "actions",
    "outcome",
)


class Hand:
    """The state of one deal, from the deal to the last trick (or an early end): ``play`` is its hot path."""

    __slots__ = HAND_FIELDS

    def __init__(self, game: Game, dealer: int) -> None:
        self.game = game
        self.dealer = dealer
        players = game.players
        self.hands: list[int] = [0] * players
        self.pending: list[int] = [0] * players
        self.staged = False
        self.cut_open = False
        self.trump: Suit | None = None
        self.trump_from = NOT_YET
        self.hidden_card: Card | None = None
        self.hidden_suit: Suit | None = None
        self.chooser: int | None = None
        self.revealed_card: Card | None = None
        self.revealed = False
        self.must_trump = False
        self.free_play = False
        self.to_act: int | None = None
        self.leader = 0
        self.led = 0  # the suit of the trick's first card (meaningless while the trick is empty)
        self.trick: list[Card] = []
        self.trick_mask = 0
        self.tricks: list[Trick] = []
        self.centre = 0
        self.next_collector: int | None = None
        self.captured: list[int] = [0, 0]
        self.tricks_won: list[int] = [0, 0]
        self.open_draw: Card | None = None
        self.events: list[Event] = []
        self.actions: list[Action] = []
        #: The hand's result once it has ended (the last trick, or an early end), else ``None``.
        self.outcome: Outcome | None = None

    def copy(self) -> Hand:
        """An independent copy: every field, the lists as new lists (tests check none is left out)."""
        other = Hand(self.game, self.dealer)
        other.hands = list(self.hands)
        other.pending = list(self.pending)
        other.staged = self.staged
        other.cut_open = self.cut_open
        other.trump = self.trump
        other.trump_from = self.trump_from
        other.hidden_card = self.hidden_card
        other.hidden_suit = self.hidden_suit
        other.chooser = self.chooser
        other.revealed_card = self.revealed_card
        other.revealed = self.revealed
        other.must_trump = self.must_trump
        other.free_play = self.free_play
        other.to_act = self.to_act
        other.leader = self.leader
        other.led = self.led
        other.trick = list(self.trick)
        other.trick_mask = self.trick_mask
        other.tricks = list(self.tricks)
        other.centre = self.centre
        other.next_collector = self.next_collector
        other.captured = list(self.captured)
        other.tricks_won = list(self.tricks_won)
        other.open_draw = self.open_draw
        other.events = list(self.events)
        other.actions = list(self.actions)
        other.outcome = self.outcome
        return other

    # ------------------------------------------------------------------------------------------
    # The deal and the trump

    def start(self, deal: Deal, number: int) -> None:
        """Take the cards of ``deal`` (already checked), hand number ``number``; the first seat is to act."""
        game = self.game
        dealer = self.dealer
        hand, open_draw = number, deal.open_draw
        self.events.append(HandStarted(hand, dealer, open_draw))
        first = game.next_seat[dealer]
        if game.opening:
            hands = self.hands
            pending = self.pending
            for seat, cards in enumerate(deal.hands):
                bits = itemgetter(52, *cards)(_BITS_AND_ZERO)  # a 0, then each card's bit
                hands[seat] = sum(bits[1 : 1 + OPENING_PACKET])
                pending[seat] = sum(bits[1 + OPENING_PACKET :])
        else:
            self.hands = [sum(itemgetter(52, *cards)(_BITS_AND_ZERO)) for cards in deal.hands]
        self.staged = game.staged_deal
        self.cut_open = game.cut
        self.to_act = first
        if game.band:
            self.chooser = first
        elif not game.called:
            self.leader = first
            if game.open_draw:
                assert open_draw is not None
                self.open_draw = open_draw
                self.trump = suit = open_draw.suit
                self.trump_from = 0
                self.events.append(TrumpSet(suit=suit, seat=first, how="open_draw", card=open_draw))

    def hide_choices(self) -> tuple[Action, ...]:
        """The cards the chooser may lay face down: any of its first packet."""
        seat = self.to_act
        assert seat is not None
        return tuple([HIDES[card] for card in cards_of(self.hands[seat] | self.pending[seat])])

    def call(self, action: Call) -> tuple[Event, ...]:
        """The first seat names trump; every seat receives the rest of its cards and the caller leads."""
        seat = self.to_act
        assert seat is not None
        self.actions.append(action)
        self.trump = action.suit
        event = TrumpSet(suit=action.suit, seat=seat, how="called", card=None)
        hands = self.hands
        pending = self.pending
        for other in range(self.game.players):
            hands[other] |= pending[other]
            pending[other] = 0
        self.leader = seat
        self.trump_from = 0
        self.events.append(event)
        return (event,)

    def hide(self, action: Hide) -> tuple[Event, ...]:
        """The chooser lays its band-hukum card face down, then leads the first trick."""
        seat = self.to_act
        assert seat is not None
        bit = 1 << action.card
        if not self.hands[seat] & bit:
            raise IllegalActionError(f"seat {seat} cannot hide {action.card}: it does not hold that card")
        self.actions.append(action)
        self.hands[seat] ^= bit
        self.hidden_card = card = action.card
        self.hidden_suit = _SUITS[card // 13]
        self.leader = seat
        events: list[Event] = []
        if not self.hands[seat]:
            self.hidden_turn(seat, events)
        self.events.extend(events)
        return tuple(events)

    def can_ask_reveal(self) -> bool:
        """May the seat to act ask for the band-hukum card?  Only a player who cannot follow, under ``hidden``."""
        if self.hidden_card is None or not self.game.ask_reveal or not self.trick:
            return False
        seat = self.to_act
        assert seat is not None
        return not self.hands[seat] & SUIT_MASKS[self.led]

    def reveal(self) -> tuple[Event, ...]:
        """The seat to act asks for the band-hukum card (checked by the caller); it must then trump if it can."""
        seat = self.to_act
        self.actions.append(REVEAL)
        events: list[Event] = []
        self.turn_up(seat, events)
        self.must_trump = True
        self.events.extend(events)
        return tuple(events)

    def why_no_reveal(self) -> str:
        if not self.game.band:
            return "there is no hidden trump under these rules"
        if self.game.auto_reveal:
            return "the trump card is turned up automatically under these rules"
        if self.hidden_card is None:
            return "the trump is already revealed"
        if not self.trick:
            return "the leader of a trick cannot ask"
        return f"only a player who cannot follow {Suit(self.led).word} may ask"

    def turn_up(self, asked_by: int | None, events: list[Event]) -> None:
        """Turn the band-hukum card up: its suit is trump from now on; it goes back to the chooser."""
        card = self.hidden_card
        chooser = self.chooser
        assert card is not None and chooser is not None
        self.hidden_card = None
        self.revealed = True
        self.revealed_card = card
        self.hands[chooser] |= 1 << card
        self.trump = suit = _SUITS[card // 13]
        self.trump_from = len(self.trick)
        events.append(TrumpRevealed(suit=suit, card=card, chooser=chooser, asked_by=asked_by))

    def hidden_turn(self, seat: int, events: list[Event]) -> None:
        """Start of a turn while the band-hukum card is face down: it may have to be turned up now."""
        if seat == self.chooser and not self.hands[seat]:
            # The chooser holds only the hidden card: it is turned up and played, as a trump.
            self.turn_up(None, events)
        elif self.game.auto_reveal and self.trick and not self.hands[seat] & SUIT_MASKS[self.led]:
            # Automatic reveal: this player cannot follow; it may then play any card.
            self.turn_up(None, events)
            self.free_play = True

    # ------------------------------------------------------------------------------------------
    # Cards

    def legal_plays(self) -> tuple[Action, ...]:
        """The cards the seat to act may play (the trick core's ``playable``), and the reveal if it may ask."""
        hand = self.hands[self.to_act]  # type: ignore[index]
        if not self.trick:
            return plays_of(hand)
        led = self.led
        legal = playable(hand, led, self.trump, self.must_trump, self.free_play)
        ranks = legal >> 13 * led & 0x1FFF
        if ranks << 13 * led == legal:  # (the commonest case: following suit, one look-up)
            return _SUIT_PLAYS[led][ranks]
        if self.hidden_card is not None and self.game.ask_reveal and not ranks:
            return _JUST_REVEAL + plays_of(legal)  # a player who cannot follow may ask for the hidden trump card
        return plays_of(legal)

    def play(self, action: Play) -> tuple[Event, ...]:
        """Play a card for the seat to act; the events it caused (none for most cards).

        Raises ``IllegalActionError`` naming the reason, with nothing changed, unless the trick core allows it.
        """
        card = action.card
        bit = 1 << card
        seat: int = self.to_act  # type: ignore[assignment]
        hands = self.hands
        hand = hands[seat]
        trick = self.trick
        if trick:
            led = self.led
            if not playable(hand, led, self.trump, self.must_trump, self.free_play) & bit:
                raise IllegalActionError(self.why_illegal(card))
            if sets_trump(self.cut_open, led, card):
                return self.cut(action, seat, hand)
        elif hand & bit:
            self.led = card // 13
        else:
            raise IllegalActionError(self.why_illegal(card))
        self.actions.append(action)
        hands[seat] = hand ^ bit
        self.trick_mask |= bit
        trick.append(card)
        game = self.game
        seat = game.next_seat[seat]
        if seat == self.leader:  # every seat has played: the trick is full
            return self.end_trick(_NO_EVENTS)
        self.to_act = seat
        if game.band:
            if self.hidden_card is not None:
                # (While the card is face down nobody has had to trump or been free to play anything.)
                if (not hands[seat] and seat == self.chooser) or (
                    game.auto_reveal and not hands[seat] >> 13 * self.led & 0x1FFF
                ):
                    events: list[Event] = []
                    self.hidden_turn(seat, events)
                    self.events.extend(events)
                    return tuple(events)
            elif self.must_trump or self.free_play:
                self.must_trump = False
                self.free_play = False
        return _NO_EVENTS

    def cut(self, action: Play, seat: int, hand: int) -> tuple[Event, ...]:
        """Play the first off-suit card of a cut-trump hand (already checked): it sets trump, and counts as one.

        Kept out of ``play`` so that the common plays there need not carry a list of events.
        """
        card = action.card
        trick = self.trick
        self.cut_open = False
        self.trump = trump = _SUITS[card // 13]
        self.trump_from = len(trick)
        event = TrumpSet(suit=trump, seat=seat, how="cut", card=card)
        bit = 1 << card
        self.actions.append(action)
        self.hands[seat] = hand ^ bit
        self.trick_mask |= bit
        trick.append(card)
        if len(trick) == self.game.players:
            return self.end_trick((event,))
        self.to_act = self.game.next_seat[seat]  # (cut trump has no band-hukum card to watch for)
        self.events.append(event)
        return (event,)

    def why_illegal(self, card: Card) -> str:
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        if not hand & (1 << card):
            if self.hidden_card == card and self.chooser == seat:
                return f"seat {seat} cannot play {card}: it is the hidden trump card, still face down"
            return f"seat {seat} does not hold {card}"
        led = Suit(self.led)
        follow = hand & SUIT_MASKS[led]
        if follow:
            return f"seat {seat} must follow {led.word} with {cards_text(sort_hand(cards_of(follow)))}, not {card}"
        if self.must_trump and self.trump is not None:
            return f"seat {seat} asked for the trump and must play a trump ({Suit(self.trump).word}), not {card}"
        return f"{card} is not a legal play for seat {seat}"  # pragma: no cover - every other card is legal

    # ------------------------------------------------------------------------------------------
    # The end of a trick, and of the hand

    def end_trick(self, before: tuple[Event, ...]) -> tuple[Event, ...]:
        """Close the full trick; return its events after ``before`` (a cut's trump), added to the hand's too.

        When the hand ends with it, ``outcome`` is set and the last event is ``HandEnded``.
        """
        game = self.game
        trick = self.trick
        trick_mask = self.trick_mask
        trump = self.trump
        leader = self.leader
        winner = (leader + trick_winner(trick, trump, self.trump_from)) % game.players
        team = winner & 1
        tricks_won = self.tricks_won
        tricks_won[team] += 1
        tricks = self.tricks
        number = len(tricks) + 1
        last = number == game.tricks_per_hand
        taken, self.centre, self.next_collector = collect(
            trick_mask, winner, self.centre, self.next_collector, last, game.immediate, game.streak_resets
        )
        cards = tuple(trick)
        collected_by = winner if taken else None
        record = Trick(number, leader, cards, winner, collected_by)
        tricks.append(record)
        if taken:
            self.captured[team] |= taken
        if taken and not game.immediate:  # the centre collected (at once, every trick is its own collection)
            seat, mask = winner, taken
            events = before + (record, CentreCollected(seat, team, mask))  # noqa: RUF005
        else:
            events = before + (record,)  # noqa: RUF005 - with nothing before, the new tuple itself (no list)
        if last:
            self.outcome = outcome(game.rules, self.dealer, self.captured, tricks_won)
            return self.end(events, False)
        if game.early_end:
            ended = self.settled(number)
            if ended is not None:
                self.outcome = ended
                return self.end(events, True)
        if self.staged and staged_deal_due(trump, number):
            events += (self.complete_deal(number),)
        # The winner leads the next trick.
        self.leader = winner
        self.to_act = winner
        self.trick = []
        self.trick_mask = 0
        self.trump_from = NOT_YET if trump is None else 0
        if game.band:
            self.must_trump = False
            self.free_play = False
            if self.hidden_card is not None and winner == self.chooser and not self.hands[winner]:
                more: list[Event] = []
                self.hidden_turn(winner, more)  # (no automatic reveal at a lead: there is no suit to follow)
                events += tuple(more)
        self.events.extend(events)
        return events

    def settled(self, tricks_played: int) -> Outcome | None:
        """Taash's early end: the hand's result if no trick left can change it, else ``None``."""
        captured = self.captured
        tens_left = 4 - ((captured[0] | captured[1]) & TENS_MASK).bit_count()
        # With tens still to take and no trick minimum the result can always change (see settled_outcome).
        if tens_left and not self.game.trick_minimum:
            return None
        won = (self.tricks_won[0], self.tricks_won[1])
        tricks_left = self.game.tricks_per_hand - tricks_played
        return settled_outcome(self.game.rules, self.dealer, tens_of(captured), won, tens_left, tricks_left)

    def complete_deal(self, after_trick: int) -> StagedDeal:
        """Staged deal: the rest of each hand arrives after the trump trick (or after five tricks)."""
        self.staged = False
        self.cut_open = False
        hands = self.hands
        pending = self.pending
        for seat in range(self.game.players):
            hands[seat] |= pending[seat]
            pending[seat] = 0
        return StagedDeal(after_trick=after_trick, trump=self.trump)

    def end(self, before: tuple[Event, ...], early: bool) -> tuple[Event, ...]:
        """The hand is over: nobody is to act; ``before`` and ``HandEnded`` join the hand's events."""
        self.to_act = None
        tricks_played = len(self.tricks)
        events = (*before, HandEnded(early, tricks_played))
        self.events.extend(events)
        return events
