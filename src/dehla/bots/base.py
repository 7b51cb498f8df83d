"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError

__all__ = ["Bot", "RandomBot", "BOTS", "register", "make_bot", "bot_names"]


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


#: Bot factories by name; each takes a seed.
BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    BOTS[name] = factory


def bot_names() -> list[str]:
    return sorted(BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by registered name; a clear error lists the names otherwise."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise DehlaError(f"unknown bot {name!r}; bots are: {', '.join(bot_names())}") from None
    return factory(seed)
