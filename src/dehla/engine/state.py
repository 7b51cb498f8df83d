"""The game state: a match of hands, driven by ``legal_actions()`` and ``apply()``.

``Match`` is the one rules engine.  It holds the whole truth (every hand,
the hidden card, the undealt cards of a staged deal); outside code that plays
for a seat must look through ``observe(seat)`` instead.  Chance is an action
too: at the start of each hand ``is_chance`` is true and the next action is a
``Deal``, drawn from a seeded random source (``random_deal``) or read from a
record, so a replay is a fold of ``apply`` over the record.

Hands are 52-bit masks (see ``dehla.cards``) so that ``apply`` stays cheap
enough for search.

The rules of a trick are the trick core's (``dehla.engine.tricks``): ``Match``
keeps the log, the phases and the events around them, and gives the hand in
play to the solver and the search bots as the core's frozen ``HandState``
(``hand_state()``); nothing outside the engine reads its private fields.  The
legal cards, the trick winner and the collection run before or after every
card of every playout, so ``legal_actions``, ``apply`` and ``_end_trick``
inline them (tests/test_trick_core.py holds them to the core).
"""

from __future__ import annotations

import random
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from dehla.cards import (
    DECK_48,
    DECK_52,
    SUIT_MASKS,
    TENS_MASK,
    Card,
    Suit,
    cards_of,
    cards_text,
    sort_hand,
    suit_tables,
)
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action, Call, Deal, Hide, Play, Reveal
from dehla.engine.events import (
    CentreCollected,
    Event,
    HandEnded,
    HandResult,
    HandStarted,
    KotAwarded,
    MatchOver,
    StagedDeal,
    Trick,
    TrumpRevealed,
    TrumpSet,
)
from dehla.engine.phase import Phase
from dehla.engine.scoring import MatchScore, Outcome, hand_outcome, next_dealer, settled_outcome
from dehla.engine.tricks import NOT_YET, OPENING_PACKET, HandState, staged_deal_due, tens_of
from dehla.errors import DehlaError, IllegalActionError
from dehla.rules import Rules, parse_rules

if TYPE_CHECKING:
    from dehla.engine.observe import Observation

__all__ = ["Match", "Phase", "draw_first_dealer"]


# Enum members are slow to look up on the class (Python 3.11), so the engine keeps them here.
_DEAL, _CALL, _HIDE, _PLAY, _OVER = Phase.DEAL, Phase.CALL, Phase.HIDE, Phase.PLAY, Phase.OVER
_BITS = tuple(1 << card for card in range(52))
#: Builds an event without the Python-level ``__new__`` frame of a named tuple (a constructor call on every
#: trick costs several per cent of a random hand).  Every call is written
#: ``_new_tuple(Event, (field, ...))`` with locals named exactly as ``Event._fields``, in that order:
#: tests/test_event_order.py reads the source and fails on any other form, so the order cannot go wrong.
_new_tuple = tuple.__new__


#: Card bits with a 0 at index 52.  A hand's mask is ``sum(itemgetter(52, *cards)(_BITS_AND_ZERO))``: summing
#: distinct bits is the same as or-ing them, all of it runs in C, and the extra index makes sure ``itemgetter``
#: returns a tuple even for a single card.
_BITS_AND_ZERO = (*_BITS, 0)

_NO_EVENTS: tuple[Event, ...] = ()
_SUITS = tuple(Suit)


_S0, _S1, _S2, _S3 = _SUIT_PLAYS = suit_tables(PLAYS.__getitem__)


_JUST_REVEAL: tuple[Action, ...] = (REVEAL,)

_DECK_MASKS = {True: (1 << 52) - 1, False: sum(1 << card for card in DECK_48)}


def draw_first_dealer(players: int, rng: random.Random) -> int:
    """Choose the first dealer by lot (SPEC 3.8): each draws a card, the highest rank deals, ties redraw."""
    contenders = list(range(players))
    while True:
        ranks = list(map(_RANK_OF.__getitem__, rng.sample(_CARD_NUMBERS, len(contenders))))
        best = max(ranks)
        if ranks.count(best) == 1:
            return contenders[ranks.index(best)]
        contenders = [seat for seat, rank in zip(contenders, ranks) if rank == best]


_CARD_NUMBERS = range(52)
_RANK_OF = [card % 13 for card in _CARD_NUMBERS]  # a list: its bound ``__getitem__`` is much faster to call
_NEW_SCORE = MatchScore()


