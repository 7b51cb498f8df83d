"""The per-seat observation: the only view of a match that any outside code gets.

Every front end (terminal, web, bot protocol, bots, environments) sees the
game through ``observe(match, seat)``.  This is the single place that decides
what a seat may know:

* its own hand, and the band-hukum card only if it chose it and it is still face down;
* every card played so far, the centre and every team's captures (all were seen face up);
* trump once it is known to everybody (called, drawn, cut or revealed);
* how many cards each seat holds and how many are still to be dealt to it;
* the hand's actions in order (``history``), the hidden card masked as ``hide ?``;
* the legal actions, only when it is this seat's turn;
* the match state.

Nothing else of the state (other hands, the hidden card, undealt cards) is
copied into an ``Observation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dehla.cards import ALL_CARDS, TENS_MASK, Card, Suit, cards_of, sort_hand
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action
from dehla.engine.events import HandResult, Trick, result_json, trick_json
from dehla.errors import DehlaError
from dehla.rules import Rules

if TYPE_CHECKING:
    from dehla.engine.state import Match

__all__ = ["OBSERVATION_FORMAT", "Observation", "action_text_for", "observe", "watcher_json"]

OBSERVATION_FORMAT = "dehla-observation/1"


@dataclass(frozen=True)
class Observation:
    """What one seat may know at one moment.  ``to_json()`` is the documented wire form."""

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

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def centre_tens(self) -> int:
        return sum(1 for card in self.centre if card.is_ten)

    def to_json(self) -> dict[str, Any]:
        """The observation as JSON-ready data (``format`` = ``dehla-observation/1``)."""
        return {
            "format": OBSERVATION_FORMAT,
            "seat": self.seat,
            "team": self.team,
            "players": self.players,
            "rules": self.rules.to_json(),
            "direction": self.direction,
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "hand": [str(card) for card in self.hand],
            "hidden_card": None if self.hidden_card is None else str(self.hidden_card),
            "trump": None if self.trump is None else self.trump.name,
            "trump_hidden": self.trump_hidden,
            "chooser": self.chooser,
            "revealed_card": None if self.revealed_card is None else str(self.revealed_card),
            "open_draw": None if self.open_draw is None else str(self.open_draw),
            "hand_sizes": list(self.hand_sizes),
            "undealt": list(self.undealt),
            "leader": self.leader,
            "led": None if self.led is None else self.led.name,
            "trick": [{"seat": seat, "card": str(card)} for seat, card in self.trick],
            "history": list(self.history),
            "tricks": [trick_json(trick) for trick in self.tricks],
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


def watcher_json(match: Match) -> dict[str, Any]:
    """What someone watching the table may see, as JSON: everything public, no hand at all.

    The same form as ``Observation.to_json()`` with ``seat`` and ``team`` ``null``,
    an empty ``hand`` and ``legal_actions``, no hidden card, and the band-hukum
    card masked in the history.
    """
    view = _build(match, 0, watcher=True).to_json()
    view["seat"] = None
    view["team"] = None
    return view


def observe(match: Match, seat: int) -> Observation:
    """Build ``seat``'s observation of ``match``."""
    return _build(match, seat, watcher=False)


def _build(match: Match, seat: int, watcher: bool) -> Observation:
    from dehla.engine.state import Phase

    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < match.players:
        raise DehlaError(f"seat must be 0..{match.players - 1}, not {seat!r}")
    in_hand = match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY)
    chooser = match._chooser
    hidden = match._hidden_card
    own_hidden = hidden if (hidden is not None and seat == chooser and not watcher) else None
    trick_cards = tuple(match.current_trick) if in_hand else ()
    centre = match._centre
    captured = match._captured
    score = match.match_score
    return Observation(
        seat=seat,
        players=match.players,
        rules=match.rules,
        direction=match.rules.direction,
        phase=match.phase.value,
        hand_number=match.hand_number,
        dealer=match.dealer,
        to_act=match.to_act,
        hand=() if watcher else tuple(sort_hand(cards_of(match._hands[seat]))),
        hidden_card=own_hidden,
        trump=match._trump,
        trump_hidden=hidden is not None,
        chooser=chooser,
        revealed_card=match._revealed_card,
        open_draw=match._open_draw,
        hand_sizes=tuple(mask.bit_count() for mask in match._hands),
        undealt=tuple(mask.bit_count() for mask in match._pending),
        leader=match._leader if in_hand and match.phase is Phase.PLAY else None,
        led=Suit(match._led) if trick_cards else None,
        trick=trick_cards,
        history=_public_history(match, None if watcher else seat) if in_hand else (),
        tricks=tuple(match._tricks),
        centre=tuple(ALL_CARDS[card] for card in cards_of(centre)),
        next_collector=match._last_winner if match.rules.collection == "centre" and in_hand else None,
        captured=(tuple(cards_of(captured[0])), tuple(cards_of(captured[1]))),
        tens=((captured[0] & TENS_MASK).bit_count(), (captured[1] & TENS_MASK).bit_count()),
        tricks_won=(match._tricks_won[0], match._tricks_won[1]),
        legal_actions=match.legal_actions() if match.to_act == seat and not watcher else (),
        score=score.score,
        streak=score.streaks(),
        target=match.rules.target,
        match_over=score.over,
        match_winner=score.winner,
        results=tuple(match.results),
    )


def action_text_for(text: str, actor: int | None, viewer: int | None) -> str:
    """An action's text as ``viewer`` may see it: a hidden card shows as ``hide ?`` except to its chooser."""
    if text.startswith("hide ") and viewer != actor:
        return "hide ?"
    return text


_INTERNED: tuple[Action, ...] = (*PLAYS, *CALLS, *HIDES, REVEAL)
_TEXT_OF: dict[Action, str] = {action: str(action) for action in _INTERNED}


def _public_history(match: Match, seat: int | None) -> tuple[str, ...]:
    """The hand's actions in order as each seat saw them (see ``action_text_for``)."""
    texts = tuple(map(_TEXT_OF.__getitem__, match._actions))
    chooser = match._chooser
    if chooser is None or seat == chooser:
        return texts
    return tuple(action_text_for(text, chooser, seat) for text in texts)
