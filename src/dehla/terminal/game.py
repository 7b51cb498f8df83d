"""The match behind the full-screen table: one person's seat, bots in the others, chance from a seeded rng.

Its steps (a deal, a bot's decision, the person's decision) are the ones the shared pacing loop takes
(``dehla.play.driver.MatchDriver``, through ``pacing.TablePacing``), so that a screen can show each one:
the screen never reads the ``Match`` itself, only the person's ``Observation`` (``view()``) and the
events each step returns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from dehla.bots.base import Bot
from dehla.engine.actions import Action
from dehla.engine.events import Event
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.play import checked_act
from dehla.record import RecordJSON, to_record, write_records
from dehla.rules import Rules

__all__ = ["Step", "TableGame"]


@dataclass(frozen=True)
class Step:
    """One thing that happened: who decided (``None`` for the deal), what, and the engine's events."""

    seat: int | None
    action: Action | None
    events: tuple[Event, ...]


class TableGame:
    """A match with one person at ``me``; ``players[seat]`` decides for every other seat."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Bot | None],
        me: int,
        names: Sequence[str],
        rng: random.Random,
    ) -> None:
        if len(players) != rules.players or len(names) != rules.players:
            raise DehlaError(f"{rules.players} players and names are needed, one a seat")
        self.rules = rules
        self.players = list(players)
        self.me = me
        self.names = list(names)
        self.rng = rng
        self._match = Match.new(rules, rng)

    @property
    def match(self) -> Match:
        """The match itself, for the driver that paces it (``pacing``); the screen reads only ``view()``."""
        return self._match

    @property
    def first_dealer(self) -> int:
        """Who deals the first hand (drawn by lot when the match was made)."""
        return self._match.dealer

    @property
    def over(self) -> bool:
        return self._match.is_over

    @property
    def chance_due(self) -> bool:
        """A new hand must be dealt before anyone decides."""
        return self._match.is_chance

    @property
    def to_act(self) -> int | None:
        """The seat that decides next (``None`` while a deal is due or when the match is over)."""
        return None if self._match.is_chance else self._match.to_act

    def view(self) -> Observation:
        """All the person may know now: the only thing the table draws."""
        return self._match.observe(self.me)

    def deal(self) -> Step:
        """Deal the next hand from the rng."""
        return Step(None, None, self._match.apply(self._match.random_deal(self.rng)))

    def bot_view(self) -> tuple[int, Bot, Observation]:
        """The bot to act and its own seat's observation, to decide from (in a worker thread)."""
        seat = self.to_act
        if seat is None or seat == self.me:
            raise DehlaError("it is not a bot's turn")
        player = self.players[seat]
        assert player is not None
        return seat, player, self._match.observe(seat)

    def bot_decides(self, player: Bot, observation: Observation) -> Action:
        """The bot's action, held to the rules (a failure becomes ``BotFailure``); touches no state."""
        return checked_act(player, observation, self.names[observation.seat])

    def apply(self, seat: int, action: Action) -> Step:
        """Apply the decision of ``seat``, which must be the seat to act (the engine checks legality)."""
        if seat != self.to_act:
            raise DehlaError(f"seat {seat} is not the seat to act")
        return Step(seat, action, self._match.apply(action))

    def record(self) -> RecordJSON:
        """The match so far as a ``dehla-record/1`` record."""
        return to_record(self._match, self.names)

    def save(self, path: str) -> None:
        """Write the match so far as a record to ``path`` (``OSError`` if it cannot be written)."""
        write_records(path, [self.record()])
