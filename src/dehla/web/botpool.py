"""Search bots think in worker processes: one pool, sized by a setting, shared by every table of a server.

A search bot (``hard``, ``expert``) spends its budget of CPU seconds on each
move and keeps a solver's transposition table.  In the server's own process it
would share the interpreter lock with every table's messages, and each table's
bots would keep their own tables.  Here a table sends the seat's observation
(its JSON, the same form a bot program receives) to the pool and awaits the
action's text; each worker keeps the last few bots it used (an LRU keyed by
table, seat, bot and seed), so the memory follows the pool's size, not the
number of tables.  A bot is rebuilt from its name and seed when it has been
dropped: nothing a search bot learns outlives a move but its solver cache.

Quick bots (``random``, ``heuristic``) still answer in the server's process: a
round trip to a worker would cost more than their move.

The workers run at a lower scheduling priority (``BOT_NICENESS``): when cores
are few, a table's messages take the CPU first and the bots think in what is
left.  A search bot's budget is CPU time, so it plays the same moves, only
later on a busy machine.

``SolverPreparation`` compiles the solver's kernel into numba's cache in a
separate process when the server starts (a fresh install has no cache), so that
neither the first search move nor the first analysis waits for a compiler; the
pages say so while it runs.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from dehla.bots import Bot, bot_info, make_bot
from dehla.engine.actions import Action, parse_action
from dehla.engine.observe import Observation
from dehla.engine.observe_json import observation_from_json

__all__ = ["BOT_NICENESS", "BotPool", "SolverPreparation", "warm_up_solver", "follow_parent", "DEFAULT_BOTS_PER_WORKER"]

log = logging.getLogger("dehla.web")

#: How many bots (each with its solver's table) a worker keeps between moves.
DEFAULT_BOTS_PER_WORKER = 4

#: How much a bot worker lowers its priority (``os.nice``): enough that the server's
#: process wins a contested core, while an idle core still goes to the bots.
BOT_NICENESS = 10

_kept: OrderedDict[str, Bot] = OrderedDict()
_capacity = DEFAULT_BOTS_PER_WORKER


def warm_up_solver() -> None:
    """Compile the solver's kernel before the first move, when the solver offers it (``dehla.solver.warm_up``).

    The hook a worker runs at start, so that the first search bot's move does not
    wait for numba; without ``warm_up`` the kernel compiles on its first use.
    """
    import dehla.solver

    warm = getattr(dehla.solver, "warm_up", None)
    if callable(warm):
        warm()


class SolverPreparation:
    """The solver's kernel put into numba's cache by a process of its own, started with the server.

    The process (``python -m dehla.solver.warm --aside``) ends at once when the
    cache is complete, compiles it when it is not (a minute or two, at the bot
    workers' lower priority), and waits when another process is compiling it; ``preparing`` is
    true while it runs.  It is left to finish if the server stops first, so the
    next start finds the cache.
    """

    COMMAND: tuple[str, ...] = (sys.executable, "-m", "dehla.solver.warm", "--aside")

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.command = tuple(command) if command is not None else self.COMMAND
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process (once); a failure to start only means the first search waits for the compile."""
        if self._process is not None:
            return
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:  # pragma: no cover - no interpreter to run (a frozen build?): the kernel compiles on first use
            log.exception("the solver's kernel could not be prepared aside")
            return
        # reaped as soon as it ends (else it stays a zombie until someone asks whether it is preparing)
        threading.Thread(target=self._process.wait, name="solver-preparation", daemon=True).start()

    @property
    def pid(self) -> int | None:
        """The preparing process's id, once started."""
        return None if self._process is None else self._process.pid

    @property
    def preparing(self) -> bool:
        """True while the kernel is being compiled (or waited for) aside."""
        return self._process is not None and self._process.poll() is None


def follow_parent() -> None:
    """End this worker when the server that started it is gone (killed, or exited before it said goodbye).

    A pool's workers otherwise wait for their next task for ever after a
    ``kill -9`` of the server, each holding its solver's memory.
    """
    parent = os.getppid()
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_start(capacity: int, niceness: int) -> None:
    global _capacity
    _capacity = capacity
    if niceness > 0 and hasattr(os, "nice"):
        os.nice(niceness)
    threading.Thread(target=follow_parent, name="follow-parent", daemon=True).start()
    try:
        warm_up_solver()
    except Exception:  # pragma: no cover - a failed warm-up only makes the first move slower
        log.exception("the solver's warm-up failed in a bot worker")


def _worker_act(key: str, name: str, seed: int, data: object) -> str:
    """In a worker: the kept bot for ``key`` (or a new one), asked for its action on the observation."""
    bot = _kept.pop(key, None)
    if bot is None:
        bot = make_bot(name, seed)
    _kept[key] = bot
    while len(_kept) > _capacity:
        _kept.popitem(last=False)
    return str(bot.act(observation_from_json(data)))


class BotPool:
    """Worker processes for the search bots of every table of this server (started at the first search move)."""

    def __init__(
        self, workers: int, bots_per_worker: int = DEFAULT_BOTS_PER_WORKER, niceness: int = BOT_NICENESS
    ) -> None:
        self.workers = workers
        self.bots_per_worker = bots_per_worker
        self.niceness = niceness
        self._executor: ProcessPoolExecutor | None = None

    def thinks(self, name: str) -> bool:
        """True for a bot that searches (it moves in a worker); quick bots answer in the server's process."""
        return self.workers > 0 and bot_info(name).uses_solver

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: the server's process holds an event loop, sockets and database connections
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(self.bots_per_worker, self.niceness),
            )
        return self._executor

    async def act(self, key: str, name: str, seed: int, observation: Observation) -> Action:
        """The bot's action for the observation, decided in a worker (the caller's loop goes on meanwhile)."""
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(self._pool(), _worker_act, key, name, seed, observation.to_json())
        except BrokenProcessPool:
            # a worker died (killed, out of memory): the next move starts a fresh pool
            self._executor = None
            raise
        return parse_action(text)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
