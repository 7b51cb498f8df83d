"""Where tables live: one small async interface, SQLite (default) and PostgreSQL behind it.

The event log of a table is the truth.  Each table has a row of metadata (rules,
seats, options, status) and an append-only log of entries: ``match`` (a match
starts, with its first dealer), ``deal`` (the cards of a hand) and ``act`` (a
seat's accepted decision).  A table is rebuilt by folding the engine over its
log, so restarting the server resumes every unfinished table.

``append`` returns only once the entry is committed: the table service calls it
before it applies and broadcasts an action, so an accepted action survives the
server being killed.  SQLite runs in WAL mode with ``synchronous=NORMAL``: a
committed transaction survives the process dying at any moment (it is in the
WAL, which the OS holds); ``?sync=full`` in the URL also makes it survive a power
cut, at the price of an fsync per action.
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
    """SQLite in WAL mode; one connection used from the event loop (each call is a short local transaction)."""

    def __init__(self, path: str | Path, synchronous: str = "NORMAL") -> None:
        self.path = str(path)
        self.synchronous = synchronous
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise DehlaError("the storage is not open")
        return self._db

    async def open(self) -> None:
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={self.synchronous}")
            for statement in _SCHEMA:
                self._db.execute(statement)
        except sqlite3.Error as error:
            raise DehlaError(f"cannot open the SQLite database {self.path!r}: {error}") from None

    async def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def create_table(self, row: TableRow) -> None:
        self.db.execute("INSERT INTO tables (id, created, meta) VALUES (?, ?, ?)", (row.table_id, row.created,
                                                                                   _dumps(row.meta)))

    async def update_table(self, table_id: str, meta: dict[str, Any]) -> None:
        self.db.execute("UPDATE tables SET meta = ? WHERE id = ?", (_dumps(meta), table_id))

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        self.db.execute("INSERT INTO log (table_id, seq, entry) VALUES (?, ?, ?)", (table_id, seq, _dumps(entry)))

    async def load_tables(self) -> list[TableRow]:
        rows = self.db.execute("SELECT id, created, meta FROM tables ORDER BY created").fetchall()
        return [TableRow(table_id, json.loads(meta), created) for table_id, created, meta in rows]

    async def load_log(self, table_id: str) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT entry FROM log WHERE table_id = ? ORDER BY seq", (table_id,)).fetchall()
        return [json.loads(entry) for (entry,) in rows]

    async def save_finished(self, finished: FinishedMatch) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO finished (table_id, match_no, finished, summary, record) VALUES (?, ?, ?, ?, ?)",
            (finished.table_id, finished.match_no, finished.finished, _dumps(finished.summary),
             _dumps(finished.record)),
        )

    async def list_finished(self, limit: int = 100) -> list[FinishedMatch]:
        rows = self.db.execute(
            "SELECT table_id, match_no, finished, summary, '{}' FROM finished ORDER BY finished DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_finished(row) for row in rows]

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None:
        row = self.db.execute(
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
        return SQLiteStorage(DEFAULT_DB)
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    synchronous = "NORMAL"
    path = url
    if url.startswith("sqlite:"):
        # sqlite:///relative/path or sqlite:////absolute/path (the SQLAlchemy convention), ?sync=normal|full
        if not url.startswith("sqlite:///"):
            raise DehlaError("a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path")
        path, _, query = url[len("sqlite:///"):].partition("?")
        sync = parse_qs(query).get("sync", ["normal"])[0].upper()
        if sync not in ("NORMAL", "FULL"):
            raise DehlaError(f"sqlite sync must be 'normal' or 'full', not {sync.lower()!r}")
        synchronous = sync
    elif "://" in url:
        scheme = url.split("://", 1)[0]
        raise DehlaError(f"--db {scheme}://... is not supported; use a file path, sqlite:///PATH or postgresql://...")
    if not path:
        raise DehlaError("--db names no file")
    return SQLiteStorage(path, synchronous)
