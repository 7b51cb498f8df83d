"""PostgreSQL's connections for the storage: a small pool of autocommit connections, and the messages' sender.

``PostgresPool`` lends one connection at a time (a closed one is replaced: the database may have gone away and
come back).  ``Announcer`` sends the messages every listening process hears (``NOTIFY``), in order, in
batches, from a connection of its own with ``synchronous_commit`` off (a message needs no disk).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from dehla.errors import DehlaError
from dehla.web.storage.model import SQLParam

log = logging.getLogger("dehla.web")

#: Many messages in one statement: the appends of a batch, with its commit; the other messages (presence, chat)
#: from the announcer's connection.
NOTIFY = "SELECT pg_notify(%s, message) FROM unnest(%s::text[]) AS message"


async def connect(url: str) -> Any:
    """A new connection in autocommit (each statement its own transaction)."""
    import psycopg

    return await psycopg.AsyncConnection.connect(url, autocommit=True)


class PostgresPool:
    """A few connections, lent one at a time; ``add`` them, then ``start`` lending."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._free: asyncio.Queue[Any] | None = None
        self._all: list[Any] = []

    async def add(self) -> Any:
        """One more connection for the pool (returned, to be used before lending starts)."""
        connection = await connect(self.url)
        self._all.append(connection)
        return connection

    def start(self) -> None:
        self._free = asyncio.Queue()
        for connection in self._all:
            self._free.put_nowait(connection)

    async def close(self) -> None:
        for connection in self._all:
            with contextlib.suppress(Exception):
                await connection.close()
        self._all = []
        self._free = None

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        if self._free is None:
            raise DehlaError("the storage is not open")
        free = self._free
        connection = await free.get()
        try:
            if connection.closed:
                # the database went away and came back (or the connection was cut): a new one takes its place
                fresh = await connect(self.url)
                self._all = [fresh if item is connection else item for item in self._all]
                connection = fresh
            yield connection
        finally:
            free.put_nowait(connection)

    async def execute(self, sql: str, params: Sequence[SQLParam] | Mapping[str, object] = ()) -> list[Any]:
        """The rows of one statement (psycopg's rows: tuples of the columns' values)."""
        async with self.connection() as connection:
            cursor = await connection.execute(sql, params)
            if cursor.description is None:
                return []
            rows: list[Any] = await cursor.fetchall()
            return rows


class Announcer:
    """The messages for every listening process: queued at once, sent soon, in order, on ``channel``.

    A log append announces its entries in its own transaction (``PostgresStorage``'s group commit); it takes its
    ``turn`` first and sends the messages still waiting ahead of its entries (``take``), so that every process hears
    a message and an append in the order this one made them (a claim settled, then the claim's first card).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.channel = "dehla"
        #: Held while messages are being sent, here or by an append: one sender at a time keeps the order.
        self.turn = asyncio.Lock()
        self._waiting: list[str] = []
        self._queued = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None

    def put(self, payload: str) -> None:
        self._waiting.append(payload)
        self._queued.set()

    def take(self, limit: int | None = None) -> list[str]:
        """The messages waiting (the first ``limit`` of them), for a sender that holds the ``turn`` (they leave the
        queue)."""
        count = len(self._waiting) if limit is None else limit
        taken, self._waiting = self._waiting[:count], self._waiting[count:]
        if not self._waiting:
            self._queued.clear()
        return taken

    def put_back(self, payloads: list[str]) -> None:
        """Messages taken for a send that failed: first in the queue again."""
        if payloads:
            self._waiting[:0] = payloads
            self._queued.set()

    def start(self, channel: str) -> None:
        self.channel = channel
        self._sender = asyncio.get_running_loop().create_task(self._send(), name="postgres-notify")

    async def stop(self) -> None:
        if self._sender is None:
            return
        for _ in range(50):  # let the last messages leave (a clean stop announces its last moves)
            if not self._waiting and not self.turn.locked():
                break
            await asyncio.sleep(0.02)
        self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._sender
        self._sender = None

    async def _send(self) -> None:
        """Send the queued messages, in order, as many per transaction as are waiting."""
        import psycopg

        connection: Any = None
        while True:
            await self._queued.wait()
            async with self.turn:
                batch = self.take(500)
                if not batch:
                    continue  # an append took them
                for attempt in range(3):
                    try:
                        if connection is None or connection.closed:
                            connection = await connect(self.url)
                            await connection.execute("SET synchronous_commit = off")
                        await connection.execute(NOTIFY, (self.channel, batch))
                        break
                    except psycopg.Error:
                        log.exception(
                            "cannot send %d messages on %s (attempt %d)", len(batch), self.channel, attempt + 1
                        )
                        with contextlib.suppress(Exception):
                            await connection.close()
                        connection = None
                        await asyncio.sleep(0.2)
