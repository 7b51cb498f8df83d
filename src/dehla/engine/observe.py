"""The per-seat observation: the only view of a match that any outside code gets.

Every front end (terminal, web, bot protocol, bots, environments) sees the
game through ``observe(match, seat)``.  This is the single place that decides
what a seat may know:

* its own hand, and the band-hukum card only if it chose it and it is still face down;
* every card played so far, the centre and every team's captures (all were seen face up);
* trump once it is known to everybody (called, drawn, cut or revealed);
* how many cards each seat holds and how many are still to be dealt to it;
* the hand's actions in order (``history``), the hidden card masked as ``hide ?``;
* the hand's public trump events (called, cut, drawn, revealed, the staged deal), which an
  automatic reveal needs because it is no action and so leaves no trace in ``history``;
* which cards of the trick in progress count as trump and who is winning it, read from the engine's
  own state (``HandState.trump_from`` and the trick core's ``trick_winner``), never worked out again;
* the legal actions, only when it is this seat's turn;
* the match state.

Nothing else of the state (other hands, the hidden card, undealt cards) is
copied into an ``Observation``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypedDict, cast

from dehla.cards import ALL_CARDS, TENS_MASK, Card, Suit, cards_of, sort_hand
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action
from dehla.engine.events import (
    Event,
    HandResult,
    HandResultJSON,
    StagedDeal,
    Trick,
    TrickJSON,
    TrumpRevealed,
    TrumpSet,
    result_json,
    suit_text,
    trick_json,
)
from dehla.engine.phase import IN_HAND, Phase
from dehla.engine.scoring import MatchScore
from dehla.engine.tricks import HandState, trick_winner
from dehla.errors import DehlaError
from dehla.rules import Rules

__all__ = [
    "OBSERVATION_FORMAT",
    "ObservationJSON",
    "MatchJSON",
    "TrickCardJSON",
    "ObservedTrickJSON",
    "OptionsJSON",
    "PublicEvent",
    "PublicEventJSON",
    "ObservedMatch",
    "Observation",
    "action_text_for",
    "observe",
    "options_json",
    "watcher_json",
]

OBSERVATION_FORMAT = "dehla-observation/1"


class TrickCardJSON(TypedDict):
    """A card of the trick in progress, the seat that played it, and whether it counts as trump."""

    seat: int
    card: str
    trump: bool


class ObservedTrickJSON(TrickJSON):
    """A finished trick in an observation: the record's form (SPEC 4.3) plus the seat behind each card."""

    seats: list[int]


class OptionsJSON(TypedDict):
    """The rules with every option written out (``options_json``): a valid rules object itself."""

    preset: str
    players: int
    trump: str
    staged_deal: bool
    collection: str
    scoring: str
    target: int
    streak_kot: int
    streak_resets: bool
    rotation: str
    after_whitewash: str
    direction: str
    trick_minimum: bool
    sweep_bonus: str


class TrumpSetJSON(TypedDict):
    """Trump became known to all: ``how`` is ``called``, ``cut`` or ``open_draw``."""

    type: Literal["trump_set"]
    after_tricks: int
    suit: str
    seat: int | None
    how: str
    card: str | None


class TrumpRevealedJSON(TypedDict):
    """The band-hukum card was turned up; ``asked_by`` is ``null`` for an automatic reveal."""

    type: Literal["trump_revealed"]
    after_tricks: int
    suit: str
    card: str
    chooser: int
    asked_by: int | None


class StagedDealJSON(TypedDict):
    """Every seat received the rest of its hand; ``trump`` is ``null`` when nobody cut."""

    type: Literal["staged_deal"]
    after_tricks: int
    trump: str | None


#: A public event of the hand in an observation, as JSON.
PublicEventJSON = TrumpSetJSON | TrumpRevealedJSON | StagedDealJSON
#: The hand's events an observation passes on (the rest is already in ``tricks`` and ``match.hands``).
PublicEvent = TrumpSet | TrumpRevealed | StagedDeal
_PUBLIC_EVENTS = (TrumpSet, TrumpRevealed, StagedDeal)


