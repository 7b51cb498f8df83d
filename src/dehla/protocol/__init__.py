"""The bot protocol (``dehla-bot/1``): bots as separate programs speaking JSON Lines, as chess engines speak UCI.

* ``CommandBot`` (host side) seats an outside program; ``make_player("cmd:python my_bot.py")`` makes one
  (and a registered bot by name otherwise).
* ``serve`` (bot side) runs a registered bot over standard input and output: ``dehla bot NAME``.
* ``observation_from_json`` reads the documented observation JSON (``dehla-observation/1``) back
  (it lives beside the observation, in ``dehla.engine.observe_json``).

Holding a bot to the rules (``checked_act``, ``BotFailure``) belongs to running matches: ``dehla.play``.
See ``docs/protocol.md``.
"""

from dehla.engine.observe_json import observation_from_json
from dehla.protocol.host import COMMAND_PREFIX, CommandBot, make_player, python_command, split_command
from dehla.protocol.messages import DEFAULT_MOVE_TIMEOUT, DEFAULT_START_TIMEOUT, PROTOCOL
from dehla.protocol.serve import serve

__all__ = [
    "COMMAND_PREFIX",
    "CommandBot",
    "DEFAULT_MOVE_TIMEOUT",
    "DEFAULT_START_TIMEOUT",
    "PROTOCOL",
    "make_player",
    "observation_from_json",
    "python_command",
    "serve",
    "split_command",
]
