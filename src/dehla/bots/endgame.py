"""The heuristic bot's exact play of the last tricks: every deal of the unseen cards, every line of play.

The bot hands its card decision (``heuristic``) to ``Endgame`` once few enough tricks are left
(``Weights.endgame``); the endgame reads only what that decision saw: the observation and its card tracker.
"""

from __future__ import annotations

import math
import random
from typing import Protocol

from dehla.bots.heuristic_weights import Weights
from dehla.bots.tracking import CardTracker
from dehla.cards import ALL_CARDS, TEN, TENS_MASK, Card, mask_of
from dehla.engine.actions import Action, Play
from dehla.engine.observe import Observation
from dehla.engine.scoring import hand_outcome
from dehla.engine.tricks import NOT_YET, collect, playable, sets_trump, trick_winner

__all__ = ["Endgame", "EndgamePosition", "LOW", "HIGH"]


class EndgamePosition(Protocol):
    """What the endgame reads of the card decision it finishes (the heuristic bot's)."""

    obs: Observation
    tracker: CardTracker
    weights: Weights
    me: int
    team: int
    trump: int | None


#: Bounds beyond any hand value (the alpha-beta window before any line is known).
LOW, HIGH = -10.0, 10.0


class Endgame:
    """Exact play of the last tricks: every deal of the unseen cards, every line of play, for each card I may play.

    Within a deal every player is assumed to see all the cards: my team plays
    to maximise my chance of winning the hand, an opponent is taken as a blend
    of one that always finds the best reply and one that plays any legal card
    (``endgame_cunning``).  The card with the best average over the deals is
    played.
    """

    def __init__(self, decision: EndgamePosition, rng: random.Random) -> None:
        self.decision = decision
        self.rng = rng
        obs = decision.obs
        self.rules = obs.rules
        self.players = obs.players
        self.team = decision.team
        self.total = self.rules.tricks_per_hand
        self.centre = self.rules.collection == "centre"
        self.resets = self.rules.streak_resets
        self.sweep = decision.weights.sweep if self.rules.scoring != "mendikot" else 0.0
        self.cunning = decision.weights.endgame_cunning
        self._results: dict[tuple[tuple[int, int], tuple[int, int]], float] = {}

    def choose(self) -> Action | None:
        decision = self.decision
        obs = decision.obs
        tracker = decision.tracker
        if tracker.hidden_open or any(obs.undealt) or obs.phase != "play":
            return None
        plays = [action for action in obs.legal_actions if isinstance(action, Play)]
        if len(plays) != len(obs.legal_actions):
            return None  # pragma: no cover - reveal is only offered while the card is hidden
        limit = self.decision.weights.endgame_deals if self.players == 4 else self.decision.weights.endgame_deals_many
        # Fewer deals when each has many lines of play, so that no decision takes long.
        lines = 1
        for size in obs.hand_sizes:
            lines *= math.factorial(size)
        limit = max(self.decision.weights.endgame_deals_min, min(limit, self.decision.weights.endgame_lines // lines))
        # The greedy pass, not quite uniform: uniform deals did no better here (the measurement is in
        # docs/benchmarks.md, "Heuristic bot").
        deals = tracker.deals(limit, self.rng, exact=False)
        if not deals:
            return None  # pragma: no cover - the real deal is always consistent
        trick = list(obs.trick)
        leader = obs.leader if obs.leader is not None else decision.me
        trump = decision.trump
        trump_from = tracker.trump_from if trump is not None else NOT_YET
        tens = (obs.tens[0], obs.tens[1])
        won = (obs.tricks_won[0], obs.tricks_won[1])
        centre_tens = mask_of(obs.centre) & TENS_MASK
        best_action: Action | None = None
        best_total = float("-inf")
        for action in plays:
            total = 0.0
            for deal in deals:
                hands = list(deal.hands)
                total += self._play(
                    hands=hands,
                    trick=trick,
                    leader=leader,
                    seat=decision.me,
                    card=action.card,
                    trump=trump,
                    trump_from=trump_from,
                    cut_open=tracker.cut_open,
                    pile=centre_tens,
                    collector=obs.next_collector,
                    tens=tens,
                    won=won,
                    played=len(obs.tricks),
                    alpha=LOW,
                    beta=HIGH,
                )
            if total > best_total + 1e-9:
                best_action, best_total = action, total
        return best_action

    def _play(
        self,
        *,
        hands: list[int],
        trick: list[tuple[int, Card]],
        leader: int,
        seat: int,
        card: int,
        trump: int | None,
        trump_from: int,
        cut_open: bool,
        pile: int,
        collector: int | None,
        tens: tuple[int, int],
        won: tuple[int, int],
        played: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Value for my team after ``seat`` plays ``card``, both sides playing perfectly from there (alpha-beta).

        The line of play so far within one deal: ``hands`` (masks, copied before a change), ``trick`` as (seat,
        card) in play order, its ``leader``, ``trump`` and ``trump_from`` (the trick index from which trumps count),
        ``cut_open`` (the next card off the suit led makes trump), ``pile`` (the centre's tens, a mask),
        ``collector`` (who takes it with one more trick), ``tens`` and ``won`` per team, the tricks ``played``.
        Keyword-only, so that none is passed out of order; not a frozen state object, whose fields cost more to
        read at every card than arguments cost to bind (docs/benchmarks.md, "Endgame arguments")."""
        hands = list(hands)
        hands[seat] &= ~(1 << card)
        if sets_trump(cut_open, trick[0][1] // 13 if trick else None, card):
            trump, trump_from, cut_open = card // 13, len(trick), False
        trick = [*trick, (seat, ALL_CARDS[card])]
        if len(trick) < self.players:
            return self._turn(
                hands=hands,
                trick=trick,
                leader=leader,
                trump=trump,
                trump_from=trump_from,
                cut_open=cut_open,
                pile=pile,
                collector=collector,
                tens=tens,
                won=won,
                played=played,
                alpha=alpha,
                beta=beta,
            )
        cards = [played_card for _seat, played_card in trick]
        winner = (leader + trick_winner(cards, trump, trump_from)) % self.players
        side = winner % 2
        played += 1
        last = played == self.total
        won = (won[0] + 1, won[1]) if side == 0 else (won[0], won[1] + 1)
        # Only the tens matter here, so the centre (``pile``) and what a trick takes are masks of tens.
        trick_tens = sum(1 << played_card for played_card in cards if played_card % 13 == TEN)
        taken, pile, collector = collect(trick_tens, winner, pile, collector, last, not self.centre, self.resets)
        if taken:
            count = taken.bit_count()
            tens = (tens[0] + count, tens[1]) if side == 0 else (tens[0], tens[1] + count)
        if last:
            return self._result(tens, won)
        if played + 1 == self.total:
            return self._final_trick(hands, winner, trump, cut_open, pile, tens, won)
        follow_from = 0 if trump is not None else NOT_YET
        return self._turn(
            hands=hands,
            trick=[],
            leader=winner,
            trump=trump,
            trump_from=follow_from,
            cut_open=cut_open,
            pile=pile,
            collector=collector,
            tens=tens,
            won=won,
            played=played,
            alpha=alpha,
            beta=beta,
        )

    def _turn(
        self,
        *,
        hands: list[int],
        trick: list[tuple[int, Card]],
        leader: int,
        trump: int | None,
        trump_from: int,
        cut_open: bool,
        pile: int,
        collector: int | None,
        tens: tuple[int, int],
        won: tuple[int, int],
        played: int,
        alpha: float,
        beta: float,
    ) -> float:
        seat = (leader + len(trick)) % self.players
        # Nothing is face down here (``choose``), so nobody must trump and nobody plays freely.
        hand = playable(hands[seat], trick[0][1] // 13 if trick else None, trump, False, False)
        mine = seat % 2 == self.team
        # Opponents are partly the best reply, partly any legal card: their values are blended, with no
        # pruning below such a node (the full window); otherwise alpha-beta for my team and a perfect opponent.
        blend = not mine and self.cunning < 1.0
        low_bound, high_bound = (LOW, HIGH) if blend else (alpha, beta)
        best = LOW if mine else HIGH
        total = 0.0
        count = 0
        while hand:
            low = hand & -hand
            hand ^= low
            value = self._play(
                hands=hands,
                trick=trick,
                leader=leader,
                seat=seat,
                card=low.bit_length() - 1,
                trump=trump,
                trump_from=trump_from,
                cut_open=cut_open,
                pile=pile,
                collector=collector,
                tens=tens,
                won=won,
                played=played,
                alpha=low_bound,
                beta=high_bound,
            )
            if mine:
                best = max(best, value)
                low_bound = max(low_bound, best)
            else:
                best = min(best, value)
                if blend:
                    total += value
                    count += 1
                    continue
                high_bound = min(high_bound, best)
            if low_bound >= high_bound:
                break
        if blend:
            return self.cunning * best + (1.0 - self.cunning) * total / count
        return best

    def _final_trick(
        self,
        hands: list[int],
        leader: int,
        trump: int | None,
        cut_open: bool,
        pile: int,
        tens: tuple[int, int],
        won: tuple[int, int],
    ) -> float:
        """The last trick, where every player has one card left: no choice, so no search (the hot path)."""
        cards: list[int] = []
        trump_from = 0 if trump is not None else NOT_YET
        for offset in range(self.players):
            card = hands[(leader + offset) % self.players].bit_length() - 1
            if sets_trump(cut_open, cards[0] // 13 if offset else None, card):
                trump, trump_from, cut_open = card // 13, offset, False
            cards.append(card)
        winner = (leader + trick_winner(cards, trump, trump_from)) % self.players
        side = winner % 2
        trick_tens = sum(1 << card for card in cards if card % 13 == TEN)
        taken = collect(trick_tens, winner, pile, None, True, not self.centre, self.resets)[0].bit_count()
        won = (won[0] + 1, won[1]) if side == 0 else (won[0], won[1] + 1)
        tens = (tens[0] + taken, tens[1]) if side == 0 else (tens[0], tens[1] + taken)
        return self._result(tens, won)

    def _result(self, tens: tuple[int, int], won: tuple[int, int]) -> float:
        key = (tens, won)
        value = self._results.get(key)
        if value is None:
            outcome = hand_outcome(self.rules, self.decision.obs.dealer, tens, won)
            value = 1.0 if outcome.winner == self.team else (0.5 if outcome.winner is None else 0.0)
            if self.sweep:
                value += self.sweep * ((tens[self.team] == 4) - (tens[1 - self.team] == 4))
            self._results[key] = value
        return value