class MatchJSON(TypedDict):
    """The match's standing in an observation: the score, each team's streak, the target, the hands so far."""

    score: list[int]
    streak: list[int]
    target: int
    over: bool
    winner: int | None
    hands: list[HandResultJSON]


class ObservationJSON(TypedDict):
    """``Observation.to_json()``: the wire form ``dehla-observation/1`` (docs/protocol.md says what each field holds).

    A watcher's view (``watcher_json``) has the same form with ``seat`` and ``team`` ``null``.
    """

    format: str
    seat: int | None
    team: int | None
    players: int
    rules: str | dict[str, object]
    options: OptionsJSON
    tricks_per_hand: int
    direction: str
    phase: str
    hand_number: int
    dealer: int
    to_act: int | None
    hand: list[str]
    hidden_card: str | None
    trump: str | None
    trump_hidden: bool
    cut_open: bool
    chooser: int | None
    revealed_card: str | None
    open_draw: str | None
    hand_sizes: list[int]
    undealt: list[int]
    leader: int | None
    led: str | None
    trick: list[TrickCardJSON]
    trick_winner: int | None
    history: list[str]
    events: list[PublicEventJSON]
    tricks: list[ObservedTrickJSON]
    centre: list[str]
    next_collector: int | None
    captured: list[list[str]]
    tens: list[int]
    tricks_won: list[int]
    legal_actions: list[str]
    match: MatchJSON


class ObservedMatch(Protocol):
    """The public reads of a match that an observation is built from (``dehla.engine.state.Match`` has them).

    A protocol rather than an import, so that the match can build its own
    observations (``Match.observe``) without the two modules importing each other.
    """

    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def dealer(self) -> int: ...
    @property
    def match_score(self) -> MatchScore: ...
    @property
    def results(self) -> Sequence[HandResult]: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def current_trick(self) -> Sequence[tuple[int, Card]]: ...
    @property
    def tricks(self) -> tuple[Trick, ...]: ...
    @property
    def actions(self) -> tuple[Action, ...]: ...
    @property
    def hand_events(self) -> tuple[Event, ...]: ...
    def legal_actions(self) -> tuple[Action, ...]: ...
    def hand_state(self) -> HandState: ...


