"""The solver's analysis of finished matches, for the web replay: one hand at a time, cached, one solve at a time.

Solving is CPU work measured in seconds, so it never runs on the event loop:
each request runs ``analyse_record`` for one hand in a worker thread, at most
one at a time (so that analysis never starves the tables in play), and the
answer is kept for the next viewer.  Positions too big to solve within the
node limit are reported as not solved, as ``dehla analyse`` does.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

__all__ = ["AnalysisService", "WEB_NODE_LIMIT"]

#: Search nodes per position for the web (about a second at most on one core): bigger positions are not solved.
WEB_NODE_LIMIT = 1_000_000


class AnalysisService:
    """Analyses of finished hands, keyed by (table, match, hand), the most recent ``keep`` kept in memory."""

    def __init__(self, node_limit: int = WEB_NODE_LIMIT, keep: int = 64) -> None:
        self.node_limit = node_limit
        self.keep = keep
        self._done: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, int, int], asyncio.Future[dict[str, Any]]] = {}
        self._one_at_a_time = asyncio.Semaphore(1)

    async def hand(self, table_id: str, match_no: int, record: dict[str, Any], hand: int) -> dict[str, Any]:
        """The analysis of hand ``hand`` (0-based) of a finished match's record, as JSON."""
        key = (table_id, match_no, hand)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is not None:  # someone asked first: share the answer
            return await asyncio.shield(running)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            async with self._one_at_a_time:
                result = await asyncio.to_thread(_analyse_hand, record, hand, self.node_limit)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # marks it retrieved: the waiters (if any) get it, nobody is warned
            raise
        finally:
            del self._running[key]
        future.set_result(result)
        self._done[key] = result
        while len(self._done) > self.keep:
            self._done.popitem(last=False)
        return result


def _analyse_hand(record: dict[str, Any], hand: int, node_limit: int) -> dict[str, Any]:
    from dehla.solver.analysis import analyse_record  # loads the solver (and numba) on first use only

    analysis = analyse_record(record, node_limit=node_limit, hands={hand}).to_json()
    hands = analysis["hands"]
    return {
        "format": analysis["format"],
        "hand": hands[0] if hands else {"hand": hand, "decisions": [], "start": None},
        "seats": analysis["seats"],
        "node_limit": node_limit,
    }
