"""The solver's analysis of finished matches, for the web replay: one hand at a time, in worker processes, cached.

Solving is CPU work measured in seconds, so it never runs in the server's
process: each request runs ``analyse_record`` for one hand in a worker of a
small process pool (one worker unless told otherwise, so that analysis never
starves the tables in play of the machine's cores), and the answer is kept for
the next viewer.  While a hand is being analysed, ``progress`` tells how many of
its decisions are done (the worker reports each one through a queue).  The
analysis is the same as ``dehla analyse``'s with this node limit and its time
budget a hand: from trick 2 every decision is answered (at least whether it costs
the hand; its tens where the budget allows), and a trick-1 decision too big for the
limit or for what is left of the hand's budget is reported as not solved, with the learned value's
estimate beside it (``"estimate": {"exact": false, ...}``), which the page shows
as an estimate and never counts with the exact findings.  On a fresh install the
worker first waits for the solver's kernel to be compiled aside, and ``progress``
says so (``preparing``) rather than showing no progress for a minute or two.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import queue
import threading
from collections import OrderedDict, deque
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypedDict

from dehla.analysis.render import HandReply, hand_reply
from dehla.web.botpool import follow_parent
from dehla.web.messages import WebError, register

__all__ = ["AnalysisService", "AnalysisProgress", "WEB_NODE_LIMIT", "PER_ASKER", "MAX_WAITING", "SECONDS_A_HAND"]

#: Search nodes per position for a full value (about a second at most on one core); bigger ones get the result.
WEB_NODE_LIMIT = 1_000_000
#: Analyses one player (or one address, without a player) may have waiting or running at once; hands waiting or
#: running in all; the time a hand takes, about (the analysis's budget, docs/solver.md), to say when to come back.
PER_ASKER = 2
MAX_WAITING = 8
SECONDS_A_HAND = 10.0

register({"analysis_busy": "The server is busy analysing other hands; try again in {n} seconds."})

Key = tuple[str, int, int]

_progress_queue: Any = None  # in a worker: where to report progress (set by ``_worker_start``)


class AnalysisProgress(TypedDict):
    """How far the analysis of one hand is: ``preparing`` while its worker waits for the solver's first compile."""

    done: int
    total: int
    preparing: bool


@dataclass
class _Job:
    """A hand to analyse, the requests waiting for it and who asked first."""

    key: Key
    record: Mapping[str, object]
    asker: str
    future: asyncio.Future[HandReply]
    waiting: int = 0
    started: bool = False
    askers: set[str] = field(default_factory=set)