@dataclass(frozen=True)
class Observation:
    """What one seat may know at one moment.  ``to_json()`` is the documented wire form.

    The fields after ``results`` came later (issue 20) and have defaults so that code building an
    ``Observation`` by hand keeps working: ``trick_trumps[i]`` says whether ``trick[i]`` counts as
    trump, ``trick_winner`` is the seat winning the trick in progress so far, and ``events`` holds
    the hand's public trump events, each with the number of tricks finished before it; ``cut_open``
    says that the next card played off-suit sets trump (cut trump, before anyone has cut).
    """

    seat: int
    players: int
    rules: Rules
    direction: str
    phase: str
    hand_number: int
    dealer: int
    to_act: int | None
    hand: tuple[Card, ...]
    hidden_card: Card | None
    trump: Suit | None
    trump_hidden: bool
    chooser: int | None
    revealed_card: Card | None
    open_draw: Card | None
    hand_sizes: tuple[int, ...]
    undealt: tuple[int, ...]
    leader: int | None
    led: Suit | None
    trick: tuple[tuple[int, Card], ...]
    history: tuple[str, ...]
    tricks: tuple[Trick, ...]
    centre: tuple[Card, ...]
    next_collector: int | None
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    tens: tuple[int, int]
    tricks_won: tuple[int, int]
    legal_actions: tuple[Action, ...]
    score: tuple[int, int]
    streak: tuple[int, int]
    target: int
    match_over: bool
    match_winner: int | None
    results: tuple[HandResult, ...]
    trick_trumps: tuple[bool, ...] = ()
    trick_winner: int | None = None
    events: tuple[tuple[int, PublicEvent], ...] = ()
    cut_open: bool = False

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def centre_tens(self) -> int:
        return sum(1 for card in self.centre if card.is_ten)

    def to_json(self) -> ObservationJSON:
        """The observation as JSON-ready data (``format`` = ``dehla-observation/1``)."""
        return {
            "format": OBSERVATION_FORMAT,
            "seat": self.seat,
            "team": self.team,
            "players": self.players,
            "rules": self.rules.to_json(),
            "options": options_json(self.rules),
            "tricks_per_hand": self.rules.tricks_per_hand,
            "direction": self.direction,
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "hand": [str(card) for card in self.hand],
            "hidden_card": None if self.hidden_card is None else str(self.hidden_card),
            "trump": None if self.trump is None else self.trump.name,
            "trump_hidden": self.trump_hidden,
            "cut_open": self.cut_open,
            "chooser": self.chooser,
            "revealed_card": None if self.revealed_card is None else str(self.revealed_card),
            "open_draw": None if self.open_draw is None else str(self.open_draw),
            "hand_sizes": list(self.hand_sizes),
            "undealt": list(self.undealt),
            "leader": self.leader,
            "led": None if self.led is None else self.led.name,
            "trick": [
                {"seat": seat, "card": str(card), "trump": trump}
                for (seat, card), trump in zip(self.trick, self._trick_trumps(), strict=True)
            ],
            "trick_winner": self.trick_winner,
            "history": list(self.history),
            "events": [_event_json(after, event) for after, event in self.events],
            "tricks": [_observed_trick_json(trick) for trick in self.tricks],
            "centre": [str(card) for card in self.centre],
            "next_collector": self.next_collector,
            "captured": [[str(card) for card in cards] for cards in self.captured],
            "tens": list(self.tens),
            "tricks_won": list(self.tricks_won),
            "legal_actions": [str(action) for action in self.legal_actions],
            "match": {
                "score": list(self.score),
                "streak": list(self.streak),
                "target": self.target,
                "over": self.match_over,
                "winner": self.match_winner,
                "hands": [result_json(result) for result in self.results],
            },
        }

    def _trick_trumps(self) -> tuple[bool, ...]:
        """One mark per card of the trick (all false for an observation built without marks)."""
        return self.trick_trumps if len(self.trick_trumps) == len(self.trick) else (False,) * len(self.trick)


def options_json(rules: Rules) -> OptionsJSON:
    """Every option of ``rules`` written out, the preset's defaults included: a bot needs no table of presets."""
    return cast(OptionsJSON, {"preset": rules.preset, **rules.options()})  # the options' one list: rules.OPTIONS


def _observed_trick_json(trick: Trick) -> ObservedTrickJSON:
    """A finished trick as in records, plus the seat that played each card."""
    data = trick_json(trick)
    return {**data, "seats": list(trick.seats)}


def _event_json(after: int, event: PublicEvent) -> PublicEventJSON:
    """A public event of the hand as JSON; ``after_tricks`` is how many tricks had finished when it happened."""
    if isinstance(event, TrumpSet):
        return {
            "type": "trump_set",
            "after_tricks": after,
            "suit": event.suit.name,
            "seat": event.seat,
            "how": event.how,
            "card": None if event.card is None else str(event.card),
        }
    if isinstance(event, TrumpRevealed):
        return {
            "type": "trump_revealed",
            "after_tricks": after,
            "suit": event.suit.name,
            "card": str(event.card),
            "chooser": event.chooser,
            "asked_by": event.asked_by,
        }
    return {"type": "staged_deal", "after_tricks": after, "trump": suit_text(event.trump)}


def watcher_json(match: ObservedMatch) -> ObservationJSON:
    """What someone watching the table may see, as JSON: everything public, no hand at all.

    The same form as ``Observation.to_json()`` with ``seat`` and ``team`` ``null``,
    an empty ``hand`` and ``legal_actions``, no hidden card, and the band-hukum
    card masked in the history.
    """
    view = _build(match, 0, watcher=True).to_json()
    view["seat"] = None
    view["team"] = None
    return view


def observe(match: ObservedMatch, seat: int) -> Observation:
    """Build ``seat``'s observation of ``match``."""
    return _build(match, seat, watcher=False)