class _Facts(NamedTuple):
    """What the engine reads from ``Rules`` on its hot paths, so that they need no string comparisons."""

    pack: tuple[Card, ...]
    next_seat: tuple[int, ...]  # the seat after each seat in play order
    split_deck: itemgetter[Any]  # cuts a shuffled pack into the hands, in one call
    tricks_per_hand: int
    immediate: bool  # captured at every trick (not the centre rule)
    early_end: bool
    streak_resets: bool
    trick_minimum: bool
    band: bool  # band hukum: only then can a turn start with a reveal, a duty to trump or a free choice of card
    ask_reveal: bool  # band hukum where a player who cannot follow may ask
    auto_reveal: bool  # band hukum turned up automatically
    opening: bool  # the first five cards come first (called trump, staged deal)


_FACTS: dict[int, tuple[Rules, _Facts]] = {}


def _facts_of(rules: Rules) -> _Facts:
    """What the engine reads from ``rules`` on its hot paths, worked out once per ``Rules`` value.

    Keyed by ``id``, with the rules kept in the entry so that the id cannot be reused while it is cached.
    """
    entry = _FACTS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    trump = rules.trump
    size = rules.hand_size
    facts = _Facts(
        pack=DECK_52 if rules.players == 4 else DECK_48,
        next_seat=tuple((seat + 1) % rules.players for seat in range(rules.players)),
        split_deck=itemgetter(*(slice(seat * size, (seat + 1) * size) for seat in range(rules.players))),
        tricks_per_hand=rules.tricks_per_hand,
        immediate=rules.collection == "immediate",
        early_end=rules.early_end,
        streak_resets=rules.streak_resets,
        trick_minimum=rules.trick_minimum,
        band=trump in ("hidden", "hidden_auto"),
        ask_reveal=trump == "hidden",
        auto_reveal=trump == "hidden_auto",
        opening=rules.staged_deal or trump == "called",
    )
    if len(_FACTS) >= 256:  # rules made on the fly (records, options) must not pile up
        _FACTS.clear()
    _FACTS[id(rules)] = (rules, facts)
    return facts


#: Every field a ``Match`` keeps (its slots): ``clone`` copies each, tests check none is left out.
MATCH_FIELDS: Final = (
    "rules",
    "players",
    "first_dealer",
    "phase",
    "dealer",
    "match_score",
    "results",
    "_log",
    # the hand in play
    "_hands",
    "_pending",
    "_staged",
    "_cut_open",
    "_trump",
    "_trump_from",
    "_hidden_card",
    "_hidden_suit",
    "_chooser",
    "_revealed_card",
    "_revealed",
    "_must_trump",
    "_free_play",
    "_to_act",
    "_leader",
    "_led",
    "_led_mask",
    "_trick",
    "_tricks",
    "_centre",
    "_captured",
    "_tricks_won",
    "_last_winner",
    "_open_draw",
    "_hand_events",
    "_actions",
    "_trick_mask",
    "is_over",
    "is_chance",
    "_accepts",
    "_tricks_per_hand",
    "_immediate",
    "_early_end",
    "_streak_resets",
    # facts of the rules, read once here so that the hot paths need no string comparisons
    "_trick_minimum",
    "_band",
    "_ask_reveal",
    "_auto_reveal",
    "_opening",
    "_pack",
    "_next_seat",
    "_split_deck",
)


