"""Deals of the unseen cards consistent with a seat's observation: the worlds the search bots think in.

``CardTracker.sample`` draws where the unseen cards lie (voids, cards played, trump, band hukum, staged deals);
``determinize`` rebuilds a full engine ``Match`` from it by replaying the hand's public actions, so the engine
itself checks the sample against everything that happened.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from dehla.bots.tracking import CardTracker, HolderSample
from dehla.cards import SUIT_MASKS, Card, cards_of
from dehla.engine.actions import Deal, Hide, parse_action
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.engine.tricks import OPENING_PACKET, STAGED_TRICKS
from dehla.errors import DehlaError

__all__ = ["MAX_REJECTED", "sampled_deals", "determinize"]


class _Rejected(Exception):
    """A sample that the public history rules out."""


#: Draws the history rules out before a search gives up sampling for this decision.
MAX_REJECTED = 200


def sampled_deals(
    observation: Observation,
    tracker: CardTracker,
    rng: random.Random,
    more: Callable[[], bool],
    on_deal: Callable[[Match], None] | None = None,
) -> Iterator[Match]:
    """Deals of the unseen cards that fit the public history, one at a time while ``more()`` says so.

    ``more`` is asked before each draw, so a search that stops draws nothing more from ``rng``
    (a seeded bot's later samples stay the same); gives up after ``MAX_REJECTED`` draws the
    history rules out.
    """
    rejected = 0
    while rejected < MAX_REJECTED and more():
        try:
            match = determinize(observation, tracker.sample(rng), on_deal)
        except (_Rejected, RuntimeError):
            rejected += 1
            continue
        yield match


def determinize(
    observation: Observation, sample: HolderSample, on_deal: Callable[[Match], None] | None = None
) -> Match:
    """A full ``Match`` of the hand in play in which the unseen cards lie as ``sample`` says.

    Built by dealing the sample's cards and replaying the hand's public
    actions, so the engine itself checks the sample against everything that
    happened.  Raises ``_Rejected`` when the history rules the sample out.
    ``on_deal`` is shown the match as dealt, before the history is replayed
    (inference replays the others' actions in it).
    """
    rules = observation.rules
    n = observation.players
    tracker_plays: list[tuple[int, Card, int]] = []
    for trick in observation.tricks:
        for index, card in enumerate(trick.cards):
            tracker_plays.append(((trick.leader + index) % n, card, trick.number))
    current = len(observation.tricks) + 1
    for seat, card in observation.trick:
        tracker_plays.append((seat, card, current))
    played_by: list[list[Card]] = [[] for _ in range(n)]
    for seat, card, _ in tracker_plays:
        played_by[seat].append(card)
    dealt_after = _staged_deal_trick(observation, tracker_plays)
    hands: list[list[Card]] = []
    for seat in range(n):
        held = cards_of(sample.hands[seat])
        later = cards_of(sample.pending[seat])
        hidden = [Card(sample.hidden)] if sample.hidden is not None and seat == observation.chooser else []
        if rules.trump == "called" and observation.phase == "call":
            opening = held  # before the call each seat holds its first five cards
            rest = later
        elif rules.staged_deal and dealt_after is None:
            opening = played_by[seat] + held  # the rest is not dealt yet
            rest = later
        elif dealt_after is not None:
            opening, rest = _opening_packet(observation, seat, tracker_plays, dealt_after, held)
        else:
            opening = played_by[seat] + held + hidden
            rest = []
            hidden = []
        cards = opening + rest + hidden
        if len(cards) != rules.hand_size:
            raise _Rejected(f"seat {seat} would hold {len(cards)} cards")
        hands.append(cards)
    match = Match(rules, observation.dealer)
    try:
        match.apply(Deal(hands, observation.open_draw))
        if on_deal is not None:
            on_deal(match)
        for text in observation.history:
            if text == "hide ?":
                # Face down the card is the sample's; once turned up, every seat knows which it was.
                hidden_card = sample.hidden if sample.hidden is not None else observation.revealed_card
                if hidden_card is None:
                    raise _Rejected("no hidden card in the sample")
                match.apply(Hide(hidden_card))
            else:
                match.apply(parse_action(text))
    except DehlaError as error:
        raise _Rejected(str(error)) from None
    state = match.hand_state()
    if (
        state.to_act != observation.seat
        or state.trump != observation.trump
        or (state.hidden_card is not None) != observation.trump_hidden
        or tuple(mask.bit_count() for mask in state.pending) != observation.undealt
    ):
        raise _Rejected("the replay does not reach the observed position")
    return match


def _staged_deal_trick(observation: Observation, plays: list[tuple[int, Card, int]]) -> int | None:
    """After which trick the rest of a staged deal was dealt (``None`` if not yet or not staged)."""
    if not observation.rules.staged_deal or any(observation.undealt) or observation.phase != "play":
        return None
    led = -1
    previous = -1
    for _seat, card, number in plays:
        if number != previous:
            led = card // 13
            previous = number
        elif card // 13 != led:
            return min(number, STAGED_TRICKS)
    return STAGED_TRICKS


def _opening_packet(
    observation: Observation,
    seat: int,
    plays: list[tuple[int, Card, int]],
    dealt_after: int,
    held: list[Card],
) -> tuple[list[Card], list[Card]]:
    """A staged deal already completed: split ``seat``'s cards into a first packet and the rest.

    Cards played up to the dealing trick were in the first packet; the packet's
    other cards were held all that time, so they avoid the suits the seat
    showed void in then.
    """
    before = [card for who, card, number in plays if who == seat and number <= dealt_after]
    after = [card for who, card, number in plays if who == seat and number > dealt_after]
    void = 0
    led = -1
    previous = -1
    for who, card, number in plays:
        if number > dealt_after:
            break
        if number != previous:
            led = card // 13
            previous = number
        elif who == seat and card // 13 != led:
            void |= SUIT_MASKS[led]
    need = OPENING_PACKET - len(before)
    candidates = [card for card in after + held if not void >> card & 1]
    if need < 0 or len(candidates) < need:
        raise _Rejected(f"seat {seat}'s first cards cannot fit its voids")
    packet = before + candidates[:need]
    chosen = set(packet)
    rest = [card for card in after + held if card not in chosen]
    return packet, rest
