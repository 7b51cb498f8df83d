"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError

if TYPE_CHECKING:
    from dehla.engine.state import Match

__all__ = ["Bot", "BotInfo", "RandomBot", "BOTS", "register", "make_bot", "bot_names", "bind_bots"]


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
    #: True for a bot that must be shown the whole match (``bind(match)``) and so sees every card: the arena
    #: and ``dehla simulate`` may seat it as a ceiling to measure against; front ends for people never offer it.
    measurement_only: bool = False
    #: True for a bot that thinks with the solver's compiled kernel: hosts load (or compile) the kernel before its
    #: first move (``dehla.solver.warm_up``), and a server runs it in worker processes, off its tables' path.
    uses_solver: bool = False


#: Registered bots by name.
BOTS: dict[str, BotInfo] = {}


def register(
    name: str,
    factory: Callable[[int | None], Bot],
    level: int,
    label: str,
    description: str,
    *,
    measurement_only: bool = False,
    uses_solver: bool = False,
) -> None:
    """Add a bot to the registry (front ends offer them by name and level)."""
    BOTS[name] = BotInfo(name, level, label, description, factory, measurement_only, uses_solver)


def bot_names(*, for_people: bool = False) -> list[str]:
    """Registered bot names, easiest first; ``for_people`` leaves out the measurement-only bots that see all cards."""
    ordered = sorted(BOTS.values(), key=lambda info: (info.level, info.name))
    return [info.name for info in ordered if not (for_people and info.measurement_only)]


def bind_bots(bots: Sequence[object], match: Match) -> None:
    """Show the match to the bots that need it (the measurement-only ``cheat``); the others see observations only."""
    for bot in bots:
        bind = getattr(bot, "bind", None)
        if callable(bind):
            bind(match)


def bot_info(name: str) -> BotInfo:
    """The registry's entry for ``name`` (loading an installed package's bot on first use); a clear error otherwise."""
    if name.startswith("cmd:"):
        raise DehlaError(
            f"{name!r} is an outside program, not a registered bot: seat it with dehla.protocol.make_player"
        )
    if name not in BOTS:
        _load_plugin(name)
    try:
        return BOTS[name]
    except KeyError:
        raise DehlaError(
            f"unknown bot {name!r}; bots are: {', '.join(bot_names() + sorted(plugin_names()))}, "
            "or cmd:COMMAND for an outside program"
        ) from None


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new registered bot by name; a clear error lists the names otherwise.

    Outside programs (``cmd:COMMAND``) are players too, but this layer runs no programs:
    ``dehla.protocol.make_player`` seats either kind.
    """
    return bot_info(name).factory(seed)


#: The entry-point group through which installed packages add bots: each entry names a function that
#: registers its bot (``register``) and returns whether it could (its library may be missing).
PLUGIN_GROUP = "dehla.bots"


def plugin_names() -> set[str]:
    """Names of bots that installed packages offer through the ``dehla.bots`` entry points, not yet registered."""
    return {entry.name for entry in entry_points(group=PLUGIN_GROUP)} - set(BOTS)


def _load_plugin(name: str) -> None:
    """Register the bot ``name`` from its entry point, if a package offers one (in any process, workers included)."""
    for entry in entry_points(group=PLUGIN_GROUP, name=name):
        if not entry.load()():
            raise DehlaError(f"the bot {name!r} is installed but cannot run here (a library it needs is missing)")


register("random", RandomBot, 0, "beginner", "plays a uniformly random legal card")
