"""The trick core: the rules of a trick and of a hand's end, written once, as pure functions.

Every part that reasons about a trick reads these: the ``Hand`` of a ``Match``
(which keeps the state and the events around them), the per-seat trackers and
the bots' endgames, and the tests that hold the compiled solver kernel to them.  Cards
are small ints and sets of cards are 52-bit masks (see ``dehla.cards``).

``HandState`` is the hand in play as one frozen value: the full truth (every
hand, the cards a staged deal has still to hand out, the face-down band-hukum
card), as ``Match.hand_state()`` gives it to the solver and the search bots.
Seats that play for themselves see the game through ``Match.observe`` instead.

The rules (SPEC 1, 3.1 - 3.4):

* follow suit when able, else any card; a player who asked for the band-hukum
  card must then play a trump if it holds one; after an automatic reveal the
  player whose turn it is may play any card (``legal_cards``);
* under cut trump, the first card played off the suit led makes its suit
  trump (``sets_trump``);
* the highest card that counts as trump wins, else the highest of the suit
  led; trump counts only from a trick position on (``trump_from``: cut trump
  counts from the card that set it, a revealed trump from the cards played
  after the reveal, ``NOT_YET`` while there is no trump) (``trick_winner``,
  or card by card ``beats``);
* with ``collection == "immediate"`` each trick goes to its winner's team;
  with ``"centre"`` tricks pile up until one player wins two in a row, and the
  last trick takes whatever is left (``collect``);
* a staged deal hands out the other cards after the first trick in which
  someone could not follow, or after ``STAGED_TRICKS`` tricks (``staged_deal_due``);
* the hand's result follows from the tens each team collected and its tricks
  (``outcome``; the scoring itself is ``dehla.engine.scoring``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dehla.cards import SUIT_MASKS, TENS_MASK, Card, Suit
from dehla.engine.scoring import Outcome, hand_outcome
from dehla.rules import Rules

__all__ = [
    "NOT_YET",
    "OPENING_PACKET",
    "STAGED_TRICKS",
    "HandState",
    "playable",
    "legal_cards",
    "can_ask_reveal",
    "sets_trump",
    "trick_winner",
    "beats",
    "collect",
    "staged_deal_due",
    "tens_of",
    "outcome",
]

#: ``trump_from`` while no card of the trick counts as trump (no trump yet, or a hidden one): past any trick.
NOT_YET = 99
#: Cards each seat holds before the rest are dealt (called trump, staged deal).
OPENING_PACKET = 5
#: Tricks played without trump before a staged deal is completed anyway.
STAGED_TRICKS = 5


@dataclass(frozen=True, slots=True)
class HandState:
    """The hand in play, all of it: what the solver and the search bots read (``Match.hand_state()``).

    ``hands[s]`` is the mask of the cards seat ``s`` may play from (never the
    face-down card); ``pending[s]`` the cards a staged deal (or a trump call)
    has still to give it.  ``trick`` holds the cards of the trick in progress
    in play order from ``leader``; ``led`` is the suit of its first card
    (``None`` between tricks).  Trump counts for the trick's cards from index
    ``trump_from`` (``NOT_YET`` when none does).  ``centre`` holds the cards
    waiting to be collected and ``next_collector`` the seat that collects them
    if it wins the next trick too (centre collection); ``captured[team]``
    the cards each team has collected.
    """

    rules: Rules
    dealer: int
    to_act: int | None
    hands: tuple[int, ...]
    pending: tuple[int, ...]
    leader: int
    led: Suit | None
    trick: tuple[Card, ...]
    trump: Suit | None
    trump_from: int
    cut_open: bool  # cut trump: the next card played off-suit sets trump
    staged: bool  # a staged deal whose other cards are still to come
    hidden_card: Card | None  # the band-hukum card while face down
    chooser: int | None  # the seat that chose it
    revealed_card: Card | None
    open_draw: Card | None
    must_trump: bool  # the seat to act asked for the reveal and must play a trump if it holds one
    free_play: bool  # the seat to act may play any card (automatic reveal at its turn)
    centre: int
    next_collector: int | None
    captured: tuple[int, int]
    tricks_won: tuple[int, int]
    tricks_played: int

    @property
    def players(self) -> int:
        return self.rules.players

    def legal_cards(self) -> int:
        """The mask of the cards the seat to act may play (0 when nobody is to play)."""
        return legal_cards(self)


def playable(hand: int, led: int | None, trump: int | None, must_trump: bool, free_play: bool) -> int:
    """The cards of ``hand`` (a mask) that may be played to a trick whose suit led is ``led`` (``None``: a lead)."""
    if led is None or free_play:
        return hand
    follow = hand & 0x1FFF << 13 * led  # (a shift, not SUIT_MASKS: this runs before every card of every playout)
    if follow:
        return follow
    if must_trump and trump is not None:
        trumps = hand & 0x1FFF << 13 * trump
        if trumps:
            return trumps
    return hand


def legal_cards(state: HandState) -> int:
    """The mask of the cards the seat to act may play now (0 when nobody is to play).

    Meant for the play phase (``Match.phase is Phase.PLAY``): before it, the seat to act calls trump or
    hides a card instead.
    """
    if state.to_act is None:
        return 0
    return playable(state.hands[state.to_act], state.led, state.trump, state.must_trump, state.free_play)


def can_ask_reveal(state: HandState) -> bool:
    """May the seat to act ask for the band-hukum card now?  Only a player who cannot follow, under ``hidden``."""
    if state.hidden_card is None or state.rules.trump != "hidden" or state.led is None or state.to_act is None:
        return False
    return not state.hands[state.to_act] & SUIT_MASKS[state.led]


def sets_trump(cut_open: bool, led: int | None, card: int) -> bool:
    """Does ``card``, played to a trick whose suit led is ``led`` (``None``: a lead), make its suit trump?

    Under cut trump (``cut_open``, no trump yet) the first card played off the suit led does, and counts as trump
    from that card on (``trump_from`` is its index in the trick).
    """
    return cut_open and led is not None and card // 13 != led


def trick_winner(cards: Sequence[int], trump: int | None, trump_from: int = 0) -> int:
    """Index of the card winning a trick (finished or not) whose first card is ``cards[0]``.

    ``trump`` counts only for the cards at index ``trump_from`` or later; when
    the suit led is trump itself, the highest card of it wins whenever it was played.
    """
    led = cards[0] // 13
    best = -1
    best_index = -1
    if trump is not None and trump != led:
        for index in range(max(trump_from, 0), len(cards)):
            card = cards[index]
            if card // 13 == trump and card > best:
                best, best_index = card, index
        if best_index >= 0:
            return best_index
    for index, card in enumerate(cards):
        if card // 13 == led and card > best:
            best, best_index = card, index
    return best_index


def beats(card: int, best: int, best_is_trump: bool, led: int, trump: int | None) -> bool:
    """Does ``card``, played now, beat the trick's best card so far?  ``trick_winner`` one card at a time.

    ``trump`` is the suit that counts as trump for ``card`` (``None`` before it counts); ``best_is_trump``
    whether the best card won as a trump (a card of the suit led never does, even when that suit is trump).
    """
    suit = card // 13
    if best_is_trump:
        return suit == best // 13 and card > best
    if trump is not None and suit == trump and trump != led:
        return True
    return suit == led and card > best


def collect(
    trick: int, winner: int, centre: int, next_collector: int | None, last: bool, immediate: bool, streak_resets: bool
) -> tuple[int, int, int | None]:
    """Where a finished trick's cards (mask ``trick``) go: ``(taken, centre, next_collector)`` after it.

    ``taken`` is what the winner's team collects now (0 if nothing); ``centre``
    what stays in the middle; ``next_collector`` the seat that collects if it
    wins the next trick too.  Immediate collection takes every trick at once.
    Otherwise a player who wins two tricks in a row, or the last trick, takes
    the whole centre; the count starts again after a collection unless
    ``streak_resets`` is false (then a third win in a row collects too).
    """
    if immediate:
        return trick, centre, None
    if last or next_collector == winner:
        return centre | trick, 0, None if streak_resets else winner
    return 0, centre | trick, winner


def staged_deal_due(trump: int | None, tricks_played: int) -> bool:
    """After this trick, is the rest of a staged deal handed out?  Once trump is set, or after five tricks."""
    return trump is not None or tricks_played == STAGED_TRICKS


def tens_of(captured: Sequence[int]) -> tuple[int, int]:
    """The tens each team has collected."""
    return (captured[0] & TENS_MASK).bit_count(), (captured[1] & TENS_MASK).bit_count()


def outcome(rules: Rules, dealer: int, captured: Sequence[int], tricks_won: Sequence[int]) -> Outcome:
    """The result of a finished hand from each team's captures and tricks (``scoring.hand_outcome``)."""
    return hand_outcome(rules, dealer, tens_of(captured), (tricks_won[0], tricks_won[1]))