class Match:
    """A match in progress: whose turn it is, the legal actions, ``apply``, ``clone``, ``observe``."""

    __slots__ = MATCH_FIELDS

    def __init__(self, rules: Rules | str | dict[str, object], first_dealer: int = 0) -> None:
        self.rules: Rules = parse_rules(rules)
        self.players: int = self.rules.players
        if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < self.players:
            raise DehlaError(f"first_dealer must be a seat number 0..{self.players - 1}, not {first_dealer!r}")
        self.first_dealer: int = first_dealer
        #: True once the match has a winner.
        self.is_over = False
        #: True when the next action is a ``Deal`` (the start of every hand).
        self.is_chance = True
        self.phase: Phase = _DEAL
        #: ``Play`` while cards are played, else ``None``: ``apply`` tells its hot case with one test.
        self._accepts: type[Play] | None = None
        facts = _facts_of(self.rules)
        self._pack = facts.pack
        self._next_seat = facts.next_seat
        self._split_deck = facts.split_deck
        self._tricks_per_hand = facts.tricks_per_hand
        self._immediate = facts.immediate
        self._early_end = facts.early_end
        self._streak_resets = facts.streak_resets
        self._trick_minimum = facts.trick_minimum
        self._band = facts.band
        self._ask_reveal = facts.ask_reveal
        self._auto_reveal = facts.auto_reveal
        self._opening = facts.opening
        self.dealer: int = first_dealer
        self.match_score: MatchScore = _NEW_SCORE
        self.results: list[HandResult] = []
        self._log: list[tuple[Deal, list[Action]]] = []
        self._reset_hand()

    @classmethod
    def new(cls, rules: Rules | str | dict[str, object], rng: random.Random | int | None = None) -> Match:
        """A new match whose first dealer is chosen by lot from ``rng`` (a ``random.Random`` or a seed)."""
        source = rng if isinstance(rng, random.Random) else random.Random(rng)
        parsed = parse_rules(rules)
        return cls(parsed, draw_first_dealer(parsed.players, source))

    def _reset_hand(self) -> None:
        n = self.players
        self._hands: list[int] = [0] * n
        self._pending: list[int] = [0] * n
        self._staged = False
        self._cut_open = False
        self._trump: Suit | None = None
        self._trump_from = NOT_YET
        self._hidden_card: Card | None = None
        self._hidden_suit: Suit | None = None
        self._chooser: int | None = None
        self._revealed_card: Card | None = None
        self._revealed = False
        self._must_trump = False
        self._free_play = False
        self._to_act: int | None = None
        self._leader = 0
        self._led = 0
        self._led_mask = 0  # SUIT_MASKS[self._led]
        self._trick: list[Card] = []
        self._trick_mask = 0
        self._actions: list[Action] = []
        self._tricks: list[Trick] = []
        self._centre = 0
        self._captured: list[int] = [0, 0]
        self._tricks_won: list[int] = [0, 0]
        self._last_winner: int | None = None
        self._open_draw: Card | None = None
        self._hand_events: list[Event] = []

    # ------------------------------------------------------------------------------------------
    # Queries

    def _enter(self, phase: Phase) -> None:
        """Every change of phase goes through here, so that the flags read on hot paths stay in step with it."""
        self.phase = phase
        self.is_over = phase is _OVER
        self.is_chance = phase is _DEAL
        self._accepts = Play if phase is _PLAY else None

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or ``None`` at a deal or once the match is over."""
        return self._to_act

    @property
    def hand_number(self) -> int:
        """0-based index of the hand in play (or about to be dealt)."""
        return len(self._log) - (1 if self.phase in (_CALL, _HIDE, _PLAY) else 0)

    @property
    def trump(self) -> Suit | None:
        """The trump suit known to every seat (``None`` before it is set, or if hidden)."""
        return self._trump

    @property
    def winner(self) -> int | None:
        return self.match_score.winner

    @property
    def score(self) -> tuple[int, int]:
        return self.match_score.score

    def team_of(self, seat: int) -> int:
        return seat % 2

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take; empty at a deal or once the match is over.

        The cards are the trick core's ``legal_cards`` (``tricks.playable``), written out here with interned
        tuples per suit because this runs before every move of every playout (docs/benchmarks.md: through
        the core it cost 5-8% of a random hand); tests/test_trick_core.py holds the two together.
        """
        if self.phase is _PLAY:
            hand = self._hands[self._to_act]  # type: ignore[index]
            if self._trick:
                led = self._led
                follow = hand >> 13 * led & 0x1FFF
                if follow and not self._free_play:
                    return _SUIT_PLAYS[led][follow]
                if self._must_trump and not self._free_play:
                    trump = self._trump
                    if trump is not None:
                        trumps = hand >> 13 * trump & 0x1FFF
                        if trumps:
                            return _SUIT_PLAYS[trump][trumps]
                elif self._hidden_card is not None and self._ask_reveal and not follow:
                    # A player who cannot follow may ask for the hidden trump card (band hukum).
                    return _JUST_REVEAL + (
                        _S0[hand & 0x1FFF] + _S1[hand >> 13 & 0x1FFF] + _S2[hand >> 26 & 0x1FFF] + _S3[hand >> 39]
                    )
            return _S0[hand & 0x1FFF] + _S1[hand >> 13 & 0x1FFF] + _S2[hand >> 26 & 0x1FFF] + _S3[hand >> 39]
        phase = self.phase
        if phase is _CALL:
            return CALLS
        if phase is _HIDE:
            assert self._to_act is not None
            return tuple([HIDES[card] for card in cards_of(self._hands[self._to_act] | self._pending[self._to_act])])
        return ()

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know now, and nothing more (see ``dehla.engine.observe``)."""
        from dehla.engine.observe import observe

        return observe(self, seat)

    # ------------------------------------------------------------------------------------------
    # Chance

    def random_deal(self, rng: random.Random) -> Deal:
        """Shuffle and deal the next hand from ``rng``."""
        pack = self._pack
        # Sorting by random keys is a uniform shuffle, and several times faster than rng.shuffle.  The
        # keys are drawn in pack order, one per card; equal keys (never seen in practice) fall back on
        # the card order, just as a stable sort of the pack by key would.
        keys = list(map(type(rng).random, repeat(rng, len(pack))))  # rng.random() per card, without a loop here
        if len(pack) == 52:
            deck = tuple(sorted(pack, key=keys.__getitem__))  # card numbers are the keys' indices
        else:
            deck = tuple([card for _key, card in sorted(zip(keys, pack))])
        hands: tuple[tuple[Card, ...], ...] = self._split_deck(deck)
        open_draw = rng.choice(pack) if self.rules.trump == "open_draw" else None
        return Deal.trusted(hands, open_draw, self.rules)

    # ------------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, action: Action | Deal) -> tuple[Event, ...]:
        """Apply a decision (or the chance ``Deal``) and return the events it caused, in order.

        Raises ``IllegalActionError`` (a ``DehlaError``) naming the reason when the
        action is not legal now; the state is then unchanged.  Playing a card is
        the hot path of every search, so it is written out here in full, with the
        commonest case (following suit) tested first; its check of the card is the
        trick core's rule (``tricks.playable``), inlined, and held to it by
        tests/test_trick_core.py.
        """
        if action.__class__ is not self._accepts:
            return self._apply_other(action)
        card = action.card
        bit = 1 << card
        seat: int = self._to_act  # type: ignore[assignment]
        hands = self._hands
        hand = hands[seat]
        trick = self._trick
        if trick:
            follow = hand & self._led_mask
            if not follow & bit:
                # Not a card of the suit led: legal only if the player cannot follow (or may play anything).
                if not hand & bit or (follow and not self._free_play):
                    raise IllegalActionError(self._why_illegal(card))
                if not follow:
                    if self._must_trump and not self._free_play and self._trump is not None:
                        trumps = hand & SUIT_MASKS[self._trump]
                        if trumps and not trumps & bit:
                            raise IllegalActionError(self._why_illegal(card))
                    if self._cut_open:
                        return self._cut(action, seat, hand)
        elif hand & bit:
            self._led = led = card // 13
            self._led_mask = SUIT_MASKS[led]
        else:
            raise IllegalActionError(self._why_illegal(card))
        self._actions.append(action)
        hands[seat] = hand ^ bit
        self._trick_mask |= bit
        trick.append(card)
        seat = self._next_seat[seat]
        if seat == self._leader:  # every seat has played: the trick is full
            return self._end_trick(_NO_EVENTS)
        self._to_act = seat
        if self._band:
            if self._hidden_card is not None:
                # (While the card is face down nobody has had to trump or been free to play anything.)
                if (not hands[seat] and seat == self._chooser) or (
                    self._auto_reveal and not hands[seat] & self._led_mask
                ):
                    events: list[Event] = []
                    self._hidden_turn(seat, events)
                    self._hand_events.extend(events)
                    return tuple(events)
            elif self._must_trump or self._free_play:
                self._must_trump = False
                self._free_play = False
        return _NO_EVENTS

    def _cut(self, action: Play, seat: int, hand: int) -> tuple[Event, ...]:
        """Play the first off-suit card of a cut-trump hand (already checked): it sets trump, and counts as one.

        Kept out of ``apply`` so that the common plays there need not carry a list of events.
        """
        card = action.card
        trick = self._trick
        self._cut_open = False
        self._trump = trump = _SUITS[card // 13]
        self._trump_from = len(trick)
        suit, how = trump, "cut"
        event: TrumpSet = _new_tuple(TrumpSet, (suit, seat, how, card))
        bit = 1 << card
        self._actions.append(action)
        self._hands[seat] = hand ^ bit
        self._trick_mask |= bit
        trick.append(card)
        if len(trick) == self.players:
            return self._end_trick((event,))
        self._to_act = (seat + 1) % self.players  # (cut trump has no band-hukum card to watch for)
        self._hand_events.append(event)
        return (event,)

    def _apply_other(self, action: Action | Deal) -> tuple[Event, ...]:
        cls = action.__class__
        if cls is Deal:
            return self._deal(action)  # type: ignore[arg-type]
        if self.phase is _OVER:
            raise IllegalActionError(f"the match is over (team {self.winner} won); no more actions")
        if self.phase is _DEAL:
            raise IllegalActionError(f"the next hand must be dealt before {action}")
        if cls is Call:
            return self._call(action)  # type: ignore[arg-type]
        if cls is Hide:
            return self._hide(action)  # type: ignore[arg-type]
        if cls is Reveal:
            return self._reveal()
        if cls is Play:
            raise IllegalActionError(self._phase_needs())
        raise IllegalActionError(f"{action!r} is not an action; use Play, Call, Hide, Reveal or Deal")

    def _phase_needs(self) -> str:
        if self.phase is _CALL:
            return f"seat {self._to_act} must call trump first (call S, H, D or C)"
        if self.phase is _HIDE:
            return f"seat {self._to_act} must hide a card first (hide CARD)"
        return f"no card can be played now ({self.phase.value})"

    def _deal(self, deal: Deal) -> tuple[Event, ...]:
        if self.phase is not _DEAL:
            if self.phase is _OVER:
                raise IllegalActionError("the match is over; no more hands are dealt")
            raise IllegalActionError("a hand is in play; the next deal comes when it ends")
        rules = self.rules
        if deal.checked_for is not rules:
            self._check_deal(deal)
        self._reset_hand()
        events = self._hand_events
        log = self._log
        log.append((deal, self._actions))
        dealer = self.dealer
        hand, open_draw = len(log) - 1, deal.open_draw
        events.append(_new_tuple(HandStarted, (hand, dealer, open_draw)))
        first = dealer + 1
        if first == self.players:
            first = 0
        if self._opening:
            hands = self._hands
            pending = self._pending
            for seat, cards in enumerate(deal.hands):
                bits = itemgetter(52, *cards)(_BITS_AND_ZERO)  # a 0, then each card's bit
                hands[seat] = sum(bits[1 : 1 + OPENING_PACKET])
                pending[seat] = sum(bits[1 + OPENING_PACKET :])
        else:
            self._hands = [sum(itemgetter(52, *cards)(_BITS_AND_ZERO)) for cards in deal.hands]
        self._staged = rules.staged_deal
        trump = rules.trump
        self._cut_open = trump == "cut"
        self._to_act = first
        if trump == "called":
            self._enter(_CALL)
        elif self._band:
            self._enter(_HIDE)
            self._chooser = first
        else:
            if trump == "open_draw":
                assert deal.open_draw is not None
                self._open_draw = deal.open_draw
                self._trump = deal.open_draw.suit
                self._trump_from = 0
                suit, seat, how, card = self._trump, first, "open_draw", deal.open_draw
                events.append(_new_tuple(TrumpSet, (suit, seat, how, card)))
            self._enter(_PLAY)
            self._leader = first
        return tuple(events)

    def _check_deal(self, deal: Deal) -> None:
        rules = self.rules
        if len(deal.hands) != self.players:
            raise IllegalActionError(f"a deal needs {self.players} hands, not {len(deal.hands)}")
        deck = _DECK_MASKS[self.players == 4]
        seen = 0
        for seat, cards in enumerate(deal.hands):
            if len(cards) != rules.hand_size:
                raise IllegalActionError(f"seat {seat} is dealt {len(cards)} cards; each seat gets {rules.hand_size}")
            for card in cards:
                bit = 1 << card
                if seen & bit:
                    raise IllegalActionError(f"{card} is dealt twice")
                if not deck & bit:
                    raise IllegalActionError(f"{card} is not in the 48-card pack (the twos are taken out)")
                seen |= bit
        if rules.trump == "open_draw":
            if deal.open_draw is None:
                raise IllegalActionError("open-draw rules need the drawn card (open_draw)")
            if not deck >> deal.open_draw & 1:
                raise IllegalActionError(f"the drawn card {deal.open_draw} is not in the pack")
        elif deal.open_draw is not None:
            raise IllegalActionError(f"a drawn card is only for open-draw trump, not {rules.trump!r}")

    def _call(self, action: Call) -> tuple[Event, ...]:
        if self.phase is not _CALL:
            raise IllegalActionError(f"{action} is not allowed now: {self._not_now(action)}")
        seat = self._to_act
        assert seat is not None
        self._actions.append(action)
        self._trump = action.suit
        suit, how = action.suit, "called"
        card: Card | None = None
        events: list[Event] = [_new_tuple(TrumpSet, (suit, seat, how, card))]
        hands = self._hands
        pending = self._pending
        for other in range(self.players):
            hands[other] |= pending[other]
            pending[other] = 0
        self._enter(_PLAY)
        self._leader = seat  # the caller leads the first trick, with trump known
        self._trump_from = 0
        self._hand_events.extend(events)
        return tuple(events)

    def _hide(self, action: Hide) -> tuple[Event, ...]:
        seat = self._to_act
        if self.phase is not _HIDE or seat is None:
            raise IllegalActionError(f"{action} is not allowed now: {self._not_now(action)}")
        bit = 1 << action.card
        if not self._hands[seat] & bit:
            raise IllegalActionError(f"seat {seat} cannot hide {action.card}: it does not hold that card")
        self._actions.append(action)
        self._hands[seat] ^= bit
        self._hidden_card = card = action.card
        self._hidden_suit = _SUITS[card // 13]
        self._enter(_PLAY)
        self._leader = seat  # the chooser leads the first trick
        events: list[Event] = []
        if not self._hands[seat]:
            self._hidden_turn(seat, events)
        self._hand_events.extend(events)
        return tuple(events)

    def _not_now(self, action: Action) -> str:
        if self.phase is _PLAY:
            return f"seat {self._to_act} is to play a card"
        return self._phase_needs()

    def _can_ask_reveal(self) -> bool:
        if self._hidden_card is None or not self._ask_reveal or not self._trick:
            return False
        seat = self._to_act
        assert seat is not None
        return not self._hands[seat] & self._led_mask

    def _reveal(self) -> tuple[Event, ...]:
        if self.phase is not _PLAY:
            raise IllegalActionError(f"reveal is not allowed now: {self._phase_needs()}")
        if not self._can_ask_reveal():
            raise IllegalActionError(f"seat {self._to_act} may not ask for the trump now: {self._why_no_reveal()}")
        seat = self._to_act
        self._actions.append(REVEAL)
        events: list[Event] = []
        self._turn_up(seat, events)
        self._must_trump = True
        self._hand_events.extend(events)
        return tuple(events)

    def _why_no_reveal(self) -> str:
        if self.rules.trump not in ("hidden", "hidden_auto"):
            return "there is no hidden trump under these rules"
        if self.rules.trump == "hidden_auto":
            return "the trump card is turned up automatically under these rules"
        if self._hidden_card is None:
            return "the trump is already revealed"
        if not self._trick:
            return "the leader of a trick cannot ask"
        return f"only a player who cannot follow {Suit(self._led).word} may ask"

    def _turn_up(self, asked_by: int | None, events: list[Event]) -> None:
        """Turn the band-hukum card up: its suit is trump from now on; it goes back to the chooser."""
        card = self._hidden_card
        chooser = self._chooser
        assert card is not None and chooser is not None
        self._hidden_card = None
        self._revealed = True
        self._revealed_card = card
        self._hands[chooser] |= 1 << card
        self._trump = suit = _SUITS[card // 13]
        self._trump_from = len(self._trick)
        events.append(_new_tuple(TrumpRevealed, (suit, card, chooser, asked_by)))

    def _why_illegal(self, card: Card) -> str:
        seat = self._to_act
        assert seat is not None
        hand = self._hands[seat]
        if not hand & (1 << card):
            if self._hidden_card == card and self._chooser == seat:
                return f"seat {seat} cannot play {card}: it is the hidden trump card, still face down"
            return f"seat {seat} does not hold {card}"
        led = Suit(self._led)
        follow = hand & SUIT_MASKS[led]
        if follow:
            return f"seat {seat} must follow {led.word} with {cards_text(sort_hand(cards_of(follow)))}, not {card}"
        if self._must_trump and self._trump is not None:
            return f"seat {seat} asked for the trump and must play a trump ({Suit(self._trump).word}), not {card}"
        return f"{card} is not a legal play for seat {seat}"  # pragma: no cover - every other card is legal

    def _hidden_turn(self, seat: int, events: list[Event]) -> None:
        """Start of a turn while the band-hukum card is face down: it may have to be turned up now."""
        if seat == self._chooser and not self._hands[seat]:
            # The chooser holds only the hidden card: it is turned up and played, as a trump.
            self._turn_up(None, events)
        elif self._auto_reveal and self._trick and not self._hands[seat] & self._led_mask:
            # Automatic reveal: this player cannot follow; it may then play any card.
            self._turn_up(None, events)
            self._free_play = True

    def _end_trick(self, before: tuple[Event, ...]) -> tuple[Event, ...]:
        """Close the full trick; return its events after ``before`` (a cut's trump), added to the hand's too."""
        trick = self._trick
        trick_mask = self._trick_mask
        led = self._led
        trump = self._trump
        # The rule of ``tricks.trick_winner``, inlined with the trick's mask (bench_engine: it pays on the hot
        # path; tests/test_trick_core.py holds the two together).  Cards of one suit rank by number, so the
        # highest set bit of the cards that count is the winning card.
        if trump is None or trump == led:
            best = (trick_mask & self._led_mask).bit_length() - 1
        else:
            trump_from = self._trump_from
            if trump_from == 0:
                counted = trick_mask & SUIT_MASKS[trump]  # the cards that count as trumps
            else:  # trump came into force during this trick: only cards played after count
                counted = 0
                for card in trick[trump_from:]:
                    if card // 13 == trump:
                        counted |= 1 << card
            best = (counted or trick_mask & self._led_mask).bit_length() - 1
        leader = self._leader
        winner = (leader + trick.index(best)) % self.players  # type: ignore[arg-type]
        team = winner & 1
        tricks_won = self._tricks_won
        tricks_won[team] += 1
        tricks = self._tricks
        number = len(tricks) + 1
        last = number == self._tricks_per_hand
        cards = tuple(trick)
        # ``tricks.collect``, inlined for the same reason.
        if self._immediate:
            self._captured[team] |= trick_mask
            collected_by: int | None = winner
            record: Trick = _new_tuple(Trick, (number, leader, cards, winner, collected_by))
            # ``+`` rather than ``(*before, record)``: with nothing before, it is the new tuple itself (no list).
            events = before + (record,)  # noqa: RUF005
        elif last or self._last_winner == winner:
            centre = self._centre | trick_mask
            self._captured[team] |= centre
            self._centre = 0
            self._last_winner = None if self._streak_resets else winner
            collected_by = winner
            record = _new_tuple(Trick, (number, leader, cards, winner, collected_by))
            seat, mask = winner, centre
            events = before + (record, _new_tuple(CentreCollected, (seat, team, mask)))  # noqa: RUF005
        else:
            self._centre |= trick_mask
            self._last_winner = winner
            collected_by = None
            record = _new_tuple(Trick, (number, leader, cards, winner, collected_by))
            events = before + (record,)  # noqa: RUF005
        tricks.append(record)
        if last:
            tens = tens_of(self._captured)
            won = (tricks_won[0], tricks_won[1])
            return self._finish_hand(hand_outcome(self.rules, self.dealer, tens, won), False, events, tens, won)
        if self._early_end:
            captured = self._captured
            tens_left = 4 - ((captured[0] | captured[1]) & TENS_MASK).bit_count()
            # With tens still to take and no trick minimum the result can always change (see settled_outcome).
            if not tens_left or self._trick_minimum:
                tens = tens_of(captured)
                won = (tricks_won[0], tricks_won[1])
                outcome = settled_outcome(self.rules, self.dealer, tens, won, tens_left, self._tricks_per_hand - number)
                if outcome is not None:
                    return self._finish_hand(outcome, True, events, tens, won)
        if self._staged and staged_deal_due(trump, number):
            # Staged deal: the rest of each hand arrives after the trump trick (or after five tricks).
            self._staged = False
            self._cut_open = False
            hands = self._hands
            pending = self._pending
            for seat in range(self.players):
                hands[seat] |= pending[seat]
                pending[seat] = 0
            after_trick = number
            events += (_new_tuple(StagedDeal, (after_trick, trump)),)
        # The winner leads the next trick.
        self._leader = winner
        self._to_act = winner
        self._trick = []
        self._trick_mask = 0
        self._trump_from = NOT_YET if trump is None else 0
        if self._band:
            self._must_trump = False
            self._free_play = False
            if self._hidden_card is not None and winner == self._chooser and not self._hands[winner]:
                more: list[Event] = []
                self._hidden_turn(winner, more)  # (no automatic reveal at a lead: there is no suit to follow)
                events += tuple(more)
        self._hand_events.extend(events)
        return events

    def _finish_hand(
        self, outcome: Outcome, ended_early: bool, before: tuple[Event, ...], tens: tuple[int, int],
        won: tuple[int, int],
    ) -> tuple[Event, ...]:
        """Score the hand that just ended; return its events after ``before``, added to the hand's too."""
        rules = self.rules
        played_tricks = self._tricks
        early, tricks_played = ended_early, len(played_tricks)
        events = [*before, _new_tuple(HandEnded, (early, tricks_played))]
        winner = outcome.winner
        sweep = winner is not None and (tens[winner] == 4)
        whitewash = not ended_early and tricks_played == self._tricks_per_hand and (won[0] == 0 or won[1] == 0)
        after, kot = self.match_score.after_hand(rules, outcome, sweep)
        over = after.winner is not None
        dealer = self.dealer
        following = None if over else next_dealer(rules, dealer, winner, won)
        hand, trump, tricks, tricks_won = len(self._log) - 1, self._trump, tuple(played_tricks), won
        points = outcome.points
        next_dealer_, score, streak = following, after.score, after.streaks()
        result: HandResult = _new_tuple(HandResult, (
            hand, dealer, trump, tricks, tens, tricks_won, winner, sweep, whitewash,
            points, ended_early, kot, next_dealer_, score, streak,
        ))
        self.results.append(result)
        self.match_score = after
        events.append(result)
        self._to_act = None
        if kot and winner is not None:
            reason = "four tens" if sweep else f"{rules.streak_kot} hands in a row"
            events.append(KotAwarded(team=winner, reason=reason))
        if over:
            assert after.winner is not None
            events.append(MatchOver(winner=after.winner, score=after.score))
            self._enter(_OVER)
        else:
            assert following is not None
            self.dealer = following
            self._enter(_DEAL)
        self._hand_events.extend(events)
        return tuple(events)

    # ------------------------------------------------------------------------------------------
    # Search support

    def clone(self) -> Match:
        """An independent copy, cheap enough for search.

        Built through ``__init__`` (a compiled ``Match`` has no other way to make an instance), then every
        field copied by name, the lists as new lists; tests/test_trick_core.py checks that every field of
        ``MATCH_FIELDS`` is copied and no list is shared, so a new field cannot be forgotten here.
        """
        other = Match(self.rules, self.first_dealer)  # (which sets the facts of the rules, the same for both)
        other.phase = self.phase
        other.dealer = self.dealer
        other.match_score = self.match_score
        other.results = list(self.results)
        other._log = list(self._log)
        other._hands = list(self._hands)
        other._pending = list(self._pending)
        other._staged = self._staged
        other._cut_open = self._cut_open
        other._trump = self._trump
        other._trump_from = self._trump_from
        other._hidden_card = self._hidden_card
        other._hidden_suit = self._hidden_suit
        other._chooser = self._chooser
        other._revealed_card = self._revealed_card
        other._revealed = self._revealed
        other._must_trump = self._must_trump
        other._free_play = self._free_play
        other._to_act = self._to_act
        other._leader = self._leader
        other._led = self._led
        other._led_mask = self._led_mask
        other._trick = list(self._trick)
        other._tricks = list(self._tricks)
        other._centre = self._centre
        other._captured = list(self._captured)
        other._tricks_won = list(self._tricks_won)
        other._last_winner = self._last_winner
        other._open_draw = self._open_draw
        other._hand_events = list(self._hand_events)
        other._actions = list(self._actions)
        other._trick_mask = self._trick_mask
        other.is_over = self.is_over
        other.is_chance = self.is_chance
        other._accepts = self._accepts
        if other._log:
            other._log[-1] = (other._log[-1][0], other._actions)
        return other

    # ------------------------------------------------------------------------------------------
    # Public views of the hand in play (the full truth: for referees, replays and tests)

    def hand_state(self) -> HandState:
        """The hand in play (or the last hand, between hands) as one frozen value: the full truth.

        What the solver and the search bots read instead of the match's private
        fields; the rules of a trick over it are the functions of ``dehla.engine.tricks``.
        """
        trick = self._trick
        return HandState(
            rules=self.rules,
            dealer=self.dealer,
            to_act=self._to_act,
            hands=tuple(self._hands),
            pending=tuple(self._pending),
            leader=self._leader,
            led=_SUITS[self._led] if trick else None,
            trick=tuple(trick),
            trump=self._trump,
            trump_from=self._trump_from,
            cut_open=self._cut_open,
            staged=self._staged,
            hidden_card=self._hidden_card,
            chooser=self._chooser,
            revealed_card=self._revealed_card,
            open_draw=self._open_draw,
            must_trump=self._must_trump,
            free_play=self._free_play,
            centre=self._centre,
            next_collector=self._last_winner,
            captured=(self._captured[0], self._captured[1]),
            tricks_won=(self._tricks_won[0], self._tricks_won[1]),
            tricks_played=len(self._tricks),
        )

    def hand_of(self, seat: int) -> list[Card]:
        """Cards ``seat`` holds now (not the hidden card nor cards still to be dealt), sorted."""
        return sort_hand(cards_of(self._hands[seat]))

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` pairs of the trick in progress, in play order."""
        n = self.players
        return [((self._leader + index) % n, card) for index, card in enumerate(self._trick)]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of the hand in play (or of the last hand, between hands)."""
        return tuple(self._tricks)

    @property
    def hand_events(self) -> tuple[Event, ...]:
        """Every event of the hand in play so far, in order."""
        return tuple(self._hand_events)

    @property
    def deals(self) -> list[Deal]:
        return [deal for deal, _ in self._log]

    def hand_actions(self, hand: int) -> list[Action]:
        return list(self._log[hand][1])

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the hand in play so far, in order (or of the last hand, between hands)."""
        return tuple(self._actions)

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.name} hand={self.hand_number} phase={self.phase.value} "
            f"to_act={self._to_act} score={self.score}>"
        )

