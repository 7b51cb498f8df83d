"""The phases of a match: what kind of decision comes next."""

from __future__ import annotations

from enum import Enum

__all__ = ["Phase", "IN_HAND"]


class Phase(Enum):
    DEAL = "deal"  # chance: the next hand must be dealt
    CALL = "call"  # dealer+1 names trump from its first five cards
    HIDE = "hide"  # dealer+1 lays the band-hukum card face down
    PLAY = "play"
    OVER = "over"  # the match has a winner


#: The phases in which a hand is in play (dealt and not yet scored).
IN_HAND = frozenset((Phase.CALL, Phase.HIDE, Phase.PLAY))
