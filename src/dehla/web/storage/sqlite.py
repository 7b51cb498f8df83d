"""SQLite storage: one process, WAL mode, writes group-committed in a worker thread."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dehla.errors import DehlaError
from dehla.web.storage.migrations import migrate
from dehla.web.storage.model import QueueKey, SQLParam, StaleLog, TableRow
from dehla.web.storage.players import rating_statements
from dehla.web.storage.queue import claim_statements, waiting_statement
from dehla.web.storage.shared import SharedTables
from dehla.web.storage.sql import dumps, pick_group
from dehla.web.storage.statements import Statement

log = logging.getLogger("dehla.web")


class SQLiteStorage(SharedTables):
    """SQLite in WAL mode: writes are group-committed in a worker thread, reads use a connection of their own.

    With ``synchronous=FULL`` every commit waits for the disk (an fsync, a few
    milliseconds).  Done on the event loop, one commit per action would stall
    every table while it waits; so each write is queued, and a worker thread
    commits everything queued so far in one transaction (one fsync for the lot)
    while the loop goes on.  A write returns only once its transaction is
    committed, so an accepted action is still durable before it is applied.
    """

    #: One process only: nothing else writes this file while the server runs.
    shared = False

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        self.path = str(path)
        self.synchronous = synchronous
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._queue: list[tuple[str, tuple[SQLParam, ...], asyncio.Future[None]]] = []
        self._flushing: asyncio.Task[None] | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """The writing connection (used by the worker thread, one transaction at a time)."""
        if self._db is None:
            raise DehlaError("the storage is not open")
        return self._db

    @property
    def reader(self) -> sqlite3.Connection:
        if self._reader is None:
            raise DehlaError("the storage is not open")
        return self._reader

    async def open(self) -> None:
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={self.synchronous}")
            await self._migrate(self._db)
            self._reader = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise DehlaError(f"cannot open the SQLite database {self.path!r}: {error}") from None

    async def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring the file's schema to this release's (``migrations``), in one transaction."""
        had_tables = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tables'").fetchone()

        async def run(sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
            return db.execute(sql, tuple(params)).fetchall()

        db.execute("BEGIN IMMEDIATE")
        try:
            before, after = await migrate(run, had_tables is not None)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        if before and before != after:
            log.info("database %s upgraded from schema version %d to %d", self.path, before, after)

    async def close(self) -> None:
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
        for connection in (self._reader, self._db):
            if connection is not None:
                connection.close()
        self._db = self._reader = None

    async def write_all(self, statements: Sequence[Statement]) -> None:
        """Queue statements together (so one transaction commits them all) and wait until it is committed."""
        if self._db is None:
            raise DehlaError("the storage is not open")
        loop = asyncio.get_running_loop()
        waits: list[asyncio.Future[None]] = []
        for sql, params in statements:
            done: asyncio.Future[None] = loop.create_future()
            self._queue.append((sql, params, done))
            waits.append(done)
        if self._flushing is None:
            self._flushing = loop.create_task(self._flush())
        for done in waits:
            await done

    async def _flush(self) -> None:
        """Commit what is queued, batch after batch, until the queue is empty."""
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                try:
                    outcomes = await asyncio.to_thread(self._commit, [(sql, params) for sql, params, _ in batch])
                except sqlite3.Error as error:
                    outcomes = [error] * len(batch)
                for (_, _, done), outcome in zip(batch, outcomes):
                    if done.done():
                        continue
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
        finally:
            self._flushing = None

    def _commit(self, statements: list[tuple[str, tuple[SQLParam, ...]]]) -> list[sqlite3.Error | None]:
        """In the worker thread: one transaction for the batch; a failing statement fails alone."""
        db = self.db
        outcomes: list[sqlite3.Error | None] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in statements:
                try:
                    db.execute(sql, params)
                    outcomes.append(None)
                except sqlite3.Error as error:
                    outcomes.append(error)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return outcomes

    async def create_table(self, row: TableRow, lease: str | None = None) -> None:
        await self.write(
            "INSERT INTO tables (id, created, meta) VALUES (?, ?, ?)", (row.table_id, row.created, dumps(row.meta))
        )

    async def append(self, table_id: str, seq: int, entry: Mapping[str, object], *, lease: str | None = None) -> None:
        # one process serves a SQLite file, so there is no lease to check; a taken position is refused by the key
        try:
            await self.write("INSERT INTO log (table_id, seq, entry) VALUES (?, ?, ?)", (table_id, seq, dumps(entry)))
        except sqlite3.IntegrityError:
            raise StaleLog(f"table {table_id}: log position {seq} is taken") from None

    async def save_ratings(
        self, table_id: str, match_no: int, family: str, updates: Mapping[str, tuple[str, float, float, int]], at: float
    ) -> bool:
        # one process serves a SQLite file: the check and the write cannot interleave with another process
        if self.reader.execute(
            "SELECT 1 FROM rated_matches WHERE table_id = ? AND match_no = ?", (table_id, match_no)
        ).fetchone():
            return False
        marked: Statement = ("INSERT INTO rated_matches (table_id, match_no) VALUES (?, ?)", (table_id, match_no))
        await self.write_all([marked, *rating_statements(family, updates, at)])
        return True

    async def unban(self, player: str) -> bool:
        found = self.reader.execute("SELECT 1 FROM bans WHERE player = ?", (player,)).fetchone() is not None
        await self.write("DELETE FROM bans WHERE player = ?", (player,))
        return found

    async def queue_claim(
        self, key: QueueKey, count: int, table_id: str, only: str | None = None
    ) -> list[tuple[str, str]]:
        # one process serves a SQLite file, and nothing between the read and the write below gives the loop away (the
        # blocks are read on the reading connection at once) but the write
        rows = self.reader.execute(*waiting_statement(key, count)).fetchall()
        waiting = [(str(player), str(name)) for player, name in rows]
        players = pick_group(waiting, await self.blocks_among([player for player, _ in waiting]), count, only)
        if not players:
            return []
        await self.write_all(claim_statements(table_id, players))
        return players

    # -- how a statement runs, for the tables written once for both backends (``statements``; ``write_all`` above) --

    async def read(self, sql: str, params: tuple[SQLParam, ...]) -> list[Sequence[Any]]:
        """The rows of one query, from the reading connection (every write that has returned is committed)."""
        return self.reader.execute(sql, params).fetchall()

    async def write(self, sql: str, params: tuple[SQLParam, ...]) -> None:
        """One statement, group-committed with whatever else is queued."""
        await self.write_all([(sql, params)])
