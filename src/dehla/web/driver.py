"""A table's driver: everything that happens at a table without a person acting.

The deal, the bots' moves, a person's seat played by its stand-in bot after the
grace time, the turn timer, and the pauses between them (the bot delay, the
finished trick shown for the table's trick pause, the wait between hands until
every person is ready).  One task per table, on the process that holds the
table's lease; each step goes through the table's own ``commit`` (append to the
log, apply, broadcast), under the table's lock, like a person's action.  A bot
thinks outside the lock, off the event loop (a thread, or the search bots'
worker pool), and its move is dropped if the table moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Sequence
from typing import Protocol

from dehla.bots import Bot
from dehla.engine.actions import Action
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.web.botpool import BotPool
from dehla.web.seats import SeatInfo
from dehla.web.storage import LeaseLost, StaleLog

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
    """The automatic steps of one table, and when each is due."""

    def __init__(self, table: DrivenTable) -> None:
        self.table = table
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.table.table_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    # -- when ---------------------------------------------------------------------------------------

    def person_due(self, seat: int) -> float | None:
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

    def next_due(self) -> float | None:
        """When the next automatic step is due (monotonic time), or ``None`` to wait for a person.

        Bots and the deal wait until a finished trick has been shown for ``trick_pause``.
        """
        table = self.table
        match = table.match
        if match is None or table.status != "playing":
            return None
        now = time.monotonic()
        if match.is_over:
            return now
        shown = table.trick_ended + table.trick_pause if table.finished_trick_shown else 0.0
        if match.is_chance:
            if not match.results:
                return now
            waiting = [seat for seat in table.people_seated()
                       if table.person_in_control(seat, now) and seat not in table.ready]
            if not waiting:
                return max(table.hand_ended + table.bot_delay, shown)
            return max(table.hand_ended + table.hand_pause, shown)
        seat = match.to_act
        assert seat is not None
        if not table.person_in_control(seat, now):
            return max(table.turn_started + table.bot_delay, shown)
        return self.person_due(seat)

    # -- what ---------------------------------------------------------------------------------------

    async def _drive(self) -> None:
        table = self.table
        while True:
            try:
                due = self.next_due()
                now = time.monotonic()
                if due is not None and due <= now:
                    await self._automatic()
                    continue
                table.changed.clear()
                # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancel that comes just after
                # the event is set, and stop would then wait for this loop forever.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(None if due is None else due - now):
                        await table.changed.wait()
            except asyncio.CancelledError:
                raise
            except LeaseLost:
                log.info("table %s: another process runs it now", table.table_id)
                return
            except StaleLog:
                await table.catch_up()  # a person's action on another process came first: decide again
            except Exception:
                log.exception("table %s: automatic step failed", table.table_id)
                await asyncio.sleep(1.0)

    async def _automatic(self) -> None:
        table = self.table
        async with table.lock:
            if table.behind:
                await table.catch_up_locked()
            match = table.match
            due = self.next_due()
            if match is None or due is None or due > time.monotonic():
                return
            if match.is_over:
                if table.status == "playing":
                    await table.finish()
                return
            if match.is_chance:
                await table.deal(lease=True)
                return
            seat = match.to_act
            assert seat is not None
            version = table.seq
            observation = match.observe(seat)
            by = "timer" if table.person_in_control(seat, time.monotonic()) else "bot"
            bot = table.bots[seat]
            name, seed = table.seats[seat].bot, table.bot_seeds.get(seat, 0)
        try:
            action = await self._think(seat, bot, name, seed, observation)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random legal action", table.table_id, name)
            action = table.rng.choice(observation.legal_actions)
        async with table.lock:
            if table.seq != version or table.match is not match or match.to_act != seat:
                return  # a person acted meanwhile
            if not match.is_legal(action):
                log.error("table %s: bot %s chose illegal %s", table.table_id, name, action)
                action = table.rng.choice(match.legal_actions())
            await table.commit(seat, action, by, lease=True)

    async def _think(self, seat: int, bot: Bot, name: str, seed: int, observation: Observation) -> Action:
        """A search bot thinks in the server's worker pool; a quick bot in a thread of this process."""
        pool = self.table.bot_pool
        if pool is not None and pool.thinks(name):
            return await pool.act(f"{self.table.table_id}:{seat}:{name}:{seed}", name, seed, observation)
        return await asyncio.to_thread(bot.act, observation)
