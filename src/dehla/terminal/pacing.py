"""The terminal table's side of the shared pacing loop (``dehla.play.driver.MatchDriver``).

What differs from the web's tables: steps are applied to the ``TableGame`` in this process; the person's
seat is always theirs and has no timer; a bot thinks in a Textual thread worker; what a step holds on show
is a queue of beats (``story.step_beats``): a finished trick or a collection for ``pause`` seconds (``None``:
until a key), a hand's result until its panel is closed, which is also how the person says "next hand".
A bot's turn begins once the table is clear, and it plays ``pace`` seconds later.  The screen is told of
each change through ``TableScreen``; it never drives the match itself.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from dehla.bots.base import Bot
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.play import UNTIL_LET_GO, BotFailure, MatchDriver
from dehla.terminal.felt import Moment
from dehla.terminal.game import Step, TableGame
from dehla.terminal.story import Beat, Panel, Teller, failure_panel, step_beats

__all__ = ["TablePacing", "TableScreen"]


class TableScreen(Protocol):
    """What the pacing asks of the screen."""

    symbols: bool

    def tell(self, lines: tuple[str, ...]) -> None:
        """Add lines to the event log."""
        ...

    def show(self, hold: Moment | Panel | None) -> None:
        """Put what holds the table on show (a moment on the felt, a panel), or take it down."""
        ...

    def changed_turn(self) -> None:
        """The match or its hold moved on: show whose turn it is now."""
        ...

    async def think(self, seat: int, player: Bot, observation: Observation) -> Action:
        """Let a bot decide off the event loop."""
        ...

    async def ended(self, panel: Panel | None) -> None:
        """The match is over (or a bot failed, told by ``panel``): end the table."""
        ...


class TablePacing:
    """One person's table (``game.me``) as the driver sees it; ``run`` drives the match to its end."""

    def __init__(
        self,
        game: TableGame,
        screen: TableScreen,
        pause: float | None,
        pace: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.game = game
        self.screen = screen
        self.pause = pause
        self.bot_delay = pace
        self.hand_pause = UNTIL_LET_GO  # the next hand is dealt once the result panel is closed
        self.clock = clock
        self.changed = asyncio.Event()
        self.lock = asyncio.Lock()
        self.version = 0  # decisions and deals applied
        self.turn_started = self.hand_ended = clock()
        self.beats: deque[Beat] = deque()
        self.hold: Moment | Panel | None = None
        self.hold_started = 0.0
        self.done = False
        self.playing = True
        self.driver = MatchDriver(self, clock)

    async def run(self) -> None:
        await self.driver.run()

    @property
    def match(self) -> Match:
        return self.game.match

    @property
    def person_turn(self) -> bool:
        """The person is to act and nothing holds the table."""
        return self.hold is None and not self.done and self.game.to_act == self.game.me

    @property
    def thinking(self) -> int | None:
        """The bot whose turn it is, once nothing holds the table."""
        seat = self.game.to_act
        return seat if self.hold is None and not self.done and seat is not None and seat != self.game.me else None

    # -- what the person does ------------------------------------------------------------------------

    def play(self, action: Action) -> None:
        """The person's action (legal: the screen checked it against their observation)."""
        self._stepped(self.game.apply(self.game.me, action))
        self.changed.set()

    def skip(self) -> None:
        """A key or a click: the moment on show goes at once."""
        if isinstance(self.hold, Moment):
            self.let_go()
            self.changed.set()

    def closed(self) -> None:
        """The result panel was closed ("Next hand")."""
        if isinstance(self.hold, Panel):
            self.let_go()
            self.changed.set()

    # -- the driver's view of the table --------------------------------------------------------------

    def person_in_control(self, seat: int, now: float) -> bool:
        return seat == self.game.me

    def people_waited_for(self, now: float) -> bool:
        return False  # the result panel holds the table until the person goes on

    def person_due(self, seat: int, now: float) -> float | None:
        return None  # no turn timer: the table waits for the person

    def held_until(self, now: float) -> float | None:
        if self.hold is None:
            return None
        if isinstance(self.hold, Panel) or self.pause is None:
            return UNTIL_LET_GO
        return self.hold_started + self.pause

    def let_go(self) -> None:
        self.hold = None
        self._advance()

    async def refresh(self) -> None:
        pass

    async def deal(self) -> None:
        self._stepped(self.game.deal())

    async def commit(self, seat: int, action: Action, by: str) -> None:
        self._stepped(self.game.apply(seat, action))

    async def finish(self) -> None:
        self.done = True
        await self.screen.ended(None)

    async def think(self, seat: int, observation: Observation) -> Action:
        player = self.game.players[seat]
        assert player is not None
        return await self.screen.think(seat, player, observation)

    async def step_failed(self, error: Exception) -> bool:
        if not isinstance(error, BotFailure):
            raise error
        self.done = True
        self.screen.changed_turn()
        await self.screen.ended(failure_panel(str(error), error.team, self.game.me))
        return False

    # -- beats ---------------------------------------------------------------------------------------

    def _stepped(self, step: Step) -> None:
        self.version += 1
        now = self.clock()
        self.turn_started = now
        if self.match.is_chance or self.match.is_over:
            self.hand_ended = now
        teller = Teller(self.game.rules, self.game.names, self.game.me, self.screen.symbols)
        self.beats.extend(step_beats(step, teller))
        if self.hold is None:
            self._advance()

    def _advance(self) -> None:
        """Play the beats until one holds the table; once it is clear, the next turn begins."""
        while self.hold is None and self.beats:
            beat = self.beats.popleft()
            self.screen.tell(beat.lines)
            if beat.hold is not None:
                self.hold = beat.hold
                self.hold_started = self.clock()
        if self.hold is None:
            self.turn_started = self.clock()
        self.screen.show(self.hold)
        self.screen.changed_turn()
