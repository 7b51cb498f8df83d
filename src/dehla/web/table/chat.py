"""A table's chat and reactions: short lines of plain text and quick reactions from seated people, the last few kept
for whoever says hello, each seat held to a rate.  Chat is never interpreted: it carries only what people typed."""

from __future__ import annotations

import time
from collections import deque

from dehla.web.messages import WebError, register
from dehla.web.protocol import RateLimiter
from dehla.web.schema import ChatMessage, ReactionMessage

__all__ = ["TableChat", "MAX_CHAT", "CHAT_KEPT", "CHAT_RATE", "CHAT_BURST", "REACTIONS"]

#: Longest chat message, in characters; how many are kept per table; the chat rate (per second) and burst.
MAX_CHAT = 200
CHAT_KEPT = 50
CHAT_RATE = 1.0
CHAT_BURST = 5.0
#: The quick reactions a seated person may send.
REACTIONS = ("👍", "👏", "😮", "😂", "🙏", "🔥")

register(
    {
        "chat_too_long": "A chat message can be at most {max} characters.",
        "chat_empty": "A chat message needs some text.",
        "chat_rate": "You are chatting too fast; wait a moment.",
        "bad_reaction": "That reaction is not offered.",
    }
)


class TableChat:
    """The lines kept (the last ``CHAT_KEPT``, from this process and others) and each seat's rate."""

    def __init__(self) -> None:
        self.kept: deque[ChatMessage] = deque(maxlen=CHAT_KEPT)
        self.count = 0
        self._limits: dict[int, RateLimiter] = {}

    def _allow(self, seat: int) -> None:
        if not self._limits.setdefault(seat, RateLimiter(CHAT_RATE, CHAT_BURST)).allow():
            raise WebError("chat_rate", "conflict")

    def line(self, seat: int, name: str, text: str) -> ChatMessage:
        """A new line from ``seat`` (on one line, at most ``MAX_CHAT`` characters), kept; refused with a code."""
        text = " ".join(text.split())
        if len(text) > MAX_CHAT:
            raise WebError("chat_too_long", max=MAX_CHAT)
        if not text:
            raise WebError("chat_empty")
        self._allow(seat)
        self.count += 1
        message: ChatMessage = {
            "type": "chat",
            "id": self.count,
            "seat": seat,
            "name": name,
            "text": text,
            "at": round(time.time(), 3),
        }
        self.kept.append(message)
        return message

    def reaction(self, seat: int, name: str, reaction: str) -> ReactionMessage:
        if reaction not in REACTIONS:
            raise WebError("bad_reaction")
        self._allow(seat)
        return {"type": "reaction", "seat": seat, "name": name, "reaction": reaction}

    def heard(self, message: ChatMessage) -> None:
        """A line said at this table on another process."""
        self.kept.append(message)

    def log(self) -> list[ChatMessage]:
        return list(self.kept)