class AnalysisService:
    """Analyses of finished hands, keyed by (table, match, hand), the most recent ``keep`` kept in memory.

    Hands are analysed one after another in a worker process (``workers`` at a time), in the order asked.  Nobody
    can fill the queue: an asker (a player, or an address) may have ``per_asker`` hands waiting or running, and at
    most ``max_waiting`` hands wait or run in all; past either, a request is refused at once (``analysis_busy``,
    HTTP 429 with the seconds to wait).  A hand nobody waits for any more (every page that asked has gone) is
    dropped before it starts.
    """

    def __init__(
        self,
        node_limit: int = WEB_NODE_LIMIT,
        keep: int = 64,
        workers: int = 1,
        per_asker: int = PER_ASKER,
        max_waiting: int = MAX_WAITING,
    ) -> None:
        self.node_limit = node_limit
        self.keep = keep
        self.workers = workers
        self.per_asker = per_asker
        self.max_waiting = max_waiting
        self._done: OrderedDict[Key, HandReply] = OrderedDict()
        self._jobs: dict[Key, _Job] = {}
        self._waiting: deque[_Job] = deque()
        self._running = 0
        self._progress: dict[Key, AnalysisProgress] = {}
        self._executor: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._drain: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def progress(self, table_id: str, match_no: int, hand: int) -> AnalysisProgress | None:
        """How far the analysis of a hand being analysed now is, else ``None``."""
        return self._progress.get((table_id, match_no, hand))

    def busy_seconds(self) -> int:
        """About how long until the queue has room again, in whole seconds."""
        ahead = len(self._waiting) + self._running
        return max(1, math.ceil(ahead * SECONDS_A_HAND / max(1, self.workers)))

    async def hand(
        self, table_id: str, match_no: int, record: Mapping[str, object], hand: int, asker: str = ""
    ) -> HandReply:
        """The analysis of hand ``hand`` (0-based) of a finished match's record, as JSON.

        Refused with ``WebError("analysis_busy")`` when ``asker`` already waits for ``per_asker`` hands or the
        queue is full; cancelling the call (the page went away) drops the hand if nobody else waits for it.
        """
        key = (table_id, match_no, hand)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        job = self._jobs.get(key)
        if job is None:
            mine = sum(1 for item in self._jobs.values() if asker in item.askers)
            if mine >= self.per_asker or len(self._jobs) >= self.max_waiting:
                raise WebError("analysis_busy", "busy", n=self.busy_seconds())
            job = self._jobs[key] = _Job(key, record, asker, asyncio.get_running_loop().create_future())
            self._waiting.append(job)
            self._start_next()
        job.askers.add(asker)
        job.waiting += 1
        try:
            return await asyncio.shield(job.future)
        finally:
            job.waiting -= 1
            if not job.waiting and not job.started and not job.future.done():
                # every page that asked for it has gone: it never starts
                self._waiting.remove(job)
                del self._jobs[key]
                job.future.cancel()

    def _start_next(self) -> None:
        while self._running < self.workers and self._waiting:
            job = self._waiting.popleft()
            job.started = True
            self._running += 1
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: _Job) -> None:
        key = job.key
        self._progress[key] = {"done": 0, "total": 0, "preparing": False}
        try:
            result = await self._compute(key, job.record)
        except BaseException as error:
            job.future.set_exception(error)
            job.future.exception()  # marks it retrieved: the waiters (if any) get it, nobody is warned
            if isinstance(error, asyncio.CancelledError):
                raise
        else:
            job.future.set_result(result)
            self._done[key] = result
            while len(self._done) > self.keep:
                self._done.popitem(last=False)
        finally:
            del self._jobs[key]
            self._progress.pop(key, None)
            self._running -= 1
            self._start_next()

    async def _compute(self, key: Key, record: Mapping[str, object]) -> HandReply:
        """Analyse one hand in a worker process."""
        executor = self._pool()
        self._start_drain()
        try:
            return await asyncio.get_running_loop().run_in_executor(
                executor, _analyse_hand, record, key[2], self.node_limit, key
            )
        except BrokenProcessPool:
            self._executor = None  # a worker died (killed, out of memory): the next request starts a fresh pool
            raise

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: the server's process holds an event loop, sockets and database connections
            context = multiprocessing.get_context("spawn")
            self._queue = context.Queue()
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_worker_start, initargs=(self._queue,)
            )
        return self._executor

    def _start_drain(self) -> None:
        """Read the workers' progress reports in a thread while any analysis runs."""
        if self._drain is None or self._drain.done():
            self._drain = asyncio.get_running_loop().create_task(self._read_progress())

    async def _read_progress(self) -> None:
        source = self._queue
        while self._running:
            try:
                key, done, total, preparing = await asyncio.to_thread(source.get, True, 0.2)
            except queue.Empty:
                continue
            if key in self._progress:
                self._progress[key] = {"done": done, "total": total, "preparing": preparing}

    def close(self) -> None:
        """Stop the workers (an analysis in progress is abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _worker_start(progress: Any) -> None:
    """In a worker: keep the progress queue, and load the solver's kernel (or start its compile aside) at once."""
    global _progress_queue
    _progress_queue = progress
    threading.Thread(target=follow_parent, name="follow-parent", daemon=True).start()
    from dehla.solver.warm import warm_up

    warm_up()


def _analyse_hand(record: Mapping[str, object], hand: int, node_limit: int, key: Key) -> HandReply:
    from dehla.analysis.record import analyse_record  # the solver is loaded in the workers only
    from dehla.solver.warm import warm_up

    def report(done: int, total: int, preparing: bool = False) -> None:
        if _progress_queue is not None:
            _progress_queue.put((key, done, total, preparing))

    if not warm_up():  # a fresh install: the kernel is being compiled aside; say so while waiting for it
        report(0, 0, preparing=True)
        warm_up(wait=True)

    return hand_reply(analyse_record(record, node_limit=node_limit, hands={hand}, progress=report), hand, node_limit)
