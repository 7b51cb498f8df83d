"""The pacing loop every door shares: what is due at a table, when, and how a bot's move is made.

One ``MatchDriver`` runs the automatic side of a match at any table: the web's tables, the terminal's
full-screen table, and the arena's matches between bots (``dehla.play.matches``, with no clock at all).

* The first deal at once; each later deal after the hand has ended, as soon as every person is ready
  (``bot_delay``), or after ``hand_pause`` for those who are not.
* A bot's move ``bot_delay`` after its turn began.  It thinks through the table's ``think`` (a thread, a
  worker, a pool: off the event loop), outside the table's lock, and its move is dropped if the table
  moved on meanwhile.
* A person's turn: nothing, until the person acts (the table changes and ``changed`` is set) or the
  table's ``person_due`` says the seat is played for them (the web's turn timer and grace time; such a
  move is committed ``by="timer"``).
* Nothing automatic while something is held on show (a finished trick for the pause, a hand's result
  until it is closed); when its time is over, the table is told to ``let_go``.
* A finished match is finished (``finish``).

The table (``DrivenTable``) supplies only what differs: how a step is committed (the web appends to its
log through its session), how a bot thinks, the clocks and pauses, and what a failed step means.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.engine.state import Match

__all__ = ["DrivenTable", "MatchDriver", "UNTIL_LET_GO"]

#: ``held_until`` of something on show until a person lets it go (a key, a closed panel), not a clock.
UNTIL_LET_GO = math.inf


class DrivenTable(Protocol):
    """What a table shows the driver, and the steps it lets the driver take."""

    @property
    def changed(self) -> asyncio.Event:
        """Set whenever the table changes outside the driver (a person acted, a setting, a hold let go)."""
        ...

    @property
    def lock(self) -> AbstractAsyncContextManager[object]:
        """Held while the driver reads the table and while it commits a step."""
        ...

    @property
    def match(self) -> Match | None: ...

    @property
    def playing(self) -> bool:
        """The match is in play (not waiting for players, not over and finished)."""
        ...

    @property
    def done(self) -> bool:
        """The driver's work here is over: ``run`` returns."""
        ...

    @property
    def version(self) -> int:
        """Counts the table's steps: a bot's move chosen at an older version is dropped."""
        ...

    @property
    def turn_started(self) -> float:
        """When the turn of the seat to act began (the driver's clock)."""
        ...

    @property
    def hand_ended(self) -> float: ...

    @property
    def bot_delay(self) -> float: ...

    @property
    def hand_pause(self) -> float: ...

    def person_in_control(self, seat: int, now: float) -> bool:
        """A person decides for ``seat`` now (otherwise its bot does)."""
        ...

    def people_waited_for(self, now: float) -> bool:
        """Between hands: a person has not yet said they are ready for the next one."""
        ...

    def person_due(self, seat: int, now: float) -> float | None:
        """When a person's seat is played for them (a turn timer), or ``None`` to wait for the person."""
        ...

    def held_until(self, now: float) -> float | None:
        """Until when what is on show holds the automatic steps (``UNTIL_LET_GO``: until a person lets it go);
        ``None`` when nothing holds them now."""
        ...

    def let_go(self) -> None:
        """The hold's time is over: take down what was on show (or show the next thing)."""
        ...

    async def refresh(self) -> None:
        """Bring the table up to date before the driver decides (the web catches up with its log)."""
        ...

    async def deal(self) -> None: ...

    async def commit(self, seat: int, action: Action, by: str) -> None:
        """Apply ``seat``'s action, decided by ``by`` (``bot`` or ``timer``), wherever the table keeps its steps."""
        ...

    async def finish(self) -> None: ...

    async def think(self, seat: int, observation: Observation) -> Action:
        """The action of the bot (or a person's stand-in) in ``seat``, decided off the event loop."""
        ...

    async def step_failed(self, error: Exception) -> bool:
        """A step raised ``error``: say whether to go on driving (it may raise instead)."""
        ...


class MatchDriver:
    """The automatic steps of one table, and when each is due."""

    def __init__(self, table: DrivenTable, clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.clock = clock

    def next_due(self, now: float) -> float | None:
        """When the next automatic step is due (the driver's clock), or ``None`` to wait for the table to change."""
        table = self.table
        match = table.match
        if match is None or not table.playing:
            return None
        held = table.held_until(now)
        shown = 0.0 if held is None else held
        if match.is_over:
            return max(now, shown)
        if match.is_chance:
            if not match.results:
                return now
            pause = table.hand_pause if table.people_waited_for(now) else table.bot_delay
            return max(table.hand_ended + pause, shown)
        seat = match.to_act
        assert seat is not None
        if not table.person_in_control(seat, now):
            return max(table.turn_started + table.bot_delay, shown)
        return table.person_due(seat, now)

    async def run(self) -> None:
        """Drive the table until it is ``done`` (or ``step_failed`` says stop, or the task is cancelled)."""
        table = self.table
        while not table.done:
            try:
                now = self.clock()
                held = table.held_until(now)
                if held is not None and held <= now:
                    table.let_go()
                    continue
                due = self.next_due(now)
                if due is not None and due <= now:
                    await self.step()
                    continue
                wake = min((time for time in (due, held) if time is not None), default=math.inf)
                table.changed.clear()
                # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancel that comes just after
                # the event is set, and whoever stops this loop would then wait for it forever.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(None if wake == math.inf else wake - now):
                        await table.changed.wait()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not await table.step_failed(error):
                    return

    async def step(self) -> None:
        """Take the step that is due: finish, deal, or a bot's move (thought out of the lock, then committed)."""
        table = self.table
        async with table.lock:
            await table.refresh()
            match = table.match
            now = self.clock()
            due = self.next_due(now)
            if match is None or due is None or due > now:
                return
            if match.is_over:
                await table.finish()
                return
            if match.is_chance:
                await table.deal()
                return
            seat = match.to_act
            assert seat is not None
            version = table.version
            observation = match.observe(seat)
            by = "timer" if table.person_in_control(seat, now) else "bot"
        action = await table.think(seat, observation)
        async with table.lock:
            if table.version != version or table.match is not match or match.to_act != seat:
                return  # a person acted meanwhile
            await table.commit(seat, action, by)
