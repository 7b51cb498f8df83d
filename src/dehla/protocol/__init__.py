"""The bot protocol (``dehla-bot/1``): bots as separate programs speaking JSON Lines, as chess engines speak UCI.

* ``CommandBot`` (host side) seats an outside program: ``make_bot("cmd:python my_bot.py")``.
* ``serve`` (bot side) runs a registered bot over standard input and output: ``dehla bot NAME``.
* ``checked_act`` and ``BotFailure`` hold any bot to the rules and report a failing one with the position.
* ``observation_from_json`` reads the documented observation JSON (``dehla-observation/1``) back.

See ``docs/protocol.md``.
"""

from dehla.protocol.host import COMMAND_PREFIX, CommandBot, python_command, split_command
from dehla.protocol.messages import DEFAULT_MOVE_TIMEOUT, DEFAULT_START_TIMEOUT, PROTOCOL
from dehla.protocol.observation import observation_from_json
from dehla.protocol.referee import FAILURE_KINDS, BotFailure, checked_act, close_bots, describe_position, position_of
from dehla.protocol.serve import serve

__all__ = [
    "BotFailure",
    "COMMAND_PREFIX",
    "CommandBot",
    "DEFAULT_MOVE_TIMEOUT",
    "DEFAULT_START_TIMEOUT",
    "FAILURE_KINDS",
    "PROTOCOL",
    "checked_act",
    "close_bots",
    "describe_position",
    "observation_from_json",
    "position_of",
    "python_command",
    "serve",
    "split_command",
]
