"""Many ``dehla serve`` processes on one PostgreSQL: heartbeats, the tables' leases, and LISTEN/NOTIFY.

PostgreSQL is the only meeting point; the processes never talk to each other
directly.  Each process (a *node*, with a random id for its life) does three
things here:

* **listens** on the database's channel: every log append sends
  ``{"k": "log", "t": TABLE, "s": SEQ, "e": ENTRY}`` once it is committed
  (``storage.postgres._APPEND``, then ``storage.connections.NOTIFY``), and the table service applies the entry
  to its copy (reading the log when one was missed); the other messages (presence, chat, reactions, "next hand", a seat
  taken in another window, a new table) are published with ``publish``;
* **beats**: every ``lease_seconds / 4`` it writes its heartbeat in ``nodes``;
  a node not heard from for ``lease_seconds`` is gone;
* **leases**: each table row names the node that runs its bots, timers and
  deals (``lease_owner``).  Every beat, a node takes the tables whose owner is
  gone (``FOR UPDATE SKIP LOCKED``: two nodes never take the same one) and
  runs exactly those it owns.  A driver's step is appended only while its node
  still owns the table (checked in the append's statement), so a node that
  stalled and lost its lease cannot make a move twice.

A node that stops cleanly releases its leases at once; one killed with
``kill -9`` loses them ``lease_seconds`` later, and the next beat of another
node takes them and continues from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Mapping
from typing import Any, Protocol

from dehla.web.storage import PostgresStorage

__all__ = ["Cluster", "ClusterHost", "DEFAULT_LEASE_SECONDS"]

log = logging.getLogger("dehla.web")

#: How long a node may stay silent before its tables are taken over.
DEFAULT_LEASE_SECONDS = 5.0


class ClusterHost(Protocol):
    """What the cluster drives: the table service of this process."""

    def hear(self, payload: dict[str, object]) -> None:
        """A message on the channel (from any node, this one included): a JSON object, not yet checked."""
        ...

    async def run_leases(self, held: set[str]) -> None:
        """Run the drivers of exactly these tables."""
        ...

    def forget_nodes(self, live: set[str]) -> None:
        """Only these nodes are alive: the windows the others held are gone."""
        ...

    def resync(self) -> None:
        """The channel was (re)connected: messages may have been missed, so catch up what is looked at."""
        ...


class Cluster:
    """This process as a node of the cluster: its id, its heartbeat and leases, and the channel."""

    def __init__(
        self,
        storage: PostgresStorage,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        node: str | None = None,
        address: str | None = None,
    ) -> None:
        self.storage = storage
        #: Where this process serves (``host:port pid N``), written beside its heartbeat.
        self.address = address
        self.lease_seconds = lease_seconds
        self.node = node or secrets.token_hex(6)
        self.live: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._host: ClusterHost | None = None
        self._listening = asyncio.Event()

    def publish(self, payload: Mapping[str, object]) -> None:
        """Send a message to every node (in order with the log's announcements, without waiting for it)."""
        self.storage.notify(payload)

    async def start(self, host: ClusterHost) -> None:
        """Listen, beat once and take this node's first tables, then keep beating in the background."""
        self._host = host
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(), name="cluster-listen")]
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):  # not wait_for, which can swallow a cancel (Python 3.11)
                await self._listening.wait()
        await self._beat()
        self._tasks.append(loop.create_task(self._beats(), name="cluster-beat"))

    async def stop(self) -> None:
        """Stop beating and release this node's tables, so that another node takes them at once."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        with contextlib.suppress(Exception):
            await self.storage.release(self.node)

    async def _beat(self) -> None:
        host = self._host
        assert host is not None
        self.live = await self.storage.heartbeat(self.node, self.lease_seconds, self.address)
        host.forget_nodes(self.live)
        await self.storage.take_leases(self.node, self.lease_seconds)
        await host.run_leases(await self.storage.leases_of(self.node))

    async def _beats(self) -> None:
        interval = max(0.2, self.lease_seconds / 4)
        while True:
            await asyncio.sleep(interval)
            try:
                await self._beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: heartbeat failed", self.node)

    async def _listen(self) -> None:
        host = self._host
        assert host is not None
        while True:
            connection: Any = None
            try:
                connection = await self.storage.connect_listener()
                if self._listening.is_set():
                    host.resync()
                self._listening.set()
                async for notice in connection.notifies():
                    try:
                        payload = json.loads(notice.payload)
                    except ValueError:
                        continue
                    if isinstance(payload, dict):
                        host.hear(payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: the channel was lost; listening again", self.node)
                await asyncio.sleep(1.0)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close()
