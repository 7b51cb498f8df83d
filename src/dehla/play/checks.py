"""Holding a player to the rules: ``checked_act``, and ``BotFailure`` for one that broke them.

Whatever seat a bot takes (registered in this process, or an outside program
over the bot protocol), the host may ask it through ``checked_act``: an
exception, an illegal action, garbage, a timeout or a dead process all become
one ``BotFailure`` that says what went wrong, where (hand, trick, seat) and
what the bot said.  The caller then scores the match as lost by the bot's team.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from dehla.bots.base import Bot
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError

__all__ = [
    "BotFailure",
    "FAILURE_KINDS",
    "FailureJSON",
    "Position",
    "checked_act",
    "close_bots",
    "describe_position",
    "legal_text",
    "position_of",
]

#: What can go wrong with a bot, by name (``BotFailure.kind``).
FAILURE_KINDS = {
    "illegal": "answered an action that is not legal now",
    "unreadable": "answered something that is not an action",
    "error": "reported an error instead of acting",
    "timeout": "did not answer in time",
    "died": "stopped running",
    "crashed": "raised an exception",
}

_SAID_LIMIT = 200


class Position(TypedDict):
    """Where a match stands, for a report: hands are numbered from 0 as in records, tricks from 1."""

    seat: int
    team: int
    hand: int
    trick: int
    phase: str


class FailureJSON(Position):
    """``BotFailure.to_json()``: what went wrong, where, and what the bot said."""

    kind: str
    bot: str
    detail: str
    said: str | None
    message: str


def position_of(observation: Observation) -> Position:
    """Where the match stands for a report: seat, team, hand (0-based index as in records), trick (from 1), phase."""
    return {
        "seat": observation.seat,
        "team": observation.team,
        "hand": observation.hand_number,
        "trick": len(observation.tricks) + 1,
        "phase": observation.phase,
    }


def describe_position(position: Position) -> str:
    """``seat 2 (team 0), hand 0, trick 3``: hands are numbered from 0 as in records and transcripts, tricks from 1."""
    where = f"seat {position['seat']} (team {position['team']}), hand {position['hand']}"
    phase = position.get("phase")
    if phase == "call":
        return f"{where}, calling trump"
    if phase == "hide":
        return f"{where}, hiding the trump card"
    return f"{where}, trick {position['trick']}"


class BotFailure(DehlaError):
    """A bot that broke the protocol or the rules; its team loses the match.

    ``kind`` is one of ``FAILURE_KINDS``; ``said`` is what the bot answered (cut to 200 characters), if anything.
    """

    def __init__(self, kind: str, bot: str, position: Position, detail: str, said: str | None = None) -> None:
        if said is not None and len(said) > _SAID_LIMIT:
            said = said[:_SAID_LIMIT] + "…"
        self.kind = kind
        self.bot = bot
        self.position = position.copy()
        self.detail = detail
        self.said = said
        text = f"bot {bot!r} at {describe_position(self.position)}: {detail}"
        if said is not None:
            text += f" (it said: {said!r})"
        super().__init__(text)

    @classmethod
    def at(cls, kind: str, bot: str, observation: Observation, detail: str, said: str | None = None) -> BotFailure:
        """A failure at the position ``observation`` shows."""
        return cls(kind, bot, position_of(observation), detail, said)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (BotFailure, (self.kind, self.bot, self.position, self.detail, self.said))

    @property
    def seat(self) -> int:
        return int(self.position["seat"])

    @property
    def team(self) -> int:
        return int(self.position["team"])

    def to_json(self) -> FailureJSON:
        """The report as JSON-ready data (arena results)."""
        return {
            "kind": self.kind,
            "bot": self.bot,
            **self.position,
            "detail": self.detail,
            "said": self.said,
            "message": str(self),
        }


def legal_text(observation: Observation) -> str:
    """The legal actions as text, for a report: ``10H QS 4S``."""
    return " ".join(str(action) for action in observation.legal_actions)


def checked_act(bot: Bot, observation: Observation, label: str | None = None) -> Action:
    """Ask ``bot`` to act and make sure the answer is legal; any failure becomes a ``BotFailure``."""
    name = label if label is not None else str(getattr(bot, "name", type(bot).__name__))
    try:
        action = bot.act(observation)
    except BotFailure:
        raise
    except Exception as error:  # a bot's bug must not stop the host: it loses instead
        raise BotFailure.at("crashed", name, observation, f"raised {type(error).__name__}: {error}") from error
    try:
        legal = action in observation.legal_actions
    except Exception:  # an object that cannot even be compared is not an action
        legal = False
    if not legal:
        raise BotFailure.at(
            "illegal",
            name,
            observation,
            f"answered an action that is not legal now; legal were: {legal_text(observation)}",
            said=str(action),
        )
    return action


def close_bots(bots: Iterable[object]) -> None:
    """Stop every bot that holds a resource (an outside program); others have nothing to close."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            close()
