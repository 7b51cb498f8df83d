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

SQLite serves one process.  PostgreSQL is also the meeting point of many
processes (``shared``): ``append`` checks the table's version under its row lock
(and, for a bot's or timer's step, that this process still holds the table's
lease) in the same statement that inserts the entry, so two processes can never
both take one position of a log; once committed, the entry is announced with
``NOTIFY``.  ``dehla.web.cluster`` listens, keeps the leases and the processes'
heartbeats.

Here: which storage a ``--db`` value names.  What is stored and the interface are in ``model``, the SQL
both backends run in ``sql``.  The tables both backends store alike are written once, over the three ways of running
a statement each backend gives (``statements``): the tables' loads and finished matches in ``matches``, the players
in ``players``, reports, bans, blocks, friends and notices in ``social``, the queues in ``queue``, the daily duplicate
in ``daily``.  What differs (the log's append, row locks, leases, ``NOTIFY``) is in the backends, ``sqlite`` and
``postgres``; their schema versions in ``migrations``.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from dehla.errors import DehlaError
from dehla.web.storage.model import (
    DailyEntry,
    FinishedMatch,
    LeaseLost,
    QueueEntry,
    QueueKey,
    StaleLog,
    Storage,
    TableRow,
)
from dehla.web.storage.postgres import FORGET_AFTER, PostgresStorage
from dehla.web.storage.sqlite import SQLiteStorage

__all__ = [
    "Storage",
    "TableRow",
    "FinishedMatch",
    "DailyEntry",
    "QueueKey",
    "QueueEntry",
    "SQLiteStorage",
    "PostgresStorage",
    "open_storage",
    "DEFAULT_DB",
    "StaleLog",
    "LeaseLost",
    "is_shared",
    "FORGET_AFTER",
]

#: The database used when ``--db`` is not given: a SQLite file in the working directory.
DEFAULT_DB = "dehla-web.sqlite3"


def is_shared(storage: object) -> bool:
    """True for storage that other serving processes may write too (PostgreSQL)."""
    return bool(getattr(storage, "shared", False))


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
        path, _, query = url[len("sqlite:///") :].partition("?")
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
