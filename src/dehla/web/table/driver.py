"""A table's driver: everything that happens at a table without a person acting, on the shared pacing loop.

The deal, the bots' moves, a person's seat played by its stand-in bot after the
grace time, the turn timer, and the pauses between them (the bot delay, the
finished trick shown for the table's trick pause, the wait between hands until
every person is ready).  When each is due and the loop that takes it are
``dehla.play.driver.MatchDriver``'s, as at the terminal's table; ``TableDriver`` is the
web's side of it.  One task per table, on the process that holds the table's
lease; each step goes through the table's own ``commit`` (append to the log,
apply, broadcast), under the table's lock, like a person's action.  A bot thinks
outside the lock, off the event loop (a thread, or the search bots' worker
pool), and its move is dropped if the table moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Sequence
from typing import Protocol

from dehla.bots import Bot
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.play.driver import MatchDriver
from dehla.web.botpool import BotPool
from dehla.web.storage import LeaseLost, StaleLog
from dehla.web.table.seats import SeatInfo

__all__ = ["TableDriver", "DrivenTable"]

log = logging.getLogger("dehla.web")


class DrivenTable(Protocol):
    """What the driver reads and calls of a table (``TableSession``'s public interface)."""

    table_id: str
    lock: asyncio.Lock
    changed: asyncio.Event
    match: Match | None
    status: str
    seq: int
    seats: list[SeatInfo]
    ready: set[int]
    bots: dict[int, Bot]
    bot_seeds: dict[int, int]
    rng: random.Random
    timer: float | None
    grace: float
    trick_pause: float
    turn_started: float
    trick_ended: float
    hand_ended: float
    disconnected_at: dict[int, float]

    @property
    def behind(self) -> bool:
        """Other processes wrote to the log since this copy last looked."""
        ...

    @property
    def finished_trick_shown(self) -> bool:
        """A finished trick is on the table (shown for the trick pause before bots go on)."""
        ...

    @property
    def bot_delay(self) -> float: ...

    @property
    def hand_pause(self) -> float: ...

    @property
    def bot_pool(self) -> BotPool | None: ...

    def connected(self, seat: int) -> bool: ...

    def person_in_control(self, seat: int, now: float) -> bool: ...

    def people_seated(self) -> Sequence[int]: ...

    async def catch_up(self) -> None: ...

    async def catch_up_locked(self) -> None: ...

    async def finish(self) -> None: ...

    async def deal(self, lease: bool = False) -> None: ...

    async def commit(self, seat: int, action: Action, by: str, lease: bool = False) -> None: ...


class TableDriver:
    """The web table's side of the pacing loop (``dehla.play.driver.DrivenTable``): its clocks, its log, its bots."""

    def __init__(self, table: DrivenTable) -> None:
        self.table = table
        self.driver = MatchDriver(self)
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self.driver.run(), name=f"table-{self.table.table_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    # -- when ---------------------------------------------------------------------------------------

    def person_due(self, seat: int, now: float = 0.0) -> float | None:
        """When the turn timer or the grace time plays for a person's seat (monotonic time), if either applies."""
        table = self.table
        times = []
        if table.timer:
            # the turn timer starts once a just-finished trick has been shown
            started = table.turn_started + (table.trick_pause if table.finished_trick_shown else 0.0)
            times.append(started + table.timer)
        if not table.connected(seat):
            left = table.disconnected_at.get(seat, table.turn_started)
            times.append(left + table.grace)
        return min(times) if times else None

    def deadline(self, now: float) -> float | None:
        """Seconds until the turn timer (or the grace time) plays for the seat to act, if either applies."""
        table = self.table
        match = table.match
        if match is None or match.to_act is None or table.status != "playing":
            return None
        seat = match.to_act
        if not table.person_in_control(seat, now):
            return None
        due = self.person_due(seat)
        return None if due is None else max(0.0, round(due - now, 1))

    def held_until(self, now: float) -> float | None:
        """A finished trick is shown for the trick pause before bots go on (people may play meanwhile)."""
        table = self.table
        if not table.finished_trick_shown:
            return None
        until = table.trick_ended + table.trick_pause
        return until if until > now else None

    def people_waited_for(self, now: float) -> bool:
        table = self.table
        return any(table.person_in_control(seat, now) and seat not in table.ready for seat in table.people_seated())

    # -- the table, as the driver sees it -----------------------------------------------------------

    @property
    def changed(self) -> asyncio.Event:
        return self.table.changed

    @property
    def lock(self) -> asyncio.Lock:
        return self.table.lock

    @property
    def match(self) -> Match | None:
        return self.table.match

    @property
    def playing(self) -> bool:
        return self.table.status == "playing"

    @property
    def done(self) -> bool:
        return False  # a table outlives its matches: the driver runs until it is stopped or loses the lease

    @property
    def version(self) -> int:
        return self.table.seq

    @property
    def turn_started(self) -> float:
        return self.table.turn_started

    @property
    def hand_ended(self) -> float:
        return self.table.hand_ended

    @property
    def bot_delay(self) -> float:
        return self.table.bot_delay

    @property
    def hand_pause(self) -> float:
        return self.table.hand_pause

    def person_in_control(self, seat: int, now: float) -> bool:
        return self.table.person_in_control(seat, now)

    def let_go(self) -> None:
        pass  # the finished trick stays on the table until the next card; only its pause holds the bots

    # -- what ---------------------------------------------------------------------------------------

    async def refresh(self) -> None:
        if self.table.behind:
            await self.table.catch_up_locked()

    async def deal(self) -> None:
        await self.table.deal(lease=True)

    async def commit(self, seat: int, action: Action, by: str) -> None:
        await self.table.commit(seat, action, by, lease=True)

    async def finish(self) -> None:
        await self.table.finish()

    async def think(self, seat: int, observation: Observation) -> Action:
        """The seat's bot decides; a bot that fails or answers an illegal action is replaced by a random legal one."""
        table = self.table
        bot = table.bots[seat]
        name, seed = table.seats[seat].bot, table.bot_seeds.get(seat, 0)
        legal = observation.legal_actions
        try:
            action = await self._think(seat, bot, name, seed, observation)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random legal action", table.table_id, name)
            return table.rng.choice(legal)
        if action not in legal:
            log.error("table %s: bot %s chose illegal %s", table.table_id, name, action)
            return table.rng.choice(legal)
        return action

    async def _think(self, seat: int, bot: Bot, name: str, seed: int, observation: Observation) -> Action:
        """A search bot thinks in the server's worker pool; a quick bot in a thread of this process."""
        pool = self.table.bot_pool
        if pool is not None and pool.thinks(name):
            return await pool.act(f"{self.table.table_id}:{seat}:{name}:{seed}", name, seed, observation)
        return await asyncio.to_thread(bot.act, observation)

    async def step_failed(self, error: Exception) -> bool:
        table = self.table
        if isinstance(error, LeaseLost):
            log.info("table %s: another process runs it now", table.table_id)
            return False
        if isinstance(error, StaleLog):
            await table.catch_up()  # a person's action on another process came first: decide again
            return True
        log.exception("table %s: automatic step failed", table.table_id, exc_info=error)
        await asyncio.sleep(1.0)
        return True
