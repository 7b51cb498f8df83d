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
from dehla.bots.tracking import CardTracker, beats, card_bit_above
from dehla.cards import ALL_CARDS, SUIT_MASKS, TEN, TENS_MASK, Card, Suit, mask_of
from dehla.engine.actions import CALLS, HIDES, Action, Call, Hide, Play, Reveal
from dehla.engine.observe import Observation
from dehla.engine.scoring import hand_outcome
from dehla.engine.tricks import NOT_YET, collect, trick_winner
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


@dataclass(frozen=True)
class Weights:
    """Every tuned number of the bot, each with its reason: worths in units of one ten captured, chances and
    shares as fractions.  How the tuned ones were chosen is in docs/benchmarks.md ("Heuristic bot")."""

    trick: float = 0.15  # a trick, when tricks count (Mendikot, Taash)
    win: float = 0.4  # a card that may win a later trick, kept in hand
    centre_us: float = 0.5  # my team becoming the next collector of the centre (share of its tens)
    centre_rest: float = 0.0  # ... my share of it when I won the trick but my next lead may not win
    centre_them: float = 0.05  # the opponents becoming the next collector
    cunning: float = 0.0  # opponents beat a card when they can (1) or play blind (0), or in between
    partner_willing: float = 1.0  # how surely partner beats an opponent's card when it can
    overtake_again: float = 0.5  # once someone still to play has overtaken, the chance a later one beats the
    # (higher, unknown) card now best is taken as this share of its chance to beat the card it had to beat
    draw_trumps: float = 0.12  # leading trumps while holding most of them
    falling: float = 0.8  # how surely a player holding the ten of the suit led drops it, per card of the suit
    last_reserve: float = 0.3  # keeping the top trump for the last trick, per ten expected in the centre then
    lead_ten: float = 0.6  # leading a ten that a higher card still out can catch
    trump_partner: float = 10.0  # trumping a trick my partner's card is winning (large: only when every card would)
    cut_suit: float = 0.06  # per unit of strength of the suit a cut would make trump
    ten_base: float = 0.55  # chance of saving a ten with higher cards out, before length and danger
    ten_length: float = 0.1  # ... more for each other card of its suit I hold
    ten_length_cap: int = 3  # ... counting at most this many: past three guards, length no longer protects a ten
    ten_danger: float = 0.06  # ... less for each higher card still out
    ten_late: float = 0.2  # ... less as the hand goes on
    ten_floor: float = 0.4  # ... never below this: it may still be dropped on partner's winner later
    odds: float = 0.5  # chance that each ten still open ends with my team, in judging what a ten is worth
    sweep: float = 0.3  # extra worth of taking all four tens (a kot in Pagat's rules, 80 points in Taash)
    endgame: int = 3  # play the last this many tricks exactly, over every deal of the unseen cards
    endgame_deals: int = 12  # ... or over this many random deals when there are more
    endgame_many: int = 2  # ... with six or eight players (longer tricks, many more lines of play)
    endgame_cunning: float = 0.3  # opponents in the exact endgame: best reply (1) or any card (0), or in between
    endgame_deals_many: int = 12  # ... with six or eight players (longer tricks, many more deals)
    endgame_lines: int = 12000  # ... and at most about this many lines of play in all
    blunder: float = 0.0  # chance of a random legal action (a weaker player)
    # Chances the card tracker cannot give: how likely a player void in the suit led can trump.
    ruff_chooser: float = 0.9  # the band-hukum chooser, card still hidden: it chose the suit, so holds most of it
    ruff_unknown: float = 0.45  # anyone else, when I do not know the hidden suit: about one suit in two is live
    ruff_blind_hidden: float = 0.2  # a void player playing blind, card still hidden: few of its cards are trumps
    # What a card kept for later is worth, as a share of ``win`` (a likely winner).
    win_decay: float = 0.55  # per higher card still out: each one may take the trick my card would win
    trump_win_floor: float = 0.35  # a trump wins at least this often: it also beats every card of a void suit
    trump_risk_cut: float = 0.75  # a card of a plain suit while a trump is live: it may be trumped
    ten_as_winner: float = 0.5  # a ten kept is also a card that may win a trick, less so than any other card
    ten_win_decay: float = 0.5  # ... per higher card still out (steeper than win_decay: it is a target)
    rank_tiebreak: float = 0.002  # per rank: between cards of equal value keep the higher, play the lower
    # Chance of capturing my own ten later (see ``ten_base``), where no card of the suit decides it.
    ten_trump: float = 0.9  # a ten of trumps: only a higher trump takes it
    ten_trump_danger: float = 0.06  # ... less for each higher trump still out
    ten_boss: float = 0.9  # a ten no card still out can beat, while no trump can be played
    ten_boss_trumped: float = 0.8  # ... and while a trump is or may become live: a void player may trump it
    ten_ceiling: float = 0.95  # never above this: a ten can always be lost to a line nobody tracks
    loose_tens: float = 0.3  # share of the tens neither taken nor in the centre expected there by the last trick
    draw_trumps_low: float = 0.3  # share of ``draw_trumps`` for leading a trump a card still out can beat
    cut_alone: float = 1.0  # strength taken off a cut that would leave me no other card of the new trump suit
    endgame_deals_min: int = 4  # the exact endgame looks at no fewer deals, however many lines each has


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
            action = _Endgame(decision, self.rng).choose()
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
        return (
            not self.last_trick
            and self.best_seat % 2 == self.team
            and outcome.seat == self.me
            and outcome.is_trump
        )

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
        for suit, weight in suits.items():
            follow = [card for card in hand if card // 13 == led]
            trumps = [card for card in hand if card // 13 == suit]
            allowed = follow or trumps or hand
            best = float("-inf")
            for card in allowed:
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
        if cut_open and suit != led:
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


_LOW, _HIGH = -10.0, 10.0  # beyond any hand value


class _Endgame:
    """Exact play of the last tricks: every deal of the unseen cards, every line of play, for each card I may play.

    Within a deal every player is assumed to see all the cards: my team plays
    to maximise my chance of winning the hand, an opponent is taken as a blend
    of one that always finds the best reply and one that plays any legal card
    (``endgame_cunning``).  The card with the best average over the deals is
    played.
    """

    def __init__(self, decision: _Decision, rng: random.Random) -> None:
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
                    hands=hands, trick=trick, leader=leader, seat=decision.me, card=action.card, trump=trump,
                    trump_from=trump_from, cut_open=tracker.cut_open, pile=centre_tens, collector=obs.next_collector,
                    tens=tens, won=won, played=len(obs.tricks), alpha=_LOW, beta=_HIGH,
                )
            if total > best_total + 1e-9:
                best_action, best_total = action, total
        return best_action

    def _play(
        self, *, hands: list[int], trick: list[tuple[int, Card]], leader: int, seat: int, card: int,
        trump: int | None, trump_from: int, cut_open: bool, pile: int, collector: int | None,
        tens: tuple[int, int], won: tuple[int, int], played: int, alpha: float, beta: float,
    ) -> float:
        """Value for my team after ``seat`` plays ``card``, both sides playing perfectly from there (alpha-beta).

        The line of play so far, as everybody sees it within one deal: ``hands`` (masks, copied before a change),
        ``trick`` as (seat, card) in play order, its ``leader``, ``trump`` and ``trump_from`` (the index in the trick
        from which trumps count), ``cut_open`` (the first card off the suit led will make trump), ``pile`` (the
        tens in the centre, a mask), ``collector`` (the seat that takes it with one more trick), ``tens`` and
        ``won`` per team, and the tricks ``played``.  Keyword-only, so that no caller can pass them out of order;
        not a frozen state object, whose fields cost more to read at every card than arguments cost to bind
        (docs/benchmarks.md, "Endgame arguments").
        """
        hands = list(hands)
        hands[seat] &= ~(1 << card)
        if trick and cut_open and card // 13 != trick[0][1] // 13:
            trump, trump_from, cut_open = card // 13, len(trick), False
        trick = [*trick, (seat, ALL_CARDS[card])]
        if len(trick) < self.players:
            return self._turn(
                hands=hands, trick=trick, leader=leader, trump=trump, trump_from=trump_from, cut_open=cut_open,
                pile=pile, collector=collector, tens=tens, won=won, played=played, alpha=alpha, beta=beta,
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
            hands=hands, trick=[], leader=winner, trump=trump, trump_from=follow_from, cut_open=cut_open,
            pile=pile, collector=collector, tens=tens, won=won, played=played, alpha=alpha, beta=beta,
        )

    def _turn(
        self, *, hands: list[int], trick: list[tuple[int, Card]], leader: int, trump: int | None, trump_from: int,
        cut_open: bool, pile: int, collector: int | None, tens: tuple[int, int], won: tuple[int, int], played: int,
        alpha: float, beta: float,
    ) -> float:
        seat = (leader + len(trick)) % self.players
        hand = hands[seat]
        if trick:
            follow = hand & SUIT_MASKS[trick[0][1] // 13]
            if follow:
                hand = follow
        mine = seat % 2 == self.team
        cunning = self.cunning
        if not mine and cunning < 1.0:
            # Opponents: partly the best reply, partly any legal card (no pruning below such a node).
            values = []
            while hand:
                low = hand & -hand
                hand ^= low
                values.append(self._play(
                    hands=hands, trick=trick, leader=leader, seat=seat, card=low.bit_length() - 1, trump=trump,
                    trump_from=trump_from, cut_open=cut_open, pile=pile, collector=collector, tens=tens, won=won,
                    played=played, alpha=_LOW, beta=_HIGH,
                ))
            return cunning * min(values) + (1.0 - cunning) * sum(values) / len(values)
        best = _LOW if mine else _HIGH
        while hand:
            low = hand & -hand
            hand ^= low
            value = self._play(
                hands=hands, trick=trick, leader=leader, seat=seat, card=low.bit_length() - 1, trump=trump,
                trump_from=trump_from, cut_open=cut_open, pile=pile, collector=collector, tens=tens, won=won,
                played=played, alpha=alpha, beta=beta,
            )
            if mine:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def _final_trick(
        self, hands: list[int], leader: int, trump: int | None, cut_open: bool, pile: int,
        tens: tuple[int, int], won: tuple[int, int],
    ) -> float:
        """The last trick, where every player has one card left: no choice, so no search (the hot path)."""
        cards: list[int] = []
        trump_from = 0 if trump is not None else NOT_YET
        for offset in range(self.players):
            card = hands[(leader + offset) % self.players].bit_length() - 1
            if offset and cut_open and card // 13 != cards[0] // 13:
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