def _build(match: ObservedMatch, seat: int, watcher: bool) -> Observation:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < match.players:
        raise DehlaError(f"seat must be 0..{match.players - 1}, not {seat!r}")
    phase = match.phase
    in_hand = phase in IN_HAND
    state = match.hand_state()
    chooser = state.chooser
    hidden = state.hidden_card
    own_hidden = hidden if (hidden is not None and seat == chooser and not watcher) else None
    trick_cards = tuple(match.current_trick) if in_hand else ()
    captured = state.captured
    score = match.match_score
    trump = state.trump
    trump_from = state.trump_from
    # The marks and the winner so far come from the engine's state and the trick core, not from rules of our own.
    trick_trumps = tuple(
        trump is not None and card.suit == trump and index >= trump_from for index, (_, card) in enumerate(trick_cards)
    )
    winner = trick_cards[trick_winner(state.trick, trump, trump_from)][0] if trick_cards else None
    return Observation(
        seat=seat,
        players=match.players,
        rules=match.rules,
        direction=match.rules.direction,
        phase=phase.value,
        hand_number=match.hand_number,
        dealer=match.dealer,
        to_act=match.to_act,
        hand=() if watcher else tuple(sort_hand(cards_of(state.hands[seat]))),
        hidden_card=own_hidden,
        trump=state.trump,
        trump_hidden=hidden is not None,
        chooser=chooser,
        revealed_card=state.revealed_card,
        open_draw=state.open_draw,
        hand_sizes=tuple(mask.bit_count() for mask in state.hands),
        undealt=tuple(mask.bit_count() for mask in state.pending),
        leader=state.leader if phase is Phase.PLAY else None,
        led=state.led if trick_cards else None,
        trick=trick_cards,
        history=_public_history(match.actions, chooser, None if watcher else seat) if in_hand else (),
        tricks=match.tricks,
        centre=tuple(ALL_CARDS[card] for card in cards_of(state.centre)),
        next_collector=state.next_collector if match.rules.collection == "centre" and in_hand else None,
        captured=(tuple(cards_of(captured[0])), tuple(cards_of(captured[1]))),
        tens=((captured[0] & TENS_MASK).bit_count(), (captured[1] & TENS_MASK).bit_count()),
        tricks_won=state.tricks_won,
        legal_actions=match.legal_actions() if match.to_act == seat and not watcher else (),
        score=score.score,
        streak=score.streaks(),
        target=match.rules.target,
        match_over=score.over,
        match_winner=score.winner,
        results=tuple(match.results),
        trick_trumps=trick_trumps,
        trick_winner=winner,
        events=_public_events(match.hand_events),
        cut_open=state.cut_open and phase is Phase.PLAY,
    )


def _public_events(events: Sequence[Event]) -> tuple[tuple[int, PublicEvent], ...]:
    """The hand's trump events (all public), each with the number of tricks finished before it."""
    out: list[tuple[int, PublicEvent]] = []
    finished = 0
    for event in events:
        if isinstance(event, Trick):
            finished += 1
        elif isinstance(event, _PUBLIC_EVENTS):
            out.append((finished, event))
    return tuple(out)


def action_text_for(text: str, actor: int | None, viewer: int | None) -> str:
    """An action's text as ``viewer`` may see it: a hidden card shows as ``hide ?`` except to its chooser."""
    if text.startswith("hide ") and viewer != actor:
        return "hide ?"
    return text


_INTERNED: tuple[Action, ...] = (*PLAYS, *CALLS, *HIDES, REVEAL)
_TEXT_OF: dict[Action, str] = {action: str(action) for action in _INTERNED}


def _public_history(actions: tuple[Action, ...], chooser: int | None, seat: int | None) -> tuple[str, ...]:
    """The hand's actions in order as ``seat`` saw them (see ``action_text_for``)."""
    texts = tuple(map(_TEXT_OF.__getitem__, actions))
    if chooser is None or seat == chooser:
        return texts
    return tuple(action_text_for(text, chooser, seat) for text in texts)
