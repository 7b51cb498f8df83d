"""The game state: a match of hands, driven by ``legal_actions()`` and ``apply()``.

``Match`` is the one rules engine.  It holds the whole truth (every hand,
the hidden card, the undealt cards of a staged deal); outside code that plays
for a seat must look through ``observe(seat)`` instead.  Chance is an action
too: at the start of each hand ``is_chance`` is true and the next action is a
``Deal``, drawn from a seeded random source (``random_deal``) or read from a
record, so a replay is a fold of ``apply`` over the record.

A match is the log, the score, the phase, the dealer's rotation and the hand
in play; the hand (``dehla.engine.hand``) keeps the cards and asks the trick
core (``dehla.engine.tricks``) the rules of a trick; the facts of the rules
are the shared ``Game`` of the rules value (``dehla.engine.game``).  The solver
and the search bots read the hand in play as the core's frozen ``HandState``
(``hand_state()``); nothing outside the engine reads the private fields here.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from dehla.cards import Card, Suit, cards_of, sort_hand
from dehla.engine.actions import CALLS, Action, Call, Deal, Hide, Play, Reveal
from dehla.engine.events import Event, HandResult, KotAwarded, MatchOver, Trick
from dehla.engine.game import Game, game_of
from dehla.engine.hand import Hand
from dehla.engine.phase import Phase
from dehla.engine.scoring import MatchScore, next_dealer
from dehla.engine.tricks import HandState, tens_of
from dehla.errors import DehlaError, IllegalActionError
from dehla.rules import Rules, parse_rules

if TYPE_CHECKING:
    from dehla.engine.observe import Observation

__all__ = ["Match", "Phase", "draw_first_dealer"]


# Enum members are slow to look up on the class (Python 3.11), so the engine keeps them here.
_DEAL, _CALL, _HIDE, _PLAY, _OVER = Phase.DEAL, Phase.CALL, Phase.HIDE, Phase.PLAY, Phase.OVER
_SUITS = tuple(Suit)
_CARD_NUMBERS = range(52)
_RANK_OF = [card % 13 for card in _CARD_NUMBERS]  # a list: its bound ``__getitem__`` is much faster to call
_NEW_SCORE = MatchScore()


def draw_first_dealer(players: int, rng: random.Random) -> int:
    """Choose the first dealer by lot (SPEC 3.8): each draws a card, the highest rank deals, ties redraw."""
    contenders = list(range(players))
    while True:
        ranks = list(map(_RANK_OF.__getitem__, rng.sample(_CARD_NUMBERS, len(contenders))))
        best = max(ranks)
        if ranks.count(best) == 1:
            return contenders[ranks.index(best)]
        contenders = [seat for seat, rank in zip(contenders, ranks) if rank == best]


#: Every field a ``Match`` keeps (its slots): ``clone`` copies each, tests check none is left out.
MATCH_FIELDS: Final = (
    "rules",
    "players",
    "first_dealer",
    "phase",
    "dealer",
    "match_score",
    "results",
    "is_over",
    "is_chance",
    "_game",
    "_log",
    "_hand",
    "_accepts",
)


class Match:
    """A match in progress: whose turn it is, the legal actions, ``apply``, ``clone``, ``observe``."""

    __slots__ = MATCH_FIELDS

    def __init__(self, rules: Rules | str | dict[str, object] | Game, first_dealer: int = 0) -> None:
        if isinstance(rules, Game):  # (a clone: the game of the rules is at hand)
            game = rules
            self.rules: Rules = game.rules
        else:
            self.rules = parse_rules(rules)
            game = game_of(self.rules)
        self._game: Game = game
        self.players: int = game.players
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
        self.dealer: int = first_dealer
        self.match_score: MatchScore = _NEW_SCORE
        self.results: list[HandResult] = []
        self._log: list[tuple[Deal, list[Action]]] = []
        self._hand: Hand = Hand(game, first_dealer)

    @classmethod
    def new(cls, rules: Rules | str | dict[str, object], rng: random.Random | int | None = None) -> Match:
        """A new match whose first dealer is chosen by lot from ``rng`` (a ``random.Random`` or a seed)."""
        source = rng if isinstance(rng, random.Random) else random.Random(rng)
        parsed = parse_rules(rules)
        return cls(parsed, draw_first_dealer(parsed.players, source))

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
        return self._hand.to_act

    @property
    def hand_number(self) -> int:
        """0-based index of the hand in play (or about to be dealt)."""
        return len(self._log) - (1 if self.phase in (_CALL, _HIDE, _PLAY) else 0)

    @property
    def trump(self) -> Suit | None:
        """The trump suit known to every seat (``None`` before it is set, or if hidden)."""
        return self._hand.trump

    @property
    def winner(self) -> int | None:
        return self.match_score.winner

    @property
    def score(self) -> tuple[int, int]:
        return self.match_score.score

    def team_of(self, seat: int) -> int:
        return seat % 2

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take; empty at a deal or once the match is over."""
        phase = self.phase
        if phase is _PLAY:
            return self._hand.legal_plays()
        if phase is _CALL:
            return CALLS
        if phase is _HIDE:
            return self._hand.hide_choices()
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
        return self._game.random_deal(rng)

    # ------------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, action: Action | Deal) -> tuple[Event, ...]:
        """Apply a decision (or the chance ``Deal``) and return the events it caused, in order.

        Raises ``IllegalActionError`` (a ``DehlaError``) naming the reason when the
        action is not legal now; the state is then unchanged.  Playing a card is
        the hot path of every search: one test tells it from every other action.
        """
        if action.__class__ is not self._accepts:
            return self._apply_other(action)
        hand = self._hand
        events = hand.play(action)
        if events and hand.outcome is not None:
            return self._finish_hand(events)
        return events

    def _apply_other(self, action: Action | Deal) -> tuple[Event, ...]:
        cls = action.__class__
        if cls is Deal:
            return self._deal(action)  # type: ignore[arg-type]
        if self.phase is _OVER:
            raise IllegalActionError(f"the match is over (team {self.winner} won); no more actions")
        if self.phase is _DEAL:
            raise IllegalActionError(f"the next hand must be dealt before {action}")
        if cls is Call:
            if self.phase is not _CALL:
                raise IllegalActionError(f"{action} is not allowed now: {self._not_now()}")
            events = self._hand.call(action)  # type: ignore[arg-type]
            self._enter(_PLAY)
            return events
        if cls is Hide:
            if self.phase is not _HIDE or self._hand.to_act is None:
                raise IllegalActionError(f"{action} is not allowed now: {self._not_now()}")
            events = self._hand.hide(action)  # type: ignore[arg-type]
            self._enter(_PLAY)
            return events
        if cls is Reveal:
            return self._reveal()
        if cls is Play:
            raise IllegalActionError(self._phase_needs())
        raise IllegalActionError(f"{action!r} is not an action; use Play, Call, Hide, Reveal or Deal")

    def _phase_needs(self) -> str:
        if self.phase is _CALL:
            return f"seat {self.to_act} must call trump first (call S, H, D or C)"
        if self.phase is _HIDE:
            return f"seat {self.to_act} must hide a card first (hide CARD)"
        return f"no card can be played now ({self.phase.value})"

    def _not_now(self) -> str:
        if self.phase is _PLAY:
            return f"seat {self.to_act} is to play a card"
        return self._phase_needs()

    def _reveal(self) -> tuple[Event, ...]:
        if self.phase is not _PLAY:
            raise IllegalActionError(f"reveal is not allowed now: {self._phase_needs()}")
        hand = self._hand
        if not hand.can_ask_reveal():
            raise IllegalActionError(f"seat {hand.to_act} may not ask for the trump now: {hand.why_no_reveal()}")
        return hand.reveal()

    def _deal(self, deal: Deal) -> tuple[Event, ...]:
        if self.phase is not _DEAL:
            if self.phase is _OVER:
                raise IllegalActionError("the match is over; no more hands are dealt")
            raise IllegalActionError("a hand is in play; the next deal comes when it ends")
        game = self._game
        game.check_deal(deal)
        self._hand = hand = Hand(game, self.dealer)
        self._log.append((deal, hand.actions))
        hand.start(deal, len(self._log) - 1)
        if game.called:
            self._enter(_CALL)
        elif game.band:
            self._enter(_HIDE)
        else:
            self._enter(_PLAY)
        return tuple(hand.events)

    def _finish_hand(self, before: tuple[Event, ...]) -> tuple[Event, ...]:
        """Score the hand that just ended; return its events after ``before``, added to the hand's too."""
        rules = self.rules
        played = self._hand
        outcome = played.outcome
        assert outcome is not None
        tens = tens_of(played.captured)
        won = (played.tricks_won[0], played.tricks_won[1])
        tricks = tuple(played.tricks)
        ended_early = len(tricks) < self._game.tricks_per_hand
        winner = outcome.winner
        sweep = winner is not None and (tens[winner] == 4)
        whitewash = not ended_early and (won[0] == 0 or won[1] == 0)
        after, kot = self.match_score.after_hand(rules, outcome, sweep)
        over = after.winner is not None
        hand, dealer, trump, tricks_won, points = len(self._log) - 1, self.dealer, played.trump, won, outcome.points
        next_dealer_ = None if over else next_dealer(rules, dealer, winner, won)
        score, streak = after.score, after.streaks()
        result = HandResult(
            hand,
            dealer,
            trump,
            tricks,
            tens,
            tricks_won,
            winner,
            sweep,
            whitewash,
            points,
            ended_early,
            kot,
            next_dealer_,
            score,
            streak,
        )
        self.results.append(result)
        self.match_score = after
        events: list[Event] = [result]
        if kot and winner is not None:
            reason = "four tens" if sweep else f"{rules.streak_kot} hands in a row"
            events.append(KotAwarded(team=winner, reason=reason))
        if over:
            assert after.winner is not None
            events.append(MatchOver(winner=after.winner, score=after.score))
            self._enter(_OVER)
        else:
            assert next_dealer_ is not None
            self.dealer = next_dealer_
            self._enter(_DEAL)
        played.events.extend(events)
        return before + tuple(events)

    # ------------------------------------------------------------------------------------------
    # Search support

    def clone(self) -> Match:
        """An independent copy, cheap enough for search.

        Built through ``__init__`` (a compiled ``Match`` has no other way to make an instance), then every
        field copied by name, the lists as new lists; tests/test_trick_core.py checks that every field of
        ``MATCH_FIELDS`` and of the hand is copied and no list is shared, so a new field cannot be forgotten.
        """
        other = Match(self._game, self.first_dealer)
        other.rules = self.rules
        other.phase = self.phase
        other.dealer = self.dealer
        other.match_score = self.match_score
        other.results = list(self.results)
        other._hand = hand = self._hand.copy()
        other._log = list(self._log)
        if other._log:
            other._log[-1] = (other._log[-1][0], hand.actions)
        other.is_over = self.is_over
        other.is_chance = self.is_chance
        other._accepts = self._accepts
        return other

    # ------------------------------------------------------------------------------------------
    # Public views of the hand in play (the full truth: for referees, replays and tests)

    def hand_state(self) -> HandState:
        """The hand in play (or the last hand, between hands) as one frozen value: the full truth.

        What the solver and the search bots read instead of the match's private
        fields; the rules of a trick over it are the functions of ``dehla.engine.tricks``.
        """
        hand = self._hand
        trick = hand.trick
        return HandState(
            rules=self.rules,
            dealer=self.dealer,
            to_act=hand.to_act,
            hands=tuple(hand.hands),
            pending=tuple(hand.pending),
            leader=hand.leader,
            led=_SUITS[hand.led] if trick else None,
            trick=tuple(trick),
            trump=hand.trump,
            trump_from=hand.trump_from,
            cut_open=hand.cut_open,
            staged=hand.staged,
            hidden_card=hand.hidden_card,
            chooser=hand.chooser,
            revealed_card=hand.revealed_card,
            open_draw=hand.open_draw,
            must_trump=hand.must_trump,
            free_play=hand.free_play,
            centre=hand.centre,
            next_collector=hand.next_collector,
            captured=(hand.captured[0], hand.captured[1]),
            tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
            tricks_played=len(hand.tricks),
        )

    def hand_of(self, seat: int) -> list[Card]:
        """Cards ``seat`` holds now (not the hidden card nor cards still to be dealt), sorted."""
        return sort_hand(cards_of(self._hand.hands[seat]))

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` pairs of the trick in progress, in play order."""
        n = self.players
        leader = self._hand.leader
        return [((leader + index) % n, card) for index, card in enumerate(self._hand.trick)]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of the hand in play (or of the last hand, between hands)."""
        return tuple(self._hand.tricks)

    @property
    def hand_events(self) -> tuple[Event, ...]:
        """Every event of the hand in play so far, in order."""
        return tuple(self._hand.events)

    @property
    def deals(self) -> list[Deal]:
        return [deal for deal, _ in self._log]

    def hand_actions(self, hand: int) -> list[Action]:
        return list(self._log[hand][1])

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the hand in play so far, in order (or of the last hand, between hands)."""
        return tuple(self._hand.actions)

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.name} hand={self.hand_number} phase={self.phase.value} "
            f"to_act={self.to_act} score={self.score}>"
        )
