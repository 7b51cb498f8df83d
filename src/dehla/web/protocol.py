"""The WebSocket protocol: validation of every inbound message (shape, size, rate) and the watcher view.

Clients send intents only: ``{"type": "act", "action": "10H"}`` and a few
table commands.  Everything a client may receive about the cards comes from
``Observation.to_json()`` (``dehla.engine.observe``); watchers get the same
observation with every private field removed (see ``watcher_view``).
"""

from __future__ import annotations

import json
import math
import time
from typing import Literal, NotRequired, TypedDict, cast

from dehla.engine.observe import ObservationJSON, watcher_json
from dehla.engine.state import Match
from dehla.web.messages import Param, WebError, register

__all__ = [
    "ProtocolError",
    "MAX_MESSAGE_BYTES",
    "parse_message",
    "RateLimiter",
    "watcher_view",
    "MESSAGE_FIELDS",
    "REQUIRED",
    "ClientMessage",
    "HelloRequest",
    "ActRequest",
    "BareRequest",
    "ChatRequest",
    "ReactRequest",
    "SeatRequest",
    "SettingsRequest",
    "HintRequest",
    "UndoRequest",
    "ClaimRequest",
    "ClaimAnswerRequest",
]

#: The largest inbound message accepted, in bytes of text.
MAX_MESSAGE_BYTES = 2048

#: Each message type and its allowed fields: (str, longest text), (int, None), (bool, None) or (float, None).
MESSAGE_FIELDS: dict[str, dict[str, tuple[type, int | None]]] = {
    "hello": {"token": (str, 64), "name": (str, 24), "watch": (str, 64), "mine": (bool, None)},
    "act": {"action": (str, 16), "version": (int, None)},
    "next": {},
    "start": {},
    "rematch": {},
    "ping": {},
    # chat text longer than the chat limit passes here, so that it is refused with its own code
    "chat": {"text": (str, 1000)},
    "react": {"reaction": (str, 8)},
    "report": {"chat": (int, None)},
    "seat": {"seat": (int, None), "kind": (str, 8), "bot": (str, 32)},
    "settings": {
        "listed": (bool, None),
        "watchers_allowed": (bool, None),
        "trick_pause": (float, None),
        "assists": (bool, None),
    },
    "hint": {"version": (int, None)},
    "undo": {},
    "claim": {"what": (str, 8)},
    "claim_answer": {"accept": (bool, None)},
}
#: Fields a message of a type must have.
REQUIRED: dict[str, tuple[str, ...]] = {
    "act": ("action", "version"),
    "chat": ("text",),
    "react": ("reaction",),
    "seat": ("seat", "kind"),
    "report": ("chat",),
    "hint": ("version",),
    "claim": ("what",),
    "claim_answer": ("accept",),
}


# The messages ``MESSAGE_FIELDS`` and ``REQUIRED`` admit, as types (tests/web/test_api.py checks that they agree).


class HelloRequest(TypedDict):
    """Take the seat of a link's ``token`` (with a ``name``), or the seat that belongs to the connection's player
    (``mine``), or watch (with a ``watch`` link if needed)."""

    type: Literal["hello"]
    token: NotRequired[str]
    name: NotRequired[str]
    watch: NotRequired[str]
    mine: NotRequired[bool]


class ActRequest(TypedDict):
    """An action's text, and the table's version it was chosen at (refused as stale if the game moved on): an action
    names the position it was meant for, so two windows of one seat can never play a card into the next trick."""

    type: Literal["act"]
    action: str
    version: int


class BareRequest(TypedDict):
    """A message that is only its type: ready for the next hand, start, rematch, ping."""

    type: Literal["next", "start", "rematch", "ping"]


class ChatRequest(TypedDict):
    type: Literal["chat"]
    text: str


class ReactRequest(TypedDict):
    type: Literal["react"]
    reaction: str


class ReportRequest(TypedDict):
    """Report chat line ``chat`` (its id) to the server's admins."""

    type: Literal["report"]
    chat: int


class SeatRequest(TypedDict):
    """The host makes ``seat`` a bot's (``kind`` "bot") or opens it for an invite (``kind`` "invite")."""

    type: Literal["seat"]
    seat: int
    kind: str
    bot: NotRequired[str]


class SettingsRequest(TypedDict):
    type: Literal["settings"]
    listed: NotRequired[bool]
    watchers_allowed: NotRequired[bool]
    trick_pause: NotRequired[float]
    assists: NotRequired[bool]


class HintRequest(TypedDict):
    """What the strongest bot would play for the sender's seat, at the table's version ``version``."""

    type: Literal["hint"]
    version: int


class UndoRequest(TypedDict):
    """Take back the sender's last card and the bots' actions after it."""

    type: Literal["undo"]


class ClaimRequest(TypedDict):
    """Claim the rest of the hand: every remaining trick (``what`` "tricks") or every remaining ten ("tens")."""

    type: Literal["claim"]
    what: str


class ClaimAnswerRequest(TypedDict):
    """Accept or refuse the claim waiting for the sender's answer."""

    type: Literal["claim_answer"]
    accept: bool


#: Every message a client may send.
ClientMessage = (
    HelloRequest
    | ActRequest
    | BareRequest
    | ChatRequest
    | ReactRequest
    | ReportRequest
    | SeatRequest
    | SettingsRequest
    | HintRequest
    | UndoRequest
    | ClaimRequest
    | ClaimAnswerRequest
)

register(
    {
        "bad_message": "That message was not understood.",
        "too_big": "That message is too long (at most {max} bytes).",
        "rate": "Too many messages; slow down.",
        "no_version": "An action must say the version of the table it was chosen at.",
    }
)


class ProtocolError(WebError):
    """An inbound message that is refused: a ``WebError`` whose kind is always ``invalid``."""

    def __init__(self, code: str, **params: Param) -> None:
        super().__init__(code, "invalid", detail=None, **params)


def _check(key: str, value: object, expected: type, longest: int | None) -> None:
    if expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31
    elif expected is bool:
        ok = isinstance(value, bool)
    elif expected is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    else:
        ok = isinstance(value, str) and (longest is None or len(value) <= longest) and value.isprintable()
    if not ok:
        raise ProtocolError("bad_message")


def parse_message(text: object) -> ClientMessage:
    """Validate one inbound message; returns it (its ``type`` and fields) or raises ``ProtocolError``."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", max=MAX_MESSAGE_BYTES)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_FIELDS:
        raise ProtocolError("bad_message")
    allowed = MESSAGE_FIELDS[kind]
    message: dict[str, object] = {"type": kind}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in allowed:
            raise ProtocolError("bad_message")
        _check(key, value, *allowed[key])
        message[key] = value
    missing = [key for key in REQUIRED.get(kind, ()) if key not in message]
    if missing == ["version"]:
        raise ProtocolError("no_version")
    if missing:
        raise ProtocolError("bad_message")
    # every field was checked against MESSAGE_FIELDS and REQUIRED, which say what the types above say
    return cast(ClientMessage, message)


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


def watcher_view(match: Match) -> ObservationJSON:
    """The public view of a match for watchers (no hand, no hidden card, no legal actions).

    Built by the engine's one observation module, like every seat's view.
    """
    return watcher_json(match)
