"""What the PettingZoo and Gymnasium environments share: the match driver, rewards and the text render.

``Table`` holds one ``Match`` and the environment's random source, deals the hands (chance is the
environment's, seeded), and reports each finished hand; nothing here chooses a card or reads a hand:
seats see the game through ``observe``, and legality is the engine's ``legal_actions``.
"""

from __future__ import annotations

import random
from typing import Literal

from dehla.engine.actions import Action
from dehla.engine.events import HandResult
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.rules import Rules, parse_rules
from dehla.text import hand_text, score_text, seat_label

__all__ = ["Episode", "Table", "render_text"]

Episode = Literal["hand", "match"]


class Table:
    """One match driven for an environment: deals from a seeded source, reports hand ends.

    ``episode="hand"`` ends the episode after every hand (each reset starts a new match, whose first
    dealer is drawn by lot); ``"match"`` plays hands until the match has a winner.
    """

    def __init__(self, rules: Rules | str | dict[str, object], episode: Episode) -> None:
        if episode not in ("hand", "match"):
            raise DehlaError(f"episode must be 'hand' or 'match', not {episode!r}")
        self.rules = parse_rules(rules)
        self.players = self.rules.players
        self.episode: Episode = episode
        self.rng = random.Random()
        self.match = Match(self.rules)
        self.done = True

    def reset(self, seed: int | None) -> None:
        """A new match (and its first hand) from ``seed`` (``None``: keep drawing from the current source)."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.match = Match.new(self.rules, self.rng)
        self.done = False
        self._deal()

    def _deal(self) -> None:
        match = self.match
        while match.is_chance:
            match.apply(match.random_deal(self.rng))

    def apply(self, action: Action) -> HandResult | None:
        """Apply the seat to act's action; the hand's result if it ended (then the next hand is dealt
        in a match episode, or the episode is done)."""
        match = self.match
        hands = len(match.results)
        match.apply(action)
        if len(match.results) == hands:
            return None
        result = match.results[-1]
        if self.episode == "hand" or match.is_over:
            self.done = True
        else:
            self._deal()
        return result

    def observe(self, seat: int) -> Observation:
        return self.match.observe(seat)


def hand_reward(result: HandResult, seat: int) -> float:
    """+1 when the seat's team won the hand, -1 when it lost, 0 for a drawn hand."""
    if result.winner is None:
        return 0.0
    return 1.0 if result.winner == seat % 2 else -1.0


def match_reward(match: Match, seat: int) -> float:
    """+1 when the seat's team won the match, -1 when it lost (0 while it goes on)."""
    winner = match.winner
    if winner is None:
        return 0.0
    return 1.0 if winner == seat % 2 else -1.0


def render_text(observation: Observation, seat: int | None = None) -> str:
    """A few lines in words: the phase, trump, the trick, the seat's hand, tens and score."""
    rules = observation.rules
    lines = [
        f"hand {observation.hand_number + 1} ({rules.name}), phase {observation.phase}, "
        f"dealer {seat_label(observation.dealer)}, to act "
        + ("-" if observation.to_act is None else seat_label(observation.to_act)),
        "trump: "
        + ("hidden" if observation.trump_hidden else "-" if observation.trump is None else observation.trump.word),
        "trick: " + (" ".join(f"{seat_label(s)}:{card}" for s, card in observation.trick) or "-"),
        f"{seat_label(observation.seat if seat is None else seat)} holds: {hand_text(observation.hand, symbols=False)}",
        f"tens {observation.tens[0]}-{observation.tens[1]}, tricks {observation.tricks_won[0]}-"
        f"{observation.tricks_won[1]}, score {score_text(observation.score, rules)}",
    ]
    return "\n".join(lines)
