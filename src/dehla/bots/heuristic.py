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
from dehla.cards import SUIT_MASKS, TEN, Card, Suit
from dehla.engine.actions import CALLS, HIDES, Action, Call, Hide, Play, Reveal
from dehla.engine.observe import Observation
from dehla.errors import DehlaError

__all__ = ["HeuristicBot", "Weights", "suit_strength", "choose_trump_call", "choose_hidden_card"]

#: Honour points used to judge a suit's strength: A, K, Q, J, 10.
_HONOURS = {12: 1.0, 11: 0.8, 10: 0.6, 9: 0.4, TEN: 0.5}


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
    win: float = 0.3  # a card that may win a later trick, kept in hand
    centre_us: float = 0.25  # my team becoming the next collector of the centre (share of its tens)
    centre_them: float = 0.05  # the opponents becoming the next collector
    beat_willing: float = 0.95  # how surely an opponent beats a card when it can
    partner_willing: float = 0.85  # how surely partner beats an opponent's card when it can
    draw_trumps: float = 0.12  # leading trumps while holding most of them
    cut_suit: float = 0.06  # per unit of strength of the suit a cut would make trump
    ten_base: float = 0.35  # chance of saving a ten with higher cards out, before length and danger
    ten_length: float = 0.1  # ... more for each other card of its suit I hold
    ten_danger: float = 0.06  # ... less for each higher card still out
    ten_late: float = 0.0  # ... less as the hand goes on
    ten_floor: float = 0.1  # ... never below this: it may still be dropped on partner's winner later
    sweep: float = 0.3  # extra worth of taking all four tens (a kot in Pagat's rules, 80 points in Taash)
    blunder: float = 0.0  # chance of a random legal action (the "easy" level)


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
        return _Decision(observation, self.weights).choose()


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
        key = (rules.scoring, rules.trick_minimum, dealer_team, tens, tricks, left, self.w.sweep)
        return _stakes_of(key)

    # ------------------------------------------------------------------------------------------
    # Choosing

    def choose(self) -> Action:
        best_action: Action | None = None
        best_value = float("-inf")
        for action in self.obs.legal_actions:
            if isinstance(action, Reveal):
                value = self._reveal_value()
            else:
                assert isinstance(action, Play)
                value = self._play_value(action.card)
            if value > best_value:
                best_action, best_value = action, value
        assert best_action is not None
        return best_action

    def _play_value(self, card: int) -> float:
        outcome = self._after(card, self.trump, self.t.cut_open, self.t.hidden_open)
        value = self._trick_value(card, outcome) - self._keep_value(card)
        if not self.trick:
            value += self._lead_bonus(card)
        elif self.t.cut_open and outcome.trump is not None and self.trump is None:
            value += self.w.cut_suit * self._cut_strength(card // 13, card)
        return value

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

    def _trick_value(self, card: int, outcome: _Outcome) -> float:
        """Expected value for my team of the trick once everybody has played, if I play ``card``."""
        led = self.led if self.led is not None else card // 13
        w = self.w
        team = self.team
        states: dict[tuple[int, bool], float] = {(outcome.seat, False): 1.0}
        for seat in self.remaining:
            side = seat % 2
            beat = self._p_beat(seat, outcome, led)
            willing = w.beat_willing if side != team else w.partner_willing
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
            total += chance * self._won_by(winner, tens)
        return total

    def _falling_tens(self, card: int, led: int) -> float:
        """Expected number of tens the players still to play will drop into this trick (the led suit's ten)."""
        t = self.t
        ten = led * 13 + TEN
        bit = 1 << ten
        if card == ten or t.played & bit or t.own & bit or not (t.unseen | sum(t.known_held)) & bit:
            return 0.0
        if self.trick and any(c == ten for c in self.trick):
            return 0.0  # pragma: no cover - a played ten is in t.played
        expected = 0.0
        for seat in self.remaining:
            holds = t.p_card(seat, ten)
            if holds:
                expected += holds / max(1.0, t.suit_length(seat, led))
        return expected * 0.8

    def _won_by(self, winner: int, tens: float) -> float:
        """What the trick is worth to my team when ``winner`` takes it with ``tens`` tens in it."""
        sign = 1.0 if winner % 2 == self.team else -1.0
        if not self.centre:
            return sign * (tens * self.ten_value + self.trick_value)
        pile = self.centre_tens + tens
        if self.last_trick or winner == self.next_collector:
            value = pile * self.ten_value
        elif sign > 0:
            value = self.w.centre_us * pile * self.ten_value
        else:
            value = self.w.centre_them * pile * self.ten_value
        if self.tricks_count:
            value += self.trick_value
        return sign * value

    # ------------------------------------------------------------------------------------------
    # Cards kept

    def _keep_value(self, card: int, trump: int | None = None) -> float:
        """What ``card`` is worth if I keep it for later tricks."""
        if trump is None:
            trump = self.my_trump
        t = self.t
        suit = card // 13
        higher = t.higher_outstanding(card).bit_count()
        is_trump = trump is not None and suit == trump
        tiebreak = 0.002 * (card % 13)
        if card % 13 == TEN:
            if not self.ten_value:
                return tiebreak
            length = (t.own & SUIT_MASKS[suit]).bit_count()
            late = self.w.ten_late * len(self.obs.tricks) / self.rules.tricks_per_hand
            if is_trump:
                keep = 0.9 - 0.06 * higher - late
            elif higher == 0:
                keep = (0.8 if self.trump_risk else 0.9) - late
            else:
                keep = self.w.ten_base + self.w.ten_length * min(length - 1, 3) - self.w.ten_danger * higher - late
            keep = min(0.95, max(self.w.ten_floor, keep))
            return (2.0 * keep - 1.0) * self.ten_value + 0.5 * self.win_value * 0.5**higher + tiebreak
        strength = 0.55**higher
        if is_trump:
            strength = 0.35 + 0.65 * strength
        elif self.trump_risk:
            strength *= 0.75
        return self.win_value * strength + tiebreak

    def _lead_bonus(self, card: int) -> float:
        """Leading trumps while holding most of the outstanding ones draws the opponents' trumps."""
        trump = self.my_trump
        if trump is None or card // 13 != trump or self.t.hidden_open:
            return 0.0
        t = self.t
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


_NEUTRAL = 0.1875  # what one ten moves the chance of winning at the start of a hand (both scorings)


@functools.lru_cache(maxsize=4096)
def _stakes_of(key: tuple[str, bool, bool, tuple[int, int], tuple[int, int], int, float]) -> tuple[float, float]:
    scoring, trick_minimum, dealer_team, tens, tricks, left, sweep = key
    tens_left = 4 - tens[0] - tens[1]
    if tens_left:
        more = _p_win(scoring, trick_minimum, dealer_team, (tens[0] + 1, tens[1]), tricks, left, sweep)
        less = _p_win(scoring, trick_minimum, dealer_team, (tens[0], tens[1] + 1), tricks, left, sweep)
        ten = (more - less) / 2 / _NEUTRAL
    else:
        ten = 0.0
    trick = 0.0
    if left and scoring != "pagat":
        more = _p_win(scoring, trick_minimum, dealer_team, tens, (tricks[0] + 1, tricks[1]), left - 1, sweep)
        less = _p_win(scoring, trick_minimum, dealer_team, tens, (tricks[0], tricks[1] + 1), left - 1, sweep)
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
) -> float:
    """Chance my team wins the hand if each ten and trick still open goes either way with even odds."""
    tens_left = 4 - tens[0] - tens[1]
    total = 0.0
    for mine in range(tens_left + 1):
        ten_weight = math.comb(tens_left, mine) / 2**tens_left
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


def _make_easy(seed: int | None = None) -> HeuristicBot:
    return HeuristicBot(seed, Weights(blunder=0.35))


register(
    "heuristic",
    HeuristicBot,
    1,
    "intermediate",
    "rule-based: tracks cards and voids, keeps tens safe, catches the opponents' tens, minds the centre and trumps",
)
