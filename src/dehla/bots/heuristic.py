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
from dehla.bots.tracking import CardTracker, beats, card_bit_above, trick_winner_index
from dehla.cards import ALL_CARDS, SUIT_MASKS, TEN, Card, Suit
from dehla.engine.actions import CALLS, HIDES, Action, Call, Hide, Play, Reveal
from dehla.engine.observe import Observation
from dehla.engine.scoring import hand_outcome
from dehla.errors import DehlaError

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
    """Tuning constants, in units of one ten captured."""

    trick: float = 0.15  # a trick, when tricks count (Mendikot, Taash)
    win: float = 0.4  # a card that may win a later trick, kept in hand
    centre_us: float = 0.5  # my team becoming the next collector of the centre (share of its tens)
    centre_rest: float = 0.0  # ... my share of it when I won the trick but my next lead may not win
    centre_them: float = 0.05  # the opponents becoming the next collector
    cunning: float = 0.0  # opponents beat a card when they can (1) or play blind (0), or in between
    partner_willing: float = 1.0  # how surely partner beats an opponent's card when it can
    draw_trumps: float = 0.12  # leading trumps while holding most of them
    falling: float = 0.8  # how surely a player holding the ten of the suit led drops it, per card of the suit
    last_reserve: float = 0.3  # keeping the top trump for the last trick, per ten expected in the centre then
    lead_ten: float = 0.6  # leading a ten that a higher card still out can catch
    trump_partner: float = 10.0  # trumping a trick my partner's card is winning (large: only when every card would)
    cut_suit: float = 0.06  # per unit of strength of the suit a cut would make trump
    ten_base: float = 0.55  # chance of saving a ten with higher cards out, before length and danger
    ten_length: float = 0.1  # ... more for each other card of its suit I hold
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
        self.w = weights
        self.t = t = CardTracker(obs)
        self.me = obs.seat
        self.team = obs.seat % 2
        self.n = obs.players
        rules = obs.rules
        self.rules = rules
        self.trick = [card for _seat, card in obs.trick]
        self.led: int | None = self.trick[0] // 13 if self.trick else None
        self.trump: int | None = None if obs.trump is None else int(obs.trump)
        self.my_trump: int | None = None if t.private_trump is None else int(t.private_trump)
        first_after = len(self.trick) + 1
        self.remaining = [(self.me + k) % self.n for k in range(self.n - first_after + 1)][1:]
        self.centre = rules.collection == "centre"
        self.centre_tens = obs.centre_tens
        self.next_collector = obs.next_collector
        self.last_trick = len(obs.tricks) + 1 == rules.tricks_per_hand
        self.tricks_count = rules.scoring != "pagat"
        self.ten_value, self.trick_value = self._stakes()
        self.win_value = weights.win * self.ten_value + self.trick_value
        self.trump_risk = self.trump is not None or t.cut_open or t.hidden_open
        if self.trick:
            best_index = trick_winner_index(self.trick, self.trump, t.trump_from)
            self.best = self.trick[best_index]
            self.best_seat = obs.trick[best_index][0]
            self.best_is_trump = (
                self.trump is not None
                and self.best // 13 == self.trump
                and self.trump != self.led
                and best_index >= t.trump_from
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
        key = (rules.scoring, rules.trick_minimum, dealer_team, tens, tricks, left, self.w.sweep, self.w.odds)
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
        outcome = self._after(card, self.trump, self.t.cut_open, self.t.hidden_open)
        value = self._trick_value(card, outcome) - self._keep_value(card)
        if not self.trick:
            value += self._lead_bonus(card)
            return value
        if self._trumps_partner(outcome):
            value -= self.w.trump_partner
        if self.t.cut_open and outcome.trump is not None and self.trump is None:
            value += self.w.cut_suit * self._cut_strength(card // 13, card)
        return value

    def _trumps_partner(self, outcome: _Outcome) -> bool:
        """Would my card take, by trumping (or overtrumping), a trick my partner's card is winning?

        The bot does not do that (before the exact endgame): whichever of us takes the trick, my team
        has it, and the trump is worth more kept.  The double-dummy analysis of lost hands flagged
        these plays; forbidding them won more hands against ``random`` in ``pagat`` on 7 of 8 seeds
        (``docs/benchmarks.md``, "Fourth round").
        """
        return (
            not self.last_trick
            and self.best_seat % 2 == self.team
            and outcome.seat == self.me
            and outcome.is_trump
        )

    def _reveal_value(self) -> float:
        """Expected value of asking for the band-hukum card, over what trump may turn out to be."""
        t = self.t
        led = self.led
        assert led is not None
        hand = list(self.obs.hand)
        if self.me == t.chooser and self.obs.hidden_card is not None:
            suits = {int(self.obs.hidden_card.suit): 1.0}
            hand.append(self.obs.hidden_card)
        else:
            counts = {suit: (t.unseen & SUIT_MASKS[suit]).bit_count() for suit in range(4)}
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
        t = self.t
        best = outcome.best
        trump = outcome.trump
        if outcome.is_trump:
            higher = t.outstanding(best // 13) & card_bit_above(best)
            if not higher:
                return 0.0
            return t.p_void(seat, led) * t.p_any(seat, higher)
        higher = t.outstanding(led) & card_bit_above(best)
        p_higher = t.p_any(seat, higher) if higher else 0.0
        if trump is not None and trump != led:
            trumps = t.outstanding(trump)
            p_ruff = t.p_any(seat, trumps) if trumps else 0.0
        elif outcome.cut_open:
            p_ruff = 1.0
        elif outcome.hidden_open:
            hidden_suit = self.my_trump if self.me == t.chooser else None
            if seat == t.chooser:
                p_ruff = 0.9
            elif hidden_suit is not None:
                p_ruff = 0.0 if hidden_suit == led else t.p_any(seat, t.outstanding(hidden_suit))
            else:
                p_ruff = 0.45
        else:
            p_ruff = 0.0
        if not p_ruff:
            return p_higher
        return min(1.0, p_higher + t.p_void(seat, led) * p_ruff)

    def _p_beat_blind(self, seat: int, outcome: _Outcome, led: int) -> float:
        """Chance that ``seat`` beats the best card if it plays any of its legal cards at random."""
        t = self.t
        best = outcome.best
        trump = outcome.trump
        size = max(1, self.obs.hand_sizes[seat])
        void = t.p_void(seat, led)
        if outcome.is_trump:
            higher = t.outstanding(best // 13) & card_bit_above(best)
            return void * self._expected_in(seat, higher) / size if higher else 0.0
        higher = t.outstanding(led) & card_bit_above(best)
        length = t.suit_length(seat, led)
        follow = (1.0 - void) * min(1.0, self._expected_in(seat, higher) / length) if higher and length > 0 else 0.0
        if trump is not None and trump != led:
            ruff = self._expected_in(seat, t.outstanding(trump)) / size
        elif outcome.cut_open:
            ruff = 1.0
        elif outcome.hidden_open:
            ruff = 0.2
        else:
            ruff = 0.0
        return min(1.0, follow + void * min(1.0, ruff))

    def _expected_in(self, seat: int, mask: int) -> float:
        """Expected number of the cards of ``mask`` in ``seat``'s hand."""
        t = self.t
        total = float((t.known_held[seat] & mask).bit_count())
        unseen = mask & t.unseen
        if unseen:
            expected = t.expected()
            for suit in range(4):
                part = (unseen & SUIT_MASKS[suit]).bit_count()
                if part:
                    total += expected[suit][seat] * part / (t.unseen & SUIT_MASKS[suit]).bit_count()
        return total

    def _p_opponent_beats(self, seat: int, outcome: _Outcome, led: int) -> float:
        """An opponent beats the best card: a blend of one that always does when it can and one that plays blind."""
        cunning = self.w.cunning
        can = self._p_beat(seat, outcome, led)
        if cunning >= 1.0 or not can:
            return can
        return cunning * can + (1.0 - cunning) * self._p_beat_blind(seat, outcome, led)

    def _trick_value(self, card: int, outcome: _Outcome) -> float:
        """Expected value for my team of the trick once everybody has played, if I play ``card``."""
        led = self.led if self.led is not None else card // 13
        w = self.w
        team = self.team
        states: dict[tuple[int, bool], float] = {(outcome.seat, False): 1.0}
        for seat in self.remaining:
            side = seat % 2
            if side != team:
                beat, willing = self._p_opponent_beats(seat, outcome, led), 1.0
            else:
                beat, willing = self._p_beat(seat, outcome, led), w.partner_willing
            updated: dict[tuple[int, bool], float] = {}
            for (winner, flipped), chance in states.items():
                if winner % 2 == side:
                    updated[(winner, flipped)] = updated.get((winner, flipped), 0.0) + chance
                    continue
                flip = beat * willing * (0.5 if flipped else 1.0)
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
        t = self.t
        ten = led * 13 + TEN
        bit = 1 << ten
        if card == ten or (not t.unseen & bit and not any(mask & bit for mask in t.known_held)):
            return 0.0
        expected = 0.0
        for seat in self.remaining:
            holds = t.p_card(seat, ten)
            if holds:
                expected += self.w.falling * holds / max(1.0, t.suit_length(seat, led))
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
            # pile stays in play, so it is then worth no more to us than to them (``centre_rest`` 0: on
            # 64,000 pagat hands against random, 0.2 won 84 fewer, docs/benchmarks.md).
            follow_up = self._follow_up(card)
            share = follow_up + (1.0 - follow_up) * self.w.centre_rest
            value = share * pile * self.ten_value
        elif sign > 0:
            value = self.w.centre_us * pile * self.ten_value
        else:
            value = self.w.centre_them * pile * self.ten_value
        if self.tricks_count:
            value += self.trick_value
        return sign * value

    def _follow_up(self, card: int) -> float:
        """Chance that my best lead next trick (any card but ``card``) wins it."""
        if self._lead_strength is None:
            strength: dict[int, float] = {}
            for held in self.obs.hand:
                outcome = _Outcome(held, self.me, False, self.trump, self.t.cut_open, self.t.hidden_open)
                chance = 1.0
                for seat in range(self.n):
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
        t = self.t
        suit = card // 13
        higher = t.higher_outstanding(card).bit_count()
        is_trump = trump is not None and suit == trump
        tiebreak = 0.002 * (card % 13)
        length = (t.own & SUIT_MASKS[suit]).bit_count()
        if card % 13 == TEN:
            if not self.ten_value:
                return tiebreak
            keep = self._ten_keep(higher, length, is_trump)
            return (2.0 * keep - 1.0) * self.ten_value + 0.5 * self.win_value * 0.5**higher + tiebreak
        strength = 0.55**higher
        if is_trump:
            strength = 0.35 + 0.65 * strength
        elif self.trump_risk:
            strength *= 0.75
        value = self.win_value * strength + tiebreak
        if self.centre and is_trump and not higher and self.w.last_reserve and self._sure_trumps() == 1:
            # The top trump wins the last trick whatever is led, and the last trick takes what is left.
            # One such trump is enough for that: holding more, any one of them may be spent now.
            value += self.w.last_reserve * self._end_pile() * len(self.obs.tricks) / self.rules.tricks_per_hand
        ten = suit * 13 + TEN
        if self.ten_value and t.own >> ten & 1:
            # A card that guards my ten: without it the ten is easier to catch.
            ten_higher = t.higher_outstanding(ten).bit_count()
            loss = self._ten_keep(ten_higher, length, is_trump) - self._ten_keep(ten_higher, length - 1, is_trump)
            value += 2.0 * loss * self.ten_value
        return value

    def _sure_trumps(self) -> int:
        """How many of my trumps no card still out can beat."""
        trump = self.my_trump
        if trump is None:
            return 0
        t = self.t
        return sum(1 for card in self.obs.hand if card // 13 == trump and not t.higher_outstanding(card))

    def _end_pile(self) -> float:
        """A rough count of the tens still to be collected when the last trick is played."""
        obs = self.obs
        loose = 4 - obs.tens[0] - obs.tens[1] - self.centre_tens
        return (self.centre_tens + 0.3 * loose) * self.ten_value

    def _ten_keep(self, higher: int, length: int, is_trump: bool) -> float:
        """Chance of capturing my own ten later, given the higher cards out and how many cards of its suit I hold."""
        w = self.w
        late = w.ten_late * len(self.obs.tricks) / self.rules.tricks_per_hand
        if is_trump:
            keep = 0.9 - 0.06 * higher - late
        elif higher == 0:
            keep = (0.8 if self.trump_risk else 0.9) - late
        else:
            keep = w.ten_base + w.ten_length * min(length - 1, 3) - w.ten_danger * higher - late
        return min(0.95, max(w.ten_floor, keep))

    def _lead_bonus(self, card: int) -> float:
        """Leading rules of thumb: draw trumps while holding most of them; never lead an unguarded ten."""
        t = self.t
        if card % 13 == TEN and t.higher_outstanding(card) and card // 13 != self.my_trump:
            return -self.w.lead_ten * self.ten_value
        trump = self.my_trump
        if trump is None or card // 13 != trump or t.hidden_open:
            return 0.0
        mine = (t.own & SUIT_MASKS[trump]).bit_count()
        out = t.outstanding(trump)
        if not out or mine < out.bit_count():
            return 0.0
        boss = not t.higher_outstanding(card)
        return self.w.draw_trumps * (1.0 if boss else 0.3)

    def _cut_strength(self, suit: int, card: int) -> float:
        """How good a trump ``suit`` would be for me (cut trump): my other cards of it and their honours."""
        others = [c for c in self.obs.hand if c // 13 == suit and c != card]
        return suit_strength(others, suit) - 1.0 * (not others)


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
        self.d = decision
        self.rng = rng
        obs = decision.obs
        self.rules = obs.rules
        self.n = obs.players
        self.team = decision.team
        self.total = self.rules.tricks_per_hand
        self.centre = self.rules.collection == "centre"
        self.resets = self.rules.streak_resets
        self.sweep = decision.w.sweep if self.rules.scoring != "mendikot" else 0.0
        self.cunning = decision.w.endgame_cunning
        self._results: dict[tuple[tuple[int, int], tuple[int, int]], float] = {}

    def choose(self) -> Action | None:
        d = self.d
        obs = d.obs
        t = d.t
        if t.hidden_open or any(obs.undealt) or obs.phase != "play":
            return None
        plays = [action for action in obs.legal_actions if isinstance(action, Play)]
        if len(plays) != len(obs.legal_actions):
            return None  # pragma: no cover - reveal is only offered while the card is hidden
        limit = self.d.w.endgame_deals if self.n == 4 else self.d.w.endgame_deals_many
        # Fewer deals when each has many lines of play, so that no decision takes long.
        lines = 1
        for size in obs.hand_sizes:
            lines *= math.factorial(size)
        limit = max(4, min(limit, self.d.w.endgame_lines // lines))
        # The greedy pass, not quite uniform: uniform deals did no better here (pagat against random, eight
        # seeds of 2,000 deals: 17 hands fewer in 32,000, 44 better and 61 worse; docs/benchmarks.md).
        deals = t.deals(limit, self.rng, exact=False)
        if not deals:
            return None  # pragma: no cover - the real deal is always consistent
        trick = list(obs.trick)
        leader = obs.leader if obs.leader is not None else d.me
        trump = d.trump
        trump_from = t.trump_from if trump is not None else 99
        tens = (obs.tens[0], obs.tens[1])
        won = (obs.tricks_won[0], obs.tricks_won[1])
        best_action: Action | None = None
        best_total = float("-inf")
        for action in plays:
            total = 0.0
            for deal in deals:
                hands = list(deal.hands)
                total += self._play(
                    hands, trick, leader, d.me, action.card, trump, trump_from, t.cut_open,
                    d.centre_tens, obs.next_collector, tens, won, len(obs.tricks), _LOW, _HIGH,
                )
            if total > best_total + 1e-9:
                best_action, best_total = action, total
        return best_action

    def _play(
        self, hands: list[int], trick: list[tuple[int, Card]], leader: int, seat: int, card: int,
        trump: int | None, trump_from: int, cut_open: bool, pile: int, collector: int | None,
        tens: tuple[int, int], won: tuple[int, int], played: int, alpha: float, beta: float,
    ) -> float:
        """Value for my team after ``seat`` plays ``card``, both sides playing perfectly from there (alpha-beta)."""
        hands = list(hands)
        hands[seat] &= ~(1 << card)
        if trick and cut_open and card // 13 != trick[0][1] // 13:
            trump, trump_from, cut_open = card // 13, len(trick), False
        trick = [*trick, (seat, ALL_CARDS[card])]
        if len(trick) < self.n:
            return self._turn(
                hands, trick, leader, trump, trump_from, cut_open, pile, collector, tens, won, played, alpha, beta
            )
        cards = [played_card for _seat, played_card in trick]
        winner = (leader + trick_winner_index(cards, trump, trump_from)) % self.n
        side = winner % 2
        in_trick = sum(1 for played_card in cards if played_card % 13 == TEN)
        played += 1
        last = played == self.total
        won = (won[0] + 1, won[1]) if side == 0 else (won[0], won[1] + 1)
        if not self.centre:
            tens = (tens[0] + in_trick, tens[1]) if side == 0 else (tens[0], tens[1] + in_trick)
        else:
            pile += in_trick
            if last or winner == collector:
                tens = (tens[0] + pile, tens[1]) if side == 0 else (tens[0], tens[1] + pile)
                pile = 0
                collector = None if self.resets else winner
            else:
                collector = winner
        if last:
            return self._result(tens, won)
        if played + 1 == self.total:
            return self._final_trick(hands, winner, trump, cut_open, pile, tens, won)
        follow_from = 0 if trump is not None else 99
        return self._turn(
            hands, [], winner, trump, follow_from, cut_open, pile, collector, tens, won, played, alpha, beta
        )

    def _turn(
        self, hands: list[int], trick: list[tuple[int, Card]], leader: int, trump: int | None, trump_from: int,
        cut_open: bool, pile: int, collector: int | None, tens: tuple[int, int], won: tuple[int, int], played: int,
        alpha: float, beta: float,
    ) -> float:
        seat = (leader + len(trick)) % self.n
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
                    hands, trick, leader, seat, low.bit_length() - 1, trump, trump_from, cut_open, pile, collector,
                    tens, won, played, _LOW, _HIGH,
                ))
            return cunning * min(values) + (1.0 - cunning) * sum(values) / len(values)
        best = _LOW if mine else _HIGH
        while hand:
            low = hand & -hand
            hand ^= low
            value = self._play(
                hands, trick, leader, seat, low.bit_length() - 1, trump, trump_from, cut_open, pile, collector,
                tens, won, played, alpha, beta,
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
        trump_from = 0 if trump is not None else 99
        for offset in range(self.n):
            card = hands[(leader + offset) % self.n].bit_length() - 1
            if offset and cut_open and card // 13 != cards[0] // 13:
                trump, trump_from, cut_open = card // 13, offset, False
            cards.append(card)
        side = (leader + trick_winner_index(cards, trump, trump_from)) % 2
        taken = sum(1 for card in cards if card % 13 == TEN) + (pile if self.centre else 0)
        won = (won[0] + 1, won[1]) if side == 0 else (won[0], won[1] + 1)
        tens = (tens[0] + taken, tens[1]) if side == 0 else (tens[0], tens[1] + taken)
        return self._result(tens, won)

    def _result(self, tens: tuple[int, int], won: tuple[int, int]) -> float:
        key = (tens, won)
        value = self._results.get(key)
        if value is None:
            outcome = hand_outcome(self.rules, self.d.obs.dealer, tens, won)
            value = 1.0 if outcome.winner == self.team else (0.5 if outcome.winner is None else 0.0)
            if self.sweep:
                value += self.sweep * ((tens[self.team] == 4) - (tens[1 - self.team] == 4))
            self._results[key] = value
        return value


_NEUTRAL = 0.1875  # what one ten moves the chance of winning at the start of a hand (both scorings)


@functools.lru_cache(maxsize=4096)
def _stakes_of(
    key: tuple[str, bool, bool, tuple[int, int], tuple[int, int], int, float, float],
) -> tuple[float, float]:
    scoring, trick_minimum, dealer_team, tens, tricks, left, sweep, odds = key
    tens_left = 4 - tens[0] - tens[1]
    if tens_left:
        more = _p_win(scoring, trick_minimum, dealer_team, (tens[0] + 1, tens[1]), tricks, left, sweep, odds)
        less = _p_win(scoring, trick_minimum, dealer_team, (tens[0], tens[1] + 1), tricks, left, sweep, odds)
        ten = (more - less) / 2 / _NEUTRAL
    else:
        ten = 0.0
    trick = 0.0
    if left and scoring != "pagat":
        more = _p_win(scoring, trick_minimum, dealer_team, tens, (tricks[0] + 1, tricks[1]), left - 1, sweep, odds)
        less = _p_win(scoring, trick_minimum, dealer_team, tens, (tricks[0], tricks[1] + 1), left - 1, sweep, odds)
        trick = (more - less) / 2 / _NEUTRAL
    return max(0.0, ten), max(0.0, trick)


def _p_win(
    scoring: str,
    trick_minimum: bool,
    dealer_team: bool,
    tens: tuple[int, int],
    tricks: tuple[int, int],
    left: int,
    sweep: float,
    odds: float = 0.5,
) -> float:
    """Chance my team wins the hand if each ten still open is mine with chance ``odds`` and each trick is even."""
    tens_left = 4 - tens[0] - tens[1]
    total = 0.0
    for mine in range(tens_left + 1):
        ten_weight = math.comb(tens_left, mine) * odds**mine * (1.0 - odds) ** (tens_left - mine)
        x, y = tens[0] + mine, tens[1] + tens_left - mine
        if scoring == "pagat":
            value = 1.0 if x > y or (x == y and not dealer_team) else 0.0
            value += sweep * ((x == 4) - (y == 4))
            total += ten_weight * value
            continue
        for won in range(left + 1):
            weight = ten_weight * math.comb(left, won) / 2**left
            u, v = tricks[0] + won, tricks[1] + left - won
            if x == y:
                value = 1.0 if u > v else (0.5 if u == v else 0.0)
            elif scoring == "taash" and trick_minimum and 2 * (u if x > y else v) <= u + v:
                value = 0.5  # nobody scores
            else:
                value = 1.0 if x > y else 0.0
            if scoring == "taash":
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
