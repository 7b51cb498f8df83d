"""The ``heuristic`` bot: a rule-based player for every preset, deciding from the observation only.

Every card decision is the same small calculation (see ``docs/bots.md``):

    value(card) = expected value of the trick if I play it  -  what the card is worth kept

*Expected value of the trick*: the chance that my team ends up winning it
(from card tracking: who may still beat the best card, with a higher card of
the suit led, a trump, a cut or a band-hukum reveal), times what winning or
losing it means - the tens in it, the tricks when they count, and under the
two-in-a-row rule whether the winner collects the centre now or merely
becomes the next collector.  *Worth kept*: a ten is worth what we expect to
capture with it later (little when unguarded, much when it is the boss or a
trump); any other card is worth its chance to win a trick later.

Trump calls, the band-hukum hidden card and the reveal request have their own
small rules.  A result that can no longer change makes every card worth
nothing, so the bot then just plays its lowest card.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from dehla.bots.base import register
from dehla.bots.endgame import Endgame
from dehla.bots.heuristic_weights import Weights
from dehla.bots.tracking import CardTracker, card_bit_above
from dehla.cards import SUIT_MASKS, TEN, Card, Suit, iter_cards, mask_of
from dehla.engine.actions import CALLS, HIDES, Action, Call, Hide, Play, Reveal
from dehla.engine.observe import Observation
from dehla.engine.scoring import hand_outcome
from dehla.engine.tricks import beats, playable, sets_trump, trick_winner
from dehla.errors import DehlaError
from dehla.rules import Rules

__all__ = ["HeuristicBot", "Weights", "suit_strength", "choose_trump_call", "choose_hidden_card"]

#: Honour points used to judge a suit's strength: A, K, Q, J, 10.
_HONOURS = {12: 0.8, 11: 0.6, 10: 0.45, 9: 0.3, TEN: 0.4}


def suit_strength(cards: list[Card] | tuple[Card, ...], suit: int) -> float:
    """How good ``suit`` would be as trump for someone holding ``cards``: length first, then honours."""
    total = 0.0
    for card in cards:
        if card // 13 == suit:
            total += 1.0 + _HONOURS.get(card % 13, 0.0)
    return total


def choose_trump_call(cards: list[Card] | tuple[Card, ...]) -> Suit:
    """The suit to call from the first five cards: the longest, strongest suit (ties: the higher honours)."""
    return max(Suit, key=lambda suit: (suit_strength(cards, suit), -suit))


def choose_hidden_card(cards: list[Card] | tuple[Card, ...]) -> Card:
    """The band-hukum card: the lowest card of the longest, strongest suit, so honours stay in hand."""
    suit = choose_trump_call(cards)
    return min(card for card in cards if card // 13 == suit)


@dataclass
class _Outcome:
    """The trick after a hypothetical card of mine: best card, who holds it, and how trump stands."""

    best: int
    seat: int
    is_trump: bool
    trump: int | None
    cut_open: bool
    hidden_open: bool


class HeuristicBot:
    """A rule-based player: card tracking, partner awareness, ten safety, centre awareness, trump management."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        self.weights = weights or Weights()

    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal_actions`` (only the observation is used)."""
        legal = observation.legal_actions
        if not legal:
            raise DehlaError(f"seat {observation.seat} has no decision to make now")
        if len(legal) == 1:
            return legal[0]
        if self.weights.blunder and self.rng.random() < self.weights.blunder:
            return self.rng.choice(legal)
        first = legal[0]
        if isinstance(first, Call):
            return CALLS[choose_trump_call(observation.hand)]
        if isinstance(first, Hide):
            return HIDES[choose_hidden_card(observation.hand)]
        decision = _Decision(observation, self.weights)
        endgame = self.weights.endgame if observation.players == 4 else self.weights.endgame_many
        if len(observation.hand) <= endgame:
            action = Endgame(decision, self.rng).choose()
            if action is not None:
                return action
        return decision.choose()

    def ranked(self, observation: Observation) -> list[Action]:
        """The legal actions of a card decision, best first by the rule-based value (ties keep the legal order).

        Search bots solve only the first few where solving all of them costs too much.
        """
        legal = observation.legal_actions
        if len(legal) < 2 or not isinstance(legal[0], (Play, Reveal)):
            return list(legal)
        values = _Decision(observation, self.weights).values()
        return sorted(legal, key=lambda action: -values[action])


class _Decision:
    """One card decision: the position as the seat sees it, and the value of each legal action."""

    def __init__(self, obs: Observation, weights: Weights) -> None:
        self.obs = obs
        self.weights = weights
        self.tracker = tracker = CardTracker(obs)
        self.me = obs.seat
        self.team = obs.seat % 2
        self.players = obs.players
        rules = obs.rules
        self.rules = rules
        self.trick = [card for _seat, card in obs.trick]
        self.led: int | None = self.trick[0] // 13 if self.trick else None
        self.trump: int | None = None if obs.trump is None else int(obs.trump)
        self.my_trump: int | None = None if tracker.private_trump is None else int(tracker.private_trump)
        first_after = len(self.trick) + 1
        self.remaining = [(self.me + k) % self.players for k in range(self.players - first_after + 1)][1:]
        self.centre = rules.collection == "centre"
        self.centre_tens = obs.centre_tens
        self.next_collector = obs.next_collector
        self.last_trick = len(obs.tricks) + 1 == rules.tricks_per_hand
        self.tricks_count = rules.scoring != "pagat"
        self.ten_value, self.trick_value = self._stakes()
        self.win_value = weights.win * self.ten_value + self.trick_value
        self.trump_risk = self.trump is not None or tracker.cut_open or tracker.hidden_open
        if self.trick:
            best_index = trick_winner(self.trick, self.trump, tracker.trump_from)
            self.best = self.trick[best_index]
            self.best_seat = obs.trick[best_index][0]
            self.best_is_trump = (
                self.trump is not None
                and self.best // 13 == self.trump
                and self.trump != self.led
                and best_index >= tracker.trump_from
            )
        self.trick_tens = sum(1 for card in self.trick if card % 13 == TEN)
        self._lead_strength: dict[int, float] | None = None

    # ------------------------------------------------------------------------------------------
    # What is at stake

    def _stakes(self) -> tuple[float, float]:
        """Value of one ten and of one trick now, in units of a ten at the start of a hand.

        Both come from the chance of winning the hand if every ten and trick
        still to be decided were a coin toss: a ten or a trick is worth how
        much that chance moves when it goes to my team rather than the other.
        So the values follow the result - nothing once it is settled, tricks
        everything at two tens each in Mendikot and Taash, and the dealing team
        needing three tens in Pagat's rules.
        """
        obs = self.obs
        team = self.team
        rules = self.rules
        dealer_team = obs.dealer % 2 == team
        tens = (obs.tens[team], obs.tens[1 - team])
        tricks = (obs.tricks_won[team], obs.tricks_won[1 - team])
        played = len(obs.tricks)
        left = rules.tricks_per_hand - played
        key = (rules, dealer_team, tens, tricks, left, self.weights.sweep, self.weights.odds)
        return _stakes_of(key)

    # ------------------------------------------------------------------------------------------
    # Choosing

    def values(self) -> dict[Action, float]:
        """The value of every legal action (see the module's docstring)."""
        values: dict[Action, float] = {}
        for action in self.obs.legal_actions:
            if isinstance(action, Reveal):
                values[action] = self._reveal_value()
            else:
                assert isinstance(action, Play)
                values[action] = self._play_value(action.card)
        return values

    def choose(self) -> Action:
        values = self.values()
        return max(values, key=lambda action: values[action])  # the first of the best, in legal order

    def _play_value(self, card: int) -> float:
        outcome = self._after(card, self.trump, self.tracker.cut_open, self.tracker.hidden_open)
        value = self._trick_value(card, outcome) - self._keep_value(card)
        if not self.trick:
            value += self._lead_bonus(card)
            return value
        if self._trumps_partner(outcome):
            value -= self.weights.trump_partner
        if self.tracker.cut_open and outcome.trump is not None and self.trump is None:
            value += self.weights.cut_suit * self._cut_strength(card // 13, card)
        return value

    def _trumps_partner(self, outcome: _Outcome) -> bool:
        """Would my card take, by trumping (or overtrumping), a trick my partner's card is winning?

        The bot does not do that (before the exact endgame): whichever of us takes the trick, my team
        has it, and the trump is worth more kept.  The double-dummy analysis of lost hands flagged
        these plays (the measurement is in ``docs/benchmarks.md``, "Tuned weights").
        """
        return not self.last_trick and self.best_seat % 2 == self.team and outcome.seat == self.me and outcome.is_trump

    def _reveal_value(self) -> float:
        """Expected value of asking for the band-hukum card, over what trump may turn out to be."""
        tracker = self.tracker
        led = self.led
        assert led is not None
        hand = list(self.obs.hand)
        if self.me == tracker.chooser and self.obs.hidden_card is not None:
            suits = {int(self.obs.hidden_card.suit): 1.0}
            hand.append(self.obs.hidden_card)
        else:
            counts = {suit: (tracker.unseen & SUIT_MASKS[suit]).bit_count() for suit in range(4)}
            total = sum(counts.values()) or 1
            suits = {suit: count / total for suit, count in counts.items() if count}
        value = 0.0
        held = mask_of(hand)
        for suit, weight in suits.items():
            best = float("-inf")
            # Whoever asks must then play a trump if it holds one.
            for card in iter_cards(playable(held, led, suit, True, False)):
                outcome = self._after(card, suit, False, False, revealed_now=True)
                best = max(best, self._trick_value(card, outcome) - self._keep_value(card, suit))
            value += weight * best
        return value

    # ------------------------------------------------------------------------------------------
    # The trick

    def _after(
        self, card: int, trump: int | None, cut_open: bool, hidden_open: bool, revealed_now: bool = False
    ) -> _Outcome:
        """The trick's best card after I play ``card``."""
        if not self.trick:
            return _Outcome(card, self.me, False, trump, cut_open, hidden_open)
        led = self.led
        assert led is not None
        suit = card // 13
        if sets_trump(cut_open, led, card):
            return _Outcome(card, self.me, True, suit, False, False)
        best, best_is_trump = self.best, self.best_is_trump
        if revealed_now:
            # Trumps played before the reveal never count: the best is the highest card of the suit led.
            best = max(c for c in self.trick if c // 13 == led)
            best_is_trump = False
        counts_for_me = None if hidden_open else trump
        if beats(card, best, best_is_trump, led, counts_for_me):
            is_trump = counts_for_me is not None and suit == counts_for_me and counts_for_me != led
            return _Outcome(card, self.me, is_trump, trump, cut_open, hidden_open)
        if revealed_now:
            seat = self._seat_of(best)
            return _Outcome(best, seat, False, trump, cut_open, hidden_open)
        return _Outcome(best, self.best_seat, best_is_trump, trump, cut_open, hidden_open)

    def _seat_of(self, card: int) -> int:
        for seat, played in self.obs.trick:
            if played == card:
                return seat
        return self.me  # pragma: no cover - the card is in the trick

    def _p_beat(self, seat: int, outcome: _Outcome, led: int) -> float:
        """Chance that ``seat``, still to play, can beat the best card."""
        tracker = self.tracker
        best = outcome.best
        trump = outcome.trump
        if outcome.is_trump:
            higher = tracker.outstanding(best // 13) & card_bit_above(best)
            if not higher:
                return 0.0
            return tracker.p_void(seat, led) * tracker.p_any(seat, higher)
        higher = tracker.outstanding(led) & card_bit_above(best)
        p_higher = tracker.p_any(seat, higher) if higher else 0.0
        if trump is not None and trump != led:
            trumps = tracker.outstanding(trump)
            p_ruff = tracker.p_any(seat, trumps) if trumps else 0.0
        elif outcome.cut_open:
            p_ruff = 1.0
        elif outcome.hidden_open:
            hidden_suit = self.my_trump if self.me == tracker.chooser else None
            if seat == tracker.chooser:
                p_ruff = self.weights.ruff_chooser
            elif hidden_suit is not None:
                p_ruff = 0.0 if hidden_suit == led else tracker.p_any(seat, tracker.outstanding(hidden_suit))
            else:
                p_ruff = self.weights.ruff_unknown
        else:
            p_ruff = 0.0
        if not p_ruff:
            return p_higher
        return min(1.0, p_higher + tracker.p_void(seat, led) * p_ruff)

    def _p_beat_blind(self, seat: int, outcome: _Outcome, led: int) -> float:
        """Chance that ``seat`` beats the best card if it plays any of its legal cards at random."""
        tracker = self.tracker
        best = outcome.best
        trump = outcome.trump
        size = max(1, self.obs.hand_sizes[seat])
        void = tracker.p_void(seat, led)
        if outcome.is_trump:
            higher = tracker.outstanding(best // 13) & card_bit_above(best)
            return void * self._expected_in(seat, higher) / size if higher else 0.0
        higher = tracker.outstanding(led) & card_bit_above(best)
        length = tracker.suit_length(seat, led)
        follow = (1.0 - void) * min(1.0, self._expected_in(seat, higher) / length) if higher and length > 0 else 0.0
        if trump is not None and trump != led:
            ruff = self._expected_in(seat, tracker.outstanding(trump)) / size
        elif outcome.cut_open:
            ruff = 1.0
        elif outcome.hidden_open:
            ruff = self.weights.ruff_blind_hidden
        else:
            ruff = 0.0
        return min(1.0, follow + void * min(1.0, ruff))

    def _expected_in(self, seat: int, mask: int) -> float:
        """Expected number of the cards of ``mask`` in ``seat``'s hand."""
        tracker = self.tracker
        total = float((tracker.known_held[seat] & mask).bit_count())
        unseen = mask & tracker.unseen
        if unseen:
            expected = tracker.expected()
            for suit in range(4):
                part = (unseen & SUIT_MASKS[suit]).bit_count()
                if part:
                    total += expected[suit][seat] * part / (tracker.unseen & SUIT_MASKS[suit]).bit_count()
        return total

    def _p_opponent_beats(self, seat: int, outcome: _Outcome, led: int) -> float:
        """An opponent beats the best card: a blend of one that always does when it can and one that plays blind."""
        cunning = self.weights.cunning
        can = self._p_beat(seat, outcome, led)
        if cunning >= 1.0 or not can:
            return can
        return cunning * can + (1.0 - cunning) * self._p_beat_blind(seat, outcome, led)

    def _trick_value(self, card: int, outcome: _Outcome) -> float:
        """Expected value for my team of the trick once everybody has played, if I play ``card``."""
        led = self.led if self.led is not None else card // 13
        weights = self.weights
        team = self.team
        states: dict[tuple[int, bool], float] = {(outcome.seat, False): 1.0}
        for seat in self.remaining:
            side = seat % 2
            if side != team:
                beat, willing = self._p_opponent_beats(seat, outcome, led), 1.0
            else:
                beat, willing = self._p_beat(seat, outcome, led), weights.partner_willing
            updated: dict[tuple[int, bool], float] = {}
            for (winner, flipped), chance in states.items():
                if winner % 2 == side:
                    updated[(winner, flipped)] = updated.get((winner, flipped), 0.0) + chance
                    continue
                flip = beat * willing * (weights.overtake_again if flipped else 1.0)
                if flip:
                    updated[(seat, True)] = updated.get((seat, True), 0.0) + chance * flip
                updated[(winner, flipped)] = updated.get((winner, flipped), 0.0) + chance * (1.0 - flip)
            states = updated
        tens = self.trick_tens + (1 if card % 13 == TEN else 0) + self._falling_tens(card, led)
        total = 0.0
        for (winner, _flipped), chance in states.items():
            total += chance * self._won_by(winner, tens, card)
        return total

    def _falling_tens(self, card: int, led: int) -> float:
        """Expected number of tens the players still to play drop into this trick: the ten of the suit led,
        which its holder may have to play (the fewer cards of the suit it holds, the likelier)."""
        tracker = self.tracker
        ten = led * 13 + TEN
        bit = 1 << ten
        if card == ten or (not tracker.unseen & bit and not any(mask & bit for mask in tracker.known_held)):
            return 0.0
        expected = 0.0
        for seat in self.remaining:
            holds = tracker.p_card(seat, ten)
            if holds:
                expected += self.weights.falling * holds / max(1.0, tracker.suit_length(seat, led))
        return expected

    def _won_by(self, winner: int, tens: float, card: int) -> float:
        """What the trick is worth to my team when ``winner`` takes it with ``tens`` tens in it (I play ``card``)."""
        sign = 1.0 if winner % 2 == self.team else -1.0
        if not self.centre:
            return sign * (tens * self.ten_value + self.trick_value)
        pile = self.centre_tens + tens
        if self.last_trick or winner == self.next_collector:
            value = pile * self.ten_value
        elif winner == self.me:
            # I lead the next trick: I collect the pile then if my best lead wins; if it does not, the
            # pile stays in play, so it is then worth no more to us than to them (``centre_rest``; the
            # measurement behind its value is in docs/benchmarks.md, "Heuristic bot").
            follow_up = self._follow_up(card)
            share = follow_up + (1.0 - follow_up) * self.weights.centre_rest
            value = share * pile * self.ten_value
        elif sign > 0:
            value = self.weights.centre_us * pile * self.ten_value
        else:
            value = self.weights.centre_them * pile * self.ten_value
        if self.tricks_count:
            value += self.trick_value
        return sign * value

    def _follow_up(self, card: int) -> float:
        """Chance that my best lead next trick (any card but ``card``) wins it."""
        if self._lead_strength is None:
            strength: dict[int, float] = {}
            for held in self.obs.hand:
                outcome = _Outcome(held, self.me, False, self.trump, self.tracker.cut_open, self.tracker.hidden_open)
                chance = 1.0
                for seat in range(self.players):
                    if seat % 2 != self.team:
                        chance *= 1.0 - self._p_opponent_beats(seat, outcome, held // 13)
                strength[held] = chance
            self._lead_strength = strength
        return max((value for held, value in self._lead_strength.items() if held != card), default=0.0)

    # ------------------------------------------------------------------------------------------
    # Cards kept

    def _keep_value(self, card: int, trump: int | None = None) -> float:
        """What ``card`` is worth if I keep it for later tricks (with what it does for my ten of its suit)."""
        if trump is None:
            trump = self.my_trump
        tracker = self.tracker
        suit = card // 13
        higher = tracker.higher_outstanding(card).bit_count()
        is_trump = trump is not None and suit == trump
        weights = self.weights
        tiebreak = weights.rank_tiebreak * (card % 13)
        length = (tracker.own & SUIT_MASKS[suit]).bit_count()
        if card % 13 == TEN:
            if not self.ten_value:
                return tiebreak
            keep = self._ten_keep(higher, length, is_trump)
            # Kept, the ten is mine with chance ``keep`` and theirs otherwise: a swing of one ten either way.
            winner = weights.ten_as_winner * self.win_value * weights.ten_win_decay**higher
            return (2.0 * keep - 1.0) * self.ten_value + winner + tiebreak
        strength = weights.win_decay**higher
        if is_trump:
            strength = weights.trump_win_floor + (1.0 - weights.trump_win_floor) * strength
        elif self.trump_risk:
            strength *= weights.trump_risk_cut
        value = self.win_value * strength + tiebreak
        if self.centre and is_trump and not higher and weights.last_reserve and self._sure_trumps() == 1:
            # The top trump wins the last trick whatever is led, and the last trick takes what is left.
            # One such trump is enough for that: holding more, any one of them may be spent now.
            value += weights.last_reserve * self._end_pile() * len(self.obs.tricks) / self.rules.tricks_per_hand
        ten = suit * 13 + TEN
        if self.ten_value and tracker.own >> ten & 1:
            # A card that guards my ten: without it the ten is easier to catch.
            ten_higher = tracker.higher_outstanding(ten).bit_count()
            loss = self._ten_keep(ten_higher, length, is_trump) - self._ten_keep(ten_higher, length - 1, is_trump)
            value += 2.0 * loss * self.ten_value
        return value

    def _sure_trumps(self) -> int:
        """How many of my trumps no card still out can beat."""
        trump = self.my_trump
        if trump is None:
            return 0
        tracker = self.tracker
        return sum(1 for card in self.obs.hand if card // 13 == trump and not tracker.higher_outstanding(card))

    def _end_pile(self) -> float:
        """A rough count of the tens still to be collected when the last trick is played."""
        obs = self.obs
        loose = 4 - obs.tens[0] - obs.tens[1] - self.centre_tens
        return (self.centre_tens + self.weights.loose_tens * loose) * self.ten_value

    def _ten_keep(self, higher: int, length: int, is_trump: bool) -> float:
        """Chance of capturing my own ten later, given the higher cards out and how many cards of its suit I hold."""
        weights = self.weights
        late = weights.ten_late * len(self.obs.tricks) / self.rules.tricks_per_hand
        if is_trump:
            keep = weights.ten_trump - weights.ten_trump_danger * higher - late
        elif higher == 0:
            keep = (weights.ten_boss_trumped if self.trump_risk else weights.ten_boss) - late
        else:
            guards = min(length - 1, weights.ten_length_cap)
            keep = weights.ten_base + weights.ten_length * guards - weights.ten_danger * higher - late
        return min(weights.ten_ceiling, max(weights.ten_floor, keep))

    def _lead_bonus(self, card: int) -> float:
        """Leading rules of thumb: draw trumps while holding most of them; never lead an unguarded ten."""
        tracker = self.tracker
        if card % 13 == TEN and tracker.higher_outstanding(card) and card // 13 != self.my_trump:
            return -self.weights.lead_ten * self.ten_value
        trump = self.my_trump
        if trump is None or card // 13 != trump or tracker.hidden_open:
            return 0.0
        mine = (tracker.own & SUIT_MASKS[trump]).bit_count()
        out = tracker.outstanding(trump)
        if not out or mine < out.bit_count():
            return 0.0
        boss = not tracker.higher_outstanding(card)
        return self.weights.draw_trumps * (1.0 if boss else self.weights.draw_trumps_low)

    def _cut_strength(self, suit: int, card: int) -> float:
        """How good a trump ``suit`` would be for me (cut trump): my other cards of it and their honours."""
        others = [c for c in self.obs.hand if c // 13 == suit and c != card]
        return suit_strength(others, suit) - self.weights.cut_alone * (not others)


_NEUTRAL = 0.1875  # what one ten moves the chance of winning at the start of a hand (both scorings)


@functools.lru_cache(maxsize=4096)
def _stakes_of(
    key: tuple[Rules, bool, tuple[int, int], tuple[int, int], int, float, float],
) -> tuple[float, float]:
    """``(ten, trick)`` values for ``(rules, dealer_team, tens, tricks, left, sweep, odds)``: see ``_stakes``."""
    rules, dealer_team, tens, tricks, left, sweep, odds = key
    tens_left = 4 - tens[0] - tens[1]
    if tens_left:
        more = _p_win(rules, dealer_team, (tens[0] + 1, tens[1]), tricks, left, sweep, odds)
        less = _p_win(rules, dealer_team, (tens[0], tens[1] + 1), tricks, left, sweep, odds)
        ten = (more - less) / 2 / _NEUTRAL
    else:
        ten = 0.0
    trick = 0.0
    if left and rules.scoring != "pagat":
        more = _p_win(rules, dealer_team, tens, (tricks[0] + 1, tricks[1]), left - 1, sweep, odds)
        less = _p_win(rules, dealer_team, tens, (tricks[0], tricks[1] + 1), left - 1, sweep, odds)
        trick = (more - less) / 2 / _NEUTRAL
    return max(0.0, ten), max(0.0, trick)


#: A hand's worth to my team by its winner: a win, nobody (a drawn or unscored hand), a loss.
_WORTH = {0: 1.0, None: 0.5, 1: 0.0}


def _p_win(
    rules: Rules,
    dealer_team: bool,
    tens: tuple[int, int],
    tricks: tuple[int, int],
    left: int,
    sweep: float,
    odds: float = 0.5,
) -> float:
    """Chance my team wins the hand if each ten still open is mine with chance ``odds`` and each trick is even.

    My team plays as team 0 of ``scoring.hand_outcome`` (so the dealer sits on team 0 when ``dealer_team``).
    """
    dealer = 0 if dealer_team else 1
    tens_left = 4 - tens[0] - tens[1]
    total = 0.0
    for mine in range(tens_left + 1):
        ten_weight = math.comb(tens_left, mine) * odds**mine * (1.0 - odds) ** (tens_left - mine)
        x, y = tens[0] + mine, tens[1] + tens_left - mine
        if rules.scoring == "pagat":  # tricks never count: one outcome per split of the tens
            value = _WORTH[hand_outcome(rules, dealer, (x, y), tricks).winner]
            value += sweep * ((x == 4) - (y == 4))
            total += ten_weight * value
            continue
        for won in range(left + 1):
            weight = ten_weight * math.comb(left, won) / 2**left
            u, v = tricks[0] + won, tricks[1] + left - won
            value = _WORTH[hand_outcome(rules, dealer, (x, y), (u, v)).winner]
            if rules.scoring == "taash":
                value += sweep * ((x == 4) - (y == 4))
            total += weight * value
    return total


register(
    "heuristic",
    HeuristicBot,
    1,
    "intermediate",
    "rule-based: tracks cards and voids, keeps tens safe, catches the opponents' tens, minds the centre and trumps",
)
