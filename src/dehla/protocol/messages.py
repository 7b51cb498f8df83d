"""The messages of the bot protocol (``dehla-bot/1``): JSON Lines, one object per line, UTF-8.

Host to bot::

    {"type": "hello", "protocol": "dehla-bot/1", "seat": 2, "players": 4, "rules": "pagat", "seed": 7}
    {"type": "act", "observation": {...the seat's dehla-observation/1...}}
    {"type": "quit"}

Bot to host: one line for each ``hello`` (``{"type": "ready", ...}``, any JSON
object) and one for each ``act`` (``{"action": "10H"}``), nothing else.  A bot
that cannot decide may answer ``{"error": "why"}``; the host then reports it and
the bot's team loses.  The full description is ``docs/protocol.md``.
"""

from __future__ import annotations

import json
from typing import Any

from dehla.engine.observe import Observation
from dehla.rules import Rules

__all__ = [
    "PROTOCOL",
    "DEFAULT_MOVE_TIMEOUT",
    "DEFAULT_START_TIMEOUT",
    "MAX_LINE",
    "encode",
    "hello_message",
    "act_message",
    "quit_message",
    "ready_message",
    "action_message",
    "error_message",
]

#: Protocol name and version, sent in ``hello`` and answered in ``ready``.
PROTOCOL = "dehla-bot/1"
#: Seconds a bot may think about one move before it is reported as timed out.
DEFAULT_MOVE_TIMEOUT = 5.0
#: Seconds a bot may take to start and answer ``hello``.
DEFAULT_START_TIMEOUT = 15.0
#: The longest line either side accepts (bytes); a longer one is garbage.
MAX_LINE = 1 << 20


def encode(message: dict[str, Any]) -> str:
    """One message as one line of JSON, newline included."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


def hello_message(seat: int, rules: Rules, seed: int | None) -> dict[str, Any]:
    """The first message to a bot: who it is, under which rules, and the seed for any randomness it uses."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "seat": seat,
        "players": rules.players,
        "rules": rules.to_json(),
        "seed": seed,
    }


def act_message(observation: Observation) -> dict[str, Any]:
    """Ask the bot to act: the seat's observation in its documented JSON form."""
    return {"type": "act", "observation": observation.to_json()}


def quit_message() -> dict[str, Any]:
    return {"type": "quit"}


def ready_message(name: str) -> dict[str, Any]:
    """A bot's answer to ``hello``."""
    return {"type": "ready", "protocol": PROTOCOL, "name": name}


def action_message(action: object) -> dict[str, Any]:
    """A bot's answer to ``act``: the action's text form."""
    return {"action": str(action)}


def error_message(message: str) -> dict[str, Any]:
    """A bot's answer when it cannot act (or could not read the host's message)."""
    return {"error": message}
