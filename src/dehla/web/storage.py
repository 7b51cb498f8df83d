"""Where tables live: one small async interface, SQLite (default) and PostgreSQL behind it.

The event log of a table is the truth.  Each table has a row of metadata (rules,
seats, options, status) and an append-only log of entries: ``match`` (a match
starts, with its first dealer), ``deal`` (the cards of a hand) and ``act`` (a
seat's accepted decision).  A table is rebuilt by folding the engine over its
log, so restarting the server resumes every unfinished table.

``append`` returns only once the entry is committed: the table service calls it
before it applies and broadcasts an action, so an accepted action survives the
server being killed.  SQLite runs in WAL mode with ``synchronous=FULL``: each
commit is synced to the disk before ``append`` returns, so an accepted action
survives a power cut, not only the process dying.  ``?sync=normal`` in the URL
trades that for speed (a committed transaction then survives the process dying,
since the WAL is in the OS's hands, but not the machine losing power).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs

from dehla.errors import DehlaError

__all__ = ["Storage", "TableRow", "FinishedMatch", "SQLiteStorage", "PostgresStorage", "open_storage", "DEFAULT_DB"]

#: The database used when ``--db`` is not given: a SQLite file in the working directory.
DEFAULT_DB = "dehla-web.sqlite3"


@dataclass
class TableRow:
    """A table's metadata as stored: everything but the log."""

    table_id: str
    meta: dict[str, Any]
    created: float = field(default_factory=time.time)


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match kept for history, replay and download."""

    table_id: str
    match_no: int
    finished: float
    summary: dict[str, Any]
    record: dict[str, Any]


class Storage(Protocol):
    """The storage interface the table service needs; every write is committed when it returns."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_table(self, row: TableRow) -> None: ...

    async def update_table(self, table_id: str, meta: dict[str, Any]) -> None: ...

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Add log entry ``seq`` (0, 1, 2, ...) of a table; fails if ``seq`` is already taken."""
        ...

    async def load_tables(self) -> list[TableRow]: ...

    async def load_log(self, table_id: str) -> list[dict[str, Any]]: ...

    async def save_finished(self, finished: FinishedMatch) -> None: ...

    async def list_finished(self, limit: int = 100) -> list[FinishedMatch]: ...

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None: ...


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, meta TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS log (table_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, "
    "PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS finished (table_id TEXT NOT NULL, match_no INTEGER NOT NULL, "
    "finished DOUBLE PRECISION NOT NULL, summary TEXT NOT NULL, record TEXT NOT NULL, "
    "PRIMARY KEY (table_id, match_no))",
)


class SQLiteStorage:
    """SQLite in WAL mode: writes are group-committed in a worker thread, reads use a connection of their own.

    With ``synchronous=FULL`` every commit waits for the disk (an fsync, a few
    milliseconds).  Done on the event loop, one commit per action would stall
    every table while it waits; so each write is queued, and a worker thread
    commits everything queued so far in one transaction (one fsync for the lot)
    while the loop goes on.  A write returns only once its transaction is
    committed, so an accepted action is still durable before it is applied.
    """

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        self.path = str(path)
        self.synchronous = synchronous
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._queue: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
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
            for statement in _SCHEMA:
                self._db.execute(statement)
            self._reader = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise DehlaError(f"cannot open the SQLite database {self.path!r}: {error}") from None

    async def close(self) -> None:
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
        for connection in (self._reader, self._db):
            if connection is not None:
                connection.close()
        self._db = self._reader = None

    async def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """Queue one statement and wait until the transaction holding it is committed."""
        if self._db is None:
            raise DehlaError("the storage is not open")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((sql, params, done))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())
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

    def _commit(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[sqlite3.Error | None]:
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

    async def create_table(self, row: TableRow) -> None:
        await self._write("INSERT INTO tables (id, created, meta) VALUES (?, ?, ?)",
                          (row.table_id, row.created, _dumps(row.meta)))

    async def update_table(self, table_id: str, meta: dict[str, Any]) -> None:
        await self._write("UPDATE tables SET meta = ? WHERE id = ?", (_dumps(meta), table_id))

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        await self._write("INSERT INTO log (table_id, seq, entry) VALUES (?, ?, ?)", (table_id, seq, _dumps(entry)))

    async def load_tables(self) -> list[TableRow]:
        rows = self.reader.execute("SELECT id, created, meta FROM tables ORDER BY created").fetchall()
        return [TableRow(table_id, json.loads(meta), created) for table_id, created, meta in rows]

    async def load_log(self, table_id: str) -> list[dict[str, Any]]:
        rows = self.reader.execute("SELECT entry FROM log WHERE table_id = ? ORDER BY seq", (table_id,)).fetchall()
        return [json.loads(entry) for (entry,) in rows]

    async def save_finished(self, finished: FinishedMatch) -> None:
        await self._write(
            "INSERT OR REPLACE INTO finished (table_id, match_no, finished, summary, record) VALUES (?, ?, ?, ?, ?)",
            (finished.table_id, finished.match_no, finished.finished, _dumps(finished.summary),
             _dumps(finished.record)),
        )

    async def list_finished(self, limit: int = 100) -> list[FinishedMatch]:
        rows = self.reader.execute(
            "SELECT table_id, match_no, finished, summary, '{}' FROM finished ORDER BY finished DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_finished(row) for row in rows]

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None:
        row = self.reader.execute(
            "SELECT table_id, match_no, finished, summary, record FROM finished WHERE table_id = ? AND match_no = ?",
            (table_id, match_no),
        ).fetchone()
        return None if row is None else _finished(row)


def _finished(row: Any) -> FinishedMatch:
    table_id, match_no, finished, summary, record = row
    return FinishedMatch(table_id, int(match_no), float(finished), json.loads(summary), json.loads(record))


class PostgresStorage:
    """PostgreSQL through psycopg 3 (async, autocommit: each statement is its own committed transaction)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        try:
            import psycopg
        except ImportError:  # pragma: no cover - psycopg is a dependency of the web extra
            raise DehlaError("PostgreSQL needs psycopg: pip install 'psycopg[binary]'") from None
        try:
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            for statement in _SCHEMA:
                await self._conn.execute(statement)
        except psycopg.Error as error:
            raise DehlaError(f"cannot open the PostgreSQL database: {str(error).strip().splitlines()[0]}") from None

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self._conn is None:
            raise DehlaError("the storage is not open")
        async with self._lock:
            cursor = await self._conn.execute(sql, params)
            if cursor.description is None:
                return []
            rows: list[Any] = await cursor.fetchall()
            return rows

    async def create_table(self, row: TableRow) -> None:
        await self._execute("INSERT INTO tables (id, created, meta) VALUES (%s, %s, %s)",
                            (row.table_id, row.created, _dumps(row.meta)))

    async def update_table(self, table_id: str, meta: dict[str, Any]) -> None:
        await self._execute("UPDATE tables SET meta = %s WHERE id = %s", (_dumps(meta), table_id))

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        await self._execute("INSERT INTO log (table_id, seq, entry) VALUES (%s, %s, %s)", (table_id, seq,
                                                                                         _dumps(entry)))

    async def load_tables(self) -> list[TableRow]:
        rows = await self._execute("SELECT id, created, meta FROM tables ORDER BY created")
        return [TableRow(table_id, json.loads(meta), float(created)) for table_id, created, meta in rows]

    async def load_log(self, table_id: str) -> list[dict[str, Any]]:
        rows = await self._execute("SELECT entry FROM log WHERE table_id = %s ORDER BY seq", (table_id,))
        return [json.loads(entry) for (entry,) in rows]

    async def save_finished(self, finished: FinishedMatch) -> None:
        await self._execute(
            "INSERT INTO finished (table_id, match_no, finished, summary, record) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (table_id, match_no) DO UPDATE SET finished = EXCLUDED.finished, "
            "summary = EXCLUDED.summary, record = EXCLUDED.record",
            (finished.table_id, finished.match_no, finished.finished, _dumps(finished.summary),
             _dumps(finished.record)),
        )

    async def list_finished(self, limit: int = 100) -> list[FinishedMatch]:
        rows = await self._execute(
            "SELECT table_id, match_no, finished, summary, '{}' FROM finished ORDER BY finished DESC LIMIT %s",
            (limit,),
        )
        return [_finished(row) for row in rows]

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None:
        rows = await self._execute(
            "SELECT table_id, match_no, finished, summary, record FROM finished WHERE table_id = %s AND match_no = %s",
            (table_id, match_no),
        )
        return _finished(rows[0]) if rows else None


def open_storage(url: str | None) -> Storage:
    """The storage for a ``--db`` value: ``postgresql://...``, ``sqlite:///path``, or a file path (SQLite)."""
    if not url:
        return SQLiteStorage(DEFAULT_DB)  # durable across power loss (synchronous=FULL)
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    synchronous = "FULL"
    path = url
    if url.startswith("sqlite:"):
        # sqlite:///relative/path or sqlite:////absolute/path (the SQLAlchemy convention), ?sync=normal|full
        if not url.startswith("sqlite:///"):
            raise DehlaError("a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path")
        path, _, query = url[len("sqlite:///"):].partition("?")
        sync = parse_qs(query).get("sync", ["full"])[0].upper()
        if sync not in ("NORMAL", "FULL"):
            raise DehlaError(f"sqlite sync must be 'normal' or 'full', not {sync.lower()!r}")
        synchronous = sync
    elif "://" in url:
        scheme = url.split("://", 1)[0]
        raise DehlaError(f"--db {scheme}://... is not supported; use a file path, sqlite:///PATH or postgresql://...")
    if not path:
        raise DehlaError("--db names no file")
    return SQLiteStorage(path, synchronous)
