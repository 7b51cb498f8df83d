"""A hint's reasons: what the hinted card does in the position, in game terms, from the seat's observation alone.

A hint says what the strongest bot would play (``play.hints``); these are the plain facts about that move a
player would say aloud: it takes the trick (nobody still to play can beat it), it brings a ten home, it keeps
a ten out of the other team's trick, it trumps, it throws away a card that cannot win, a partner has no card
of the suit led, the call is the suit you hold most of.  Each one is a code of ``REASON_TEMPLATES`` with its
parameters, worded by the page from its catalogs and by the terminal in English (``reason_text``).

Every reason is *true of the position for every deal of the unseen cards that fits what the seat knows*: the
trick's winner comes from the trick core (``engine.tricks.trick_winner``, ``collect``), what the others may
still hold from the seat's own card tracking (``bots.tracking.CardTracker``: the unseen cards and the voids
the play has shown), and where the seat cannot tell (a trump that may still be cut or turned up), no reason
that depends on it is given.  Nothing here reads a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dehla.bots.tracking import CardTracker, card_bit_above
from dehla.cards import SUIT_MASKS, Card, Suit, mask_of, parse_suit
from dehla.engine.actions import Action, Call, Hide, Play
from dehla.engine.observe import Observation
from dehla.engine.tricks import NOT_YET, collect, sets_trump, trick_winner

__all__ = ["REASON_TEMPLATES", "Reason", "reason_text", "reasons_for"]

#: Code -> English template of each reason a hint may give (the web's catalogs translate these).
REASON_TEMPLATES: dict[str, str] = {
    "reason_last_takes": "You play last: it takes the trick.",
    "reason_takes_trick": "It takes the trick: no one still to play can beat it.",
    "reason_wins_so_far": "It wins the trick so far; players still to play may beat it.",
    "reason_brings_ten": "It brings {card} home to your team.",
    "reason_keeps_ten": "Your {card} takes the trick, so your team keeps it.",
    "reason_partner_safe": "{seat}, your partner, takes this trick: no one still to play can beat that card.",
    "reason_partner_winning": "{seat}, your partner, is winning the trick so far.",
    "reason_feeds_ten": "Your {card} goes to your team with your partner's trick.",
    "reason_gives_ten": "Your {card} goes onto the trick your partner is winning so far.",
    "reason_saves_ten": "Your {card} stays in your hand, out of a trick the other team is winning.",
    "reason_trumps": "You have no {suit}: it trumps the trick.",
    "reason_cuts": "You have no {suit}: it cuts, and its suit becomes trump.",
    "reason_discards": "You have no {suit}: it throws away a card that cannot win this trick.",
    "reason_lead_top": "It is the highest card of {suit} left: no one holds a higher one.",
    "reason_lead_partner_void": "{seat}, your partner, has no {suit} left in hand.",
    "reason_call_longest": "You hold more {suit} than any other suit.",
    "reason_call_equal": "None of your suits is longer than {suit}.",
}


@dataclass(frozen=True)
class Reason:
    """One reason: its code (``REASON_TEMPLATES``) and parameters (``card``, ``suit`` letter, ``seat`` index)."""

    code: str
    params: dict[str, int | str] = field(default_factory=dict)


def reason_text(reason: Reason) -> str:
    """The reason in English, as the terminal shows it (a seat as "Seat N", numbered from 1)."""
    text = REASON_TEMPLATES[reason.code]
    for key, value in reason.params.items():
        shown = f"Seat {value + 1}" if key == "seat" and isinstance(value, int) else str(value)
        if key == "suit" and isinstance(value, str):
            shown = parse_suit(value).word
        text = text.replace("{" + key + "}", shown)
    return text


def reasons_for(observation: Observation, action: Action) -> tuple[Reason, ...]:
    """The reasons true of ``action`` in ``observation`` (the seat's own turn); none for a move they do not cover."""
    if isinstance(action, Call):
        return _suit_reasons(observation.hand, action.suit)
    if isinstance(action, Hide):
        return _suit_reasons(observation.hand, action.card.suit) if action.card in observation.hand else ()
    if isinstance(action, Play) and observation.phase == "play" and observation.my_turn:
        if action.card not in observation.hand:
            return ()
        return _play_reasons(observation, action.card)
    return ()


def _suit_reasons(hand: Sequence[Card], suit: Suit) -> tuple[Reason, ...]:
    """A trump call (or a hidden card's suit) of the suit the hand holds most of."""
    counts = [sum(1 for card in hand if card.suit == each) for each in Suit]
    mine = counts[suit]
    others = max(count for each, count in enumerate(counts) if each != suit)
    if mine == 0 or mine < others:
        return ()
    code = "reason_call_longest" if mine > others else "reason_call_equal"
    return (Reason(code, {"suit": suit.letter}),)


@dataclass(frozen=True)
class _Trick:
    """The trick with the hinted card added: its cards, seats, trump marks and the trump that counts."""

    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    marks: tuple[bool, ...]
    trump: Suit | None

    def winner(self) -> int:
        """The index of the winning card, by the trick core (trump counting from the first marked card)."""
        trump_from = next((index for index, mark in enumerate(self.marks) if mark), NOT_YET)
        return trick_winner(self.cards, self.trump, trump_from)


def _with_card(observation: Observation, card: Card) -> _Trick:
    """The trick in progress once ``card`` is played: whether it counts as trump follows the engine's own marks
    (a trump known to all counts for every card played after it was set; an off-suit card while cut trump is
    open sets trump and counts; a band-hukum card still face down makes nothing trump)."""
    played = observation.trick
    trump = observation.trump
    if len(observation.trick_trumps) == len(played):
        marks = list(observation.trick_trumps)
    else:
        marks = [trump is not None and each.suit == trump for _, each in played]
    cuts = sets_trump(observation.cut_open, played[0][1].suit if played else None, card)
    if cuts:
        trump = card.suit
    marks.append(cuts or (trump is not None and card.suit == trump))
    return _Trick(
        (*(each for _, each in played), card),
        (*(seat for seat, _ in played), observation.seat),
        tuple(marks),
        trump,
    )


def _later_trump(observation: Observation, trick: _Trick) -> tuple[bool, Suit | None]:
    """``(known, suit)``: the trump that counts for the cards still to be played in this trick, if the seat
    can know it (``known`` false while a later player may still cut or turn up a trump the seat cannot see)."""
    if trick.trump is not None:
        return True, trick.trump
    if observation.cut_open:
        return False, None
    if observation.trump_hidden:
        hidden = observation.hidden_card
        return (True, hidden.suit) if hidden is not None else (False, None)
    return True, None


def _beatable(observation: Observation, tracker: CardTracker, trick: _Trick, best: int) -> bool:
    """May a player still to play beat the trick's card at index ``best``, on any deal the seat cannot rule out?"""
    later = [seat for seat in range(observation.players) if seat not in trick.seats]
    if not later:
        return False
    known, trump = _later_trump(observation, trick)
    if not known:
        return True
    upto = trick.cards[: best + 1]
    marks = trick.marks[: best + 1]
    for seat in later:
        may_hold = tracker.unseen
        if seat != tracker.hidden_holder:  # the face-down card may come back to its chooser in this trick
            for suit in range(4):
                if tracker.voids[seat] >> suit & 1:
                    may_hold &= ~SUIT_MASKS[suit]
        may_hold |= tracker.known_held[seat]
        for number in range(52):
            if may_hold >> number & 1:
                card = Card(number)
                test = _Trick((*upto, card), (), (*marks, trump is not None and card.suit == trump), trump)
                if test.winner() == len(upto):
                    return True
    return False


def _play_reasons(observation: Observation, card: Card) -> tuple[Reason, ...]:
    """The reasons of a card played (a lead, or a card to a trick in progress)."""
    tracker = CardTracker(observation)
    seat = observation.seat
    team = seat % 2
    if not observation.trick:
        return _lead_reasons(observation, tracker, card)
    trick = _with_card(observation, card)
    led = trick.cards[0].suit
    best = trick.winner()
    winner = trick.seats[best]
    certain = not _beatable(observation, tracker, trick, best)
    reasons: list[Reason] = []
    if card.suit != led and not mask_of(observation.hand) & SUIT_MASKS[led]:
        if trick.trump is not None and trick.trump != observation.trump:
            reasons.append(Reason("reason_cuts", {"suit": led.letter}))
        elif trick.marks[-1]:
            reasons.append(Reason("reason_trumps", {"suit": led.letter}))
        elif not card.is_ten:
            reasons.append(Reason("reason_discards", {"suit": led.letter}))
    if winner == seat:
        last = len(trick.cards) == observation.players
        code = "reason_last_takes" if last else "reason_takes_trick" if certain else "reason_wins_so_far"
        reasons.append(Reason(code))
    elif winner % 2 == team:
        reasons.append(Reason("reason_partner_safe" if certain else "reason_partner_winning", {"seat": winner}))
    taken = _taken(observation, trick, winner) if certain and winner % 2 == team else 0
    if winner == seat:
        for ten in (each for each in trick.cards if each.is_ten and taken >> each & 1):
            code = "reason_keeps_ten" if ten == card else "reason_brings_ten"
            reasons.append(Reason(code, {"card": str(ten)}))
    elif winner % 2 == team and card.is_ten:
        code = "reason_feeds_ten" if taken >> card & 1 else "reason_gives_ten"
        reasons.append(Reason(code, {"card": str(card)}))
    elif winner % 2 != team and not card.is_ten:
        for action in observation.legal_actions:  # a ten that would not have won the trick for the team either
            if isinstance(action, Play) and action.card.is_ten and action.card != card:
                instead = _with_card(observation, action.card)
                if instead.seats[instead.winner()] % 2 != team:
                    reasons.append(Reason("reason_saves_ten", {"card": str(action.card)}))
    return tuple(reasons)


def _taken(observation: Observation, trick: _Trick, winner: int) -> int:
    """The cards the winner's team surely collects with this trick (the trick core's ``collect``): the known
    cards of the trick, and the centre where it goes with it."""
    rules = observation.rules
    last = len(observation.tricks) + 1 == rules.tricks_per_hand
    taken, _, _ = collect(
        mask_of(trick.cards),
        winner,
        mask_of(observation.centre),
        observation.next_collector,
        last,
        rules.collection == "immediate",
        rules.streak_resets,
    )
    return taken


def _lead_reasons(observation: Observation, tracker: CardTracker, card: Card) -> tuple[Reason, ...]:
    """A lead: the highest card of its suit not yet played; a partner who has shown no card of the suit."""
    reasons: list[Reason] = []
    own = mask_of(observation.hand) | (0 if observation.hidden_card is None else 1 << observation.hidden_card)
    if not tracker.higher_outstanding(card) and not own & card_bit_above(card):
        reasons.append(Reason("reason_lead_top", {"suit": card.suit.letter}))
    if card.suit == observation.trump:
        return tuple(reasons)  # a partner out of trump is no reason to lead it
    for partner in range(observation.players):
        if partner != observation.seat and partner % 2 == observation.team and tracker.is_void(partner, card.suit):
            reasons.append(Reason("reason_lead_partner_void", {"seat": partner, "suit": card.suit.letter}))
    return tuple(reasons)
