"""Random small positions for the solver tests: real games cut short, and variants that keep trump open.

Positions come from playing random legal actions until the seat to act holds
only a few cards (hand plus cards still to be dealt).  By then trump is nearly
always set, so some positions are turned back into earlier states of the same
kind, letting the tests reach every rule the solver models with few cards:

* ``with_open_trump``: cut trump not yet set, for the next off-suit card to set;
* ``with_staged_deal``: part of each hand moved back to the cards still to be
  dealt, trump open (the test also moves the engine's five-trick limit to a
  trick still to come, so both ways of completing the deal occur);
* ``with_hidden_trump``: the band-hukum card laid face down again.

These edits write the engine's private fields, which is fine for a test of
the solver: the solver and the reference both play on from the edited state
by the engine's rules.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from dehla.cards import cards_of
from dehla.engine.state import Match, Phase
from dehla.engine.tricks import NOT_YET
from dehla.rules import Rules


def remaining(match: Match, seat: int) -> int:
    """Cards ``seat`` still has to play (held or still to be dealt)."""
    return (match._hand.hands[seat] | match._hand.pending[seat]).bit_count()


def natural_positions(preset: Rules | str, rng: random.Random, sizes: tuple[int, ...]) -> Iterator[Match]:
    """Positions of one random game, one as the seat to act first has ``size`` cards or fewer, per size."""
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    wanted = sorted(sizes, reverse=True)
    while wanted and match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
        seat = match.to_act
        assert seat is not None
        due = remaining(match, seat) <= wanted[0]
        if match.phase is Phase.PLAY and due and (rng.random() < 0.5 or not match._hand.trick):
            yield match.clone()
            wanted.pop(0)
            continue
        match.apply(rng.choice(match.legal_actions()))


def with_open_trump(match: Match) -> Match | None:
    """The position with cut trump not yet set (trick boundaries only)."""
    if match.rules.trump != "cut" or match._hand.trick or match._hand.trump is None:
        return None
    other = match.clone()
    other._hand.trump = None
    other._hand.trump_from = NOT_YET
    other._hand.cut_open = True
    return other


def with_staged_deal(match: Match, rng: random.Random) -> tuple[Match, int] | None:
    """The position with trump open and some of each hand not dealt yet (trick boundaries only).

    Returns the position and how many cards each seat still holds before the rest are dealt.
    """
    if not match.rules.staged_deal:
        return None
    other = with_open_trump(match)
    if other is None:
        return None
    size = remaining(other, 0)
    if size < 2:
        return None
    keep = rng.randint(1, size - 1)
    for seat in range(other.players):
        cards = cards_of(other._hand.hands[seat])
        rng.shuffle(cards)
        for card in cards[keep:]:
            other._hand.hands[seat] ^= 1 << card
            other._hand.pending[seat] |= 1 << card
    other._hand.staged = True
    return other, keep


def with_hidden_trump(match: Match, rng: random.Random) -> Match | None:
    """The position with the band-hukum card face down again (trick boundaries only)."""
    if match.rules.trump not in ("hidden", "hidden_auto") or match._hand.trick or match._hand.chooser is None:
        return None
    if match._hand.hidden_card is not None:
        return None  # still face down: already this kind of position
    chooser = match._hand.chooser
    cards = cards_of(match._hand.hands[chooser])
    if not cards:
        return None
    other = match.clone()
    card = rng.choice(cards)
    other._hand.hands[chooser] ^= 1 << card
    other._hand.hidden_card = card
    other._hand.hidden_suit = card.suit
    other._hand.revealed = False
    other._hand.revealed_card = None
    other._hand.trump = None
    other._hand.trump_from = NOT_YET
    leader = other._hand.to_act
    assert leader is not None
    if other._hand.hands[leader] == 0:
        return None  # a leader holding only the hidden card would have turned it up already
    return other


def _small(match: Match, most: int) -> bool:
    return all(remaining(match, seat) <= most for seat in range(match.players))


def small_positions(
    preset: Rules | str, rng: random.Random, sizes: tuple[int, ...] = (3, 2, 2, 1)
) -> Iterator[tuple[Match, int | None]]:
    """Endless small positions of ``preset`` with, for staged ones, the five-trick limit to use (else ``None``).

    No seat has more than ``max(sizes)`` cards to play in any of them.
    """
    most = max(sizes)
    while True:
        for match in natural_positions(preset, rng, sizes):
            if not _small(match, most):
                continue
            yield match, None
            variant = with_open_trump(match)
            if variant is not None:
                yield variant, None
            staged = with_staged_deal(match, rng)
            if staged is not None:
                position, held = staged
                # The five-trick limit moved to a trick still to come, at the latest when the hands run out.
                yield position, len(position._hand.tricks) + rng.randint(1, held)
            hidden = with_hidden_trump(match, rng)
            if hidden is not None:
                yield hidden, None
