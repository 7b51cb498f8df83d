"""What each listener of a table is sent: the wire form of messages, each seat's view of a match, the finished
trick, and why an action is refused.

Every card a client may see comes from the engine's per-seat ``Observation`` (or the watcher view of
``protocol.watcher_view``); ``Views`` builds each seat's once per broadcast.  The finished trick's cards were all
played face up.  A refusal of an action is worked out from the seat's observation, never by re-deciding a trick
here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol, cast

from dehla.cards import TENS_MASK, cards_of
from dehla.engine.actions import Action, Call, Hide, Play, Reveal
from dehla.engine.events import CentreCollected, Event, HandEnded, Trick
from dehla.engine.observe import Observation, ObservationJSON
from dehla.engine.state import Match
from dehla.web.messages import WebError, register
from dehla.web.protocol import watcher_view
from dehla.web.schema import ErrorMessage, FinishedTrick, ServerMessage, StateMessage

__all__ = [
    "Listener",
    "dumps",
    "encode",
    "dumps_state",
    "error_message",
    "illegal_reason",
    "finished_trick_of",
    "Views",
]

register(
    {
        "must_follow": "You must follow {suit}: play one of {cards}.",
        "must_trump": "You asked for the trump, so you must play a trump ({suit}): one of {cards}.",
        "not_held": "You do not hold {card}.",
        "hidden_card": "{card} is the hidden trump card, still face down.",
        "illegal": "{card} cannot be played now.",
        "illegal_action": "{text} is not allowed now.",
        "must_call": "Trump must be called first.",
        "must_hide": "A card must be hidden for trump first.",
        "no_call_now": "Trump is not called now.",
        "no_hide_now": "No card is hidden now.",
        "no_hidden_trump": "There is no hidden trump in this game.",
        "reveal_automatic": "The hidden trump is turned up by itself in this game.",
        "trump_revealed": "The trump has already been revealed.",
        "reveal_leader": "The leader of a trick cannot ask for the trump.",
        "reveal_can_follow": "You can follow {suit}, so you cannot ask for the trump.",
    }
)


class Listener(Protocol):
    """A connection as the session sees it (the transport's ``Client``): its seat and an outbox."""

    seat: int | None
    #: The player identity of the connection (``dehla.web.players``), ``None`` for a program without a cookie.
    player: str | None
    #: How many scored hands this listener has been sent; later states carry only the new ones.
    hands_sent: tuple[int, int]

    def push(self, text: str, kind: str = "other") -> None: ...

    def close_after_sending(self) -> None:
        """Close the connection once what is queued has been sent (a watcher the table no longer admits)."""
        ...


def dumps(message: ServerMessage) -> str:
    return encode(message)


def encode(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps_state(message: StateMessage, table_text: str) -> str:
    """``dumps(message)`` with its ``table`` already encoded (the same for every listener of a broadcast)."""
    rest = {key: value for key, value in message.items() if key not in STATE_HEAD}
    return (
        f'{{"type":"state","version":{message["version"]},"seat":{encode(message["seat"])},'
        f'"table":{table_text},{encode(rest)[1:]}'
    )


#: The keys a state message starts with, in order (``dumps_state`` writes them itself).
STATE_HEAD = ("type", "version", "seat", "table")


def error_message(error: WebError) -> ErrorMessage:
    """The wire form of a refusal: the browser words it from ``code`` and ``params``."""
    return {"type": "error", "code": error.code, "params": error.params, "message": str(error)}


def illegal_reason(observation: Observation, action: Action) -> WebError:
    """Why ``action`` is not legal for the seat that observes: a code with params for the browser.

    Worked out from the observation's hand and legal actions (the engine's
    rules), never by re-deciding a trick here.
    """
    phase = observation.phase
    legal = observation.legal_actions
    if isinstance(action, Play | Reveal) and phase in ("call", "hide"):
        return WebError("must_call" if phase == "call" else "must_hide")
    if isinstance(action, Play):
        card = action.card
        if card not in observation.hand:
            if observation.hidden_card == card:
                return WebError("hidden_card", card=str(card))
            return WebError("not_held", card=str(card))
        plays = [item.card for item in legal if isinstance(item, Play)]
        led = observation.led
        if led is not None and plays and all(item.suit == led for item in plays):
            return WebError("must_follow", suit=led.name, cards=[str(item) for item in plays])
        trump = observation.trump
        if trump is not None and plays and all(item.suit == trump for item in plays):
            return WebError("must_trump", suit=trump.name, cards=[str(item) for item in plays])
        return WebError("illegal", card=str(card))
    if isinstance(action, Call):
        return WebError("no_call_now")
    if isinstance(action, Hide):
        if phase != "hide":
            return WebError("no_hide_now")
        return WebError("not_held", card=str(action.card))
    if isinstance(action, Reveal):
        trump_rule = observation.rules.trump
        if trump_rule not in ("hidden", "hidden_auto"):
            return WebError("no_hidden_trump")
        if trump_rule == "hidden_auto":
            return WebError("reveal_automatic")
        if not observation.trump_hidden:
            return WebError("trump_revealed")
        if not observation.trick or observation.led is None:
            return WebError("reveal_leader")
        return WebError("reveal_can_follow", suit=observation.led.name)
    return WebError("illegal_action", text=str(action))  # pragma: no cover - every action kind is above


def finished_trick_of(events: Iterable[Event], hand: int) -> FinishedTrick | None:
    """The finished trick in the events of one step, in the state's ``finished_trick`` form (without ``pause``)."""
    trick: Trick | None = None
    collected: CentreCollected | None = None
    last = False
    for event in events:
        if isinstance(event, Trick):
            trick = event
        elif isinstance(event, CentreCollected):
            collected = event
        elif isinstance(event, HandEnded):
            last = True
    if trick is None:
        return None
    seats = trick.seats
    return {
        "number": trick.number,
        "hand": hand,
        "leader": trick.leader,
        "cards": [{"seat": seat, "card": str(card)} for seat, card in zip(seats, trick.cards)],
        "winner": trick.winner,
        "winning_card": str(trick.cards[seats.index(trick.winner)]),
        "collected": None
        if collected is None
        else {
            "seat": collected.seat,
            "team": collected.team,
            "cards": collected.mask.bit_count(),
            "tens": [str(card) for card in cards_of(collected.mask & TENS_MASK)],
        },
        "last_of_hand": last,
    }


class Views:
    """The observations of one version of a match, each seat's built from that seat's ``Observation`` only.

    A seat's scored hands (the longest part of a state) are turned into JSON only for a listener
    that has not been sent them yet.
    """

    def __init__(self, match: Match | None) -> None:
        self.match = match
        self._observations: dict[int, Observation] = {}
        self._watcher: ObservationJSON | None = None
        self._json: dict[tuple[int | None, bool], ObservationJSON] = {}

    def _observation(self, seat: int) -> Observation:
        observation = self._observations.get(seat)
        if observation is None:
            assert self.match is not None
            observation = self._observations[seat] = self.match.observe(seat)
        return observation

    def _watcher_view(self) -> ObservationJSON:
        if self._watcher is None:
            assert self.match is not None
            self._watcher = watcher_view(self.match)
        return self._watcher

    def hands(self, seat: int | None) -> int:
        """How many scored hands ``seat``'s view holds (0 without a match)."""
        if self.match is None:
            return 0
        if seat is None:
            return len(self._watcher_view()["match"]["hands"])
        return len(self._observation(seat).results)

    def view(self, seat: int | None, with_hands: bool) -> ObservationJSON:
        """``seat``'s observation as JSON (the watcher view for ``None``), without ``match.hands`` unless asked."""
        key = (seat, with_hands)
        found = self._json.get(key)
        if found is not None:
            return found
        if seat is None:
            view = self._watcher_view()
        else:
            observation = self._observation(seat)
            leave_out = not with_hands and observation.results
            view = (replace(observation, results=()) if leave_out else observation).to_json()
        if not with_hands:
            # ObservationJSON's MatchJSON (engine/observe.py) has no form without "hands": the cast says that
            # this one lacks it (the browser keeps the hands it was sent).
            standing = {key: value for key, value in view["match"].items() if key != "hands"}
            view = cast(ObservationJSON, {**view, "match": standing})
        self._json[key] = view
        return view
