"""Bots: players that decide from a seat's observation only.

A bot is any object with ``act(observation) -> Action``.  It is handed the
seat's ``Observation`` and nothing else, so it cannot see a card the seat has
not seen.  Bots are registered by name (``make_bot("random")``).
"""

from dehla.bots.base import BOTS, Bot, BotInfo, RandomBot, bot_info, bot_names, make_bot, register
from dehla.bots.heuristic import HeuristicBot  # registers "heuristic"
from dehla.bots.search import CheatBot, SearchBot  # registers "hard", "expert", "cheat"

__all__ = [
    "BOTS",
    "Bot",
    "BotInfo",
    "CheatBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "bot_info",
    "bot_names",
    "make_bot",
    "register",
]
