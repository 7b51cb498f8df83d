"""The game: the facts of one ``Rules`` value that play reads, worked out once and shared by every match.

A ``Match`` and its ``Hand`` read the rules on every card (how many seats, who
plays next, is a trick collected at once, is there a face-down trump card), so
those facts are kept here as plain fields, with no string comparison left for
the hot paths.  ``game_of(rules)`` gives the one ``Game`` of a rules value
(cached by the value: equal rules share it); the deal itself, random or read
from a record, is the game's too, since it depends on nothing but the pack.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import Any

from dehla.cards import DECK_48, DECK_52, Card
from dehla.engine.actions import Deal
from dehla.errors import IllegalActionError
from dehla.rules import Rules

__all__ = ["Game", "game_of"]


class Game:
    """What play reads from one ``Rules`` value; made by ``game_of`` and never changed after."""

    __slots__ = (
        "rules",
        "players",
        "pack",
        "pack_mask",
        "hand_size",
        "tricks_per_hand",
        "next_seat",
        "split_deck",
        "immediate",
        "streak_resets",
        "early_end",
        "trick_minimum",
        "staged_deal",
        "called",
        "cut",
        "open_draw",
        "band",
        "ask_reveal",
        "auto_reveal",
        "opening",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules: Rules = rules
        self.players: int = rules.players
        self.pack: tuple[Card, ...] = DECK_52 if rules.players == 4 else DECK_48
        self.pack_mask: int = sum(1 << card for card in self.pack)
        self.hand_size: int = rules.hand_size
        self.tricks_per_hand: int = rules.tricks_per_hand
        #: The seat after each seat in play order.
        self.next_seat: tuple[int, ...] = tuple((seat + 1) % rules.players for seat in range(rules.players))
        #: Cuts a shuffled pack into the hands, in one call.
        self.split_deck: itemgetter[Any] = itemgetter(
            *(slice(seat * self.hand_size, (seat + 1) * self.hand_size) for seat in range(rules.players))
        )
        #: Every trick goes to its winner's team at once (not the centre rule).
        self.immediate: bool = rules.collection == "immediate"
        self.streak_resets: bool = rules.streak_resets
        self.early_end: bool = rules.early_end
        self.trick_minimum: bool = rules.trick_minimum
        self.staged_deal: bool = rules.staged_deal
        self.called: bool = rules.trump == "called"
        self.cut: bool = rules.trump == "cut"
        self.open_draw: bool = rules.trump == "open_draw"
        #: Band hukum: only then can a turn start with a reveal, a duty to trump or a free choice of card.
        self.band: bool = rules.trump in ("hidden", "hidden_auto")
        #: Band hukum where a player who cannot follow may ask for the card.
        self.ask_reveal: bool = rules.trump == "hidden"
        #: Band hukum turned up automatically.
        self.auto_reveal: bool = rules.trump == "hidden_auto"
        #: The first five cards come first (called trump, staged deal).
        self.opening: bool = rules.staged_deal or rules.trump == "called"

    def random_deal(self, rng: random.Random) -> Deal:
        """Shuffle and deal a hand from ``rng``."""
        pack = self.pack
        # Sorting by random keys is a uniform shuffle, and several times faster than rng.shuffle.  The
        # keys are drawn in pack order, one per card; equal keys (never seen in practice) fall back on
        # the card order, just as a stable sort of the pack by key would.
        keys = list(map(type(rng).random, repeat(rng, len(pack))))  # rng.random() per card, without a loop here
        if len(pack) == 52:
            deck = tuple(sorted(pack, key=keys.__getitem__))  # card numbers are the keys' indices
        else:
            deck = tuple([card for _key, card in sorted(zip(keys, pack))])
        hands: tuple[tuple[Card, ...], ...] = self.split_deck(deck)
        open_draw = rng.choice(pack) if self.open_draw else None
        return Deal.trusted(hands, open_draw, self)

    def check_deal(self, deal: Deal) -> None:
        """Raise ``IllegalActionError`` unless ``deal`` deals the pack of this game, as its rules say."""
        if deal.checked_for is self:
            return
        if len(deal.hands) != self.players:
            raise IllegalActionError(f"a deal needs {self.players} hands, not {len(deal.hands)}")
        deck = self.pack_mask
        seen = 0
        for seat, cards in enumerate(deal.hands):
            if len(cards) != self.hand_size:
                raise IllegalActionError(f"seat {seat} is dealt {len(cards)} cards; each seat gets {self.hand_size}")
            for card in cards:
                bit = 1 << card
                if seen & bit:
                    raise IllegalActionError(f"{card} is dealt twice")
                if not deck & bit:
                    raise IllegalActionError(f"{card} is not in the 48-card pack (the twos are taken out)")
                seen |= bit
        if self.open_draw:
            if deal.open_draw is None:
                raise IllegalActionError("open-draw rules need the drawn card (open_draw)")
            if not deck >> deal.open_draw & 1:
                raise IllegalActionError(f"the drawn card {deal.open_draw} is not in the pack")
        elif deal.open_draw is not None:
            raise IllegalActionError(f"a drawn card is only for open-draw trump, not {self.rules.trump!r}")


@lru_cache(maxsize=256)  # rules made on the fly (records, options) must not pile up
def game_of(rules: Rules) -> Game:
    """The ``Game`` of ``rules``, made once per rules value (equal rules share it)."""
    return Game(rules)
