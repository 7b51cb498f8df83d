"""The messages of the bot protocol (``dehla-bot/1``): JSON Lines, one object per line, UTF-8.

Host to bot::

    {"type": "hello", "protocol": "dehla-bot/1", "seat": 2, "players": 4, "rules": "pagat",
     "options": {"preset": "pagat", "players": 4, "trump": "called", ...}, "tricks_per_hand": 13, "seed": 7}
    {"type": "act", "observation": {...the seat's dehla-observation/1...}}
    {"type": "quit"}

Bot to host: one line for each ``hello`` (``{"type": "ready", ...}``, any JSON
object) and one for each ``act`` (``{"action": "10H"}``), nothing else.  A bot
that cannot decide may answer ``{"error": "why"}``; the host then reports it and
the bot's team loses.  The full description is ``docs/protocol.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Literal, TypedDict

from dehla.engine.observe import Observation, ObservationJSON, OptionsJSON, options_json
from dehla.rules import Rules, RulesJSON

__all__ = [
    "PROTOCOL",
    "DEFAULT_MOVE_TIMEOUT",
    "DEFAULT_START_TIMEOUT",
    "MAX_LINE",
    "HelloMessage",
    "ActMessage",
    "QuitMessage",
    "HostMessage",
    "ReadyMessage",
    "ActionMessage",
    "ErrorMessage",
    "BotMessage",
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


class HelloMessage(TypedDict):
    """Host to bot, first: who the bot is, under which rules, and the seed for any randomness it uses."""

    type: Literal["hello"]
    protocol: str
    seat: int
    players: int
    rules: RulesJSON  # the rules' JSON form (``Rules.to_json``)
    options: OptionsJSON  # every option written out, so that a bot needs no table of presets
    tricks_per_hand: int
    seed: int | None


class ActMessage(TypedDict):
    """Host to bot: the seat is to act; its observation in the documented JSON form (``dehla-observation/1``)."""

    type: Literal["act"]
    observation: ObservationJSON


class QuitMessage(TypedDict):
    type: Literal["quit"]


#: Everything the host sends.
HostMessage = HelloMessage | ActMessage | QuitMessage


class ReadyMessage(TypedDict):
    """Bot to host, the answer to ``hello`` (a host accepts any JSON object there)."""

    type: Literal["ready"]
    protocol: str
    name: str


class ActionMessage(TypedDict):
    """Bot to host, the answer to ``act``: the action's text form."""

    action: str


class ErrorMessage(TypedDict):
    """Bot to host, when it cannot act (or could not read the host's message)."""

    error: str


#: Everything our bot server answers.
BotMessage = ReadyMessage | ActionMessage | ErrorMessage


def encode(message: Mapping[str, object]) -> str:
    """One message as one line of JSON, newline included."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


def hello_message(seat: int, rules: Rules, seed: int | None) -> HelloMessage:
    """The first message to a bot: who it is, under which rules, and the seed for any randomness it uses."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "seat": seat,
        "players": rules.players,
        "rules": rules.to_json(),
        "options": options_json(rules),
        "tricks_per_hand": rules.tricks_per_hand,
        "seed": seed,
    }


def act_message(observation: Observation) -> ActMessage:
    """Ask the bot to act: the seat's observation in its documented JSON form."""
    return {"type": "act", "observation": observation.to_json()}


def quit_message() -> QuitMessage:
    return {"type": "quit"}


def ready_message(name: str) -> ReadyMessage:
    """A bot's answer to ``hello``."""
    return {"type": "ready", "protocol": PROTOCOL, "name": name}


def action_message(action: object) -> ActionMessage:
    """A bot's answer to ``act``: the action's text form."""
    return {"action": str(action)}


def error_message(message: str) -> ErrorMessage:
    """A bot's answer when it cannot act (or could not read the host's message)."""
    return {"error": message}
