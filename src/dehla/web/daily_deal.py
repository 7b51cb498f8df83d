"""The daily duplicate's seeds: each day's secret seed and its commitment, each deal's seed, and its cards.

A day's seed is 32 random bytes made when the day's first visitor asks for it and kept in storage; its SHA-256
(the commitment) is shown at once and the seed only once the day is over, so anyone can check afterwards that the
deals were fixed in advance.  Each deal's seed is the SHA-256 of the day's seed and the deal's number, and a table
deals a fixed deal from its seed by the derivation every table deals by (``docs/records.md``, *Checkable deals*),
as the one hand of its match, so ``dehla verify`` and the replay's check hold for daily games too.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import TypedDict

from dehla.engine.actions import Deal
from dehla.engine.fairdeal import deal_from_seed
from dehla.engine.state import Match, draw_first_dealer

__all__ = [
    "FixedDeal",
    "FixedDealJSON",
    "new_day_seed",
    "commitment",
    "deal_seed",
    "first_dealer_from_seed",
]

DAY_SEED_BYTES = 32


def new_day_seed() -> bytes:
    """A day's secret seed, from the OS random source."""
    return secrets.token_bytes(DAY_SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What is published before the seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def deal_seed(day_seed: bytes, number: int) -> bytes:
    """The seed of the day's deal ``number`` (0-based): the same for everyone, unknowable without the day's seed."""
    return hashlib.sha256(b"dehla-daily:" + day_seed + number.to_bytes(4, "big")).digest()


def first_dealer_from_seed(players: int, seed: bytes) -> int:
    """The first dealer of a fixed deal, drawn by lot (SPEC 3.8) from the seed."""
    stream = hashlib.sha256(seed + b":first-dealer").digest()
    return draw_first_dealer(players, random.Random(int.from_bytes(stream, "big")))


class FixedDealJSON(TypedDict):
    """A fixed deal as a table's row keeps it (the seed in hex; the row is never sent to a browser)."""

    seed: str


@dataclass(frozen=True)
class FixedDeal:
    """A table that plays one given deal and then ends (the daily duplicate's tables)."""

    seed: bytes

    def first_dealer(self, players: int) -> int:
        return first_dealer_from_seed(players, self.seed)

    def deal(self, match: Match) -> Deal:
        """The deal of the match's hand in play: a daily table plays one hand, number 0 of its record."""
        return deal_from_seed(match.rules, self.seed, len(match.deals))

    def to_json(self) -> FixedDealJSON:
        return {"seed": self.seed.hex()}

    @classmethod
    def from_hex(cls, text: str) -> FixedDeal:
        return cls(bytes.fromhex(text))
