"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError

__all__ = ["Bot", "BotInfo", "RandomBot", "BOTS", "register", "make_bot", "bot_names"]


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses an action from a seat's observation."""

    name: str

    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal_actions``."""
        ...


class RandomBot:
    """A uniformly random legal action: the floor every other bot is measured against."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal_actions)


@dataclass(frozen=True)
class BotInfo:
    """A registered bot: its name, difficulty level (0 = easiest) with a label, and how to make one."""

    name: str
    level: int
    label: str
    description: str
    factory: Callable[[int | None], Bot]


#: Registered bots by name.
BOTS: dict[str, BotInfo] = {}


def register(name: str, factory: Callable[[int | None], Bot], level: int, label: str, description: str) -> None:
    """Add a bot to the registry (front ends offer them by name and level)."""
    BOTS[name] = BotInfo(name, level, label, description, factory)


def bot_names() -> list[str]:
    """Registered bot names, easiest first."""
    return [info.name for info in sorted(BOTS.values(), key=lambda info: (info.level, info.name))]


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by registered name, or an outside program by ``cmd:COMMAND``; a clear error lists the names otherwise.

    A ``cmd:`` bot (``dehla.protocol.CommandBot``) runs its program over the bot
    protocol from its first move; call its ``close()`` when the match is over.
    """
    if name.startswith("cmd:"):
        from dehla.protocol.host import CommandBot

        return CommandBot(name[len("cmd:") :], seed)
    try:
        info = BOTS[name]
    except KeyError:
        raise DehlaError(
            f"unknown bot {name!r}; bots are: {', '.join(bot_names())}, or cmd:COMMAND for an outside program"
        ) from None
    return info.factory(seed)


register("random", RandomBot, 0, "beginner", "plays a uniformly random legal card")
