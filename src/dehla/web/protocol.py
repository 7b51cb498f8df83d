"""The WebSocket protocol: validation of every inbound message (shape, size, rate) and the watcher view.

Clients send intents only: ``{"type": "act", "action": "10H"}`` and a few
table commands.  Everything a client may receive about the cards comes from
``Observation.to_json()`` (``dehla.engine.observe``); watchers get the same
observation with every private field removed (see ``watcher_view``).
"""

from __future__ import annotations

import json
import time
from typing import Any

from dehla.engine.observe import watcher_json
from dehla.engine.state import Match

__all__ = ["ProtocolError", "MAX_MESSAGE_BYTES", "parse_message", "RateLimiter", "watcher_view", "MESSAGE_FIELDS"]

#: The largest inbound message accepted, in bytes of text.
MAX_MESSAGE_BYTES = 2048

#: Each message type and its allowed fields: (type, longest text) or (int, None).
MESSAGE_FIELDS: dict[str, dict[str, tuple[type, int | None]]] = {
    "hello": {"token": (str, 64), "name": (str, 24)},
    "act": {"action": (str, 16), "version": (int, None)},
    "next": {},
    "start": {},
    "rematch": {},
    "ping": {},
}


class ProtocolError(Exception):
    """An inbound message that is refused; ``code`` lets the browser translate ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_message(text: object) -> tuple[str, dict[str, Any]]:
    """Validate one inbound message; returns ``(type, fields)`` or raises ``ProtocolError``."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages must be JSON text, not binary")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object with a \"type\"")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_FIELDS:
        raise ProtocolError("bad_message", f"unknown message type; types are: {', '.join(MESSAGE_FIELDS)}")
    allowed = MESSAGE_FIELDS[kind]
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in allowed:
            raise ProtocolError("bad_message", f"unexpected field {str(key)[:32]!r} in a {kind!r} message")
        expected, longest = allowed[key]
        if expected is int:
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
                raise ProtocolError("bad_message", f"{key!r} must be a whole number")
        elif not isinstance(value, str) or (longest is not None and len(value) > longest):
            raise ProtocolError("bad_message", f"{key!r} must be text of at most {longest} characters")
        elif not value.isprintable():
            raise ProtocolError("bad_message", f"{key!r} holds characters that cannot be shown")
        fields[key] = value
    if kind == "act" and "action" not in fields:
        raise ProtocolError("bad_message", "an 'act' message needs an \"action\" such as \"10H\" or \"call S\"")
    return kind, fields


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


def watcher_view(match: Match) -> dict[str, Any]:
    """The public view of a match for watchers (no hand, no hidden card, no legal actions).

    Built by the engine's one observation module, like every seat's view.
    """
    return watcher_json(match)
