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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypedDict
from urllib.parse import parse_qs

from dehla.errors import DehlaError
from dehla.web.migrations import migrate

log = logging.getLogger("dehla.web")

__all__ = ["Storage", "TableRow", "FinishedMatch", "QueueKey", "QueueEntry", "SQLiteStorage", "PostgresStorage",
           "open_storage", "DEFAULT_DB", "StaleLog", "LeaseLost", "is_shared"]

#: The database used when ``--db`` is not given: a SQLite file in the working directory.
DEFAULT_DB = "dehla-web.sqlite3"


class StaleLog(DehlaError):
    """The log has moved on: another process appended at this position first (catch up, then decide again)."""


class LeaseLost(DehlaError):
    """A bot's or timer's step from a process that no longer holds the table's lease (another runs it now)."""


#: A value bound to a statement's placeholder.
SQLParam = str | int | float | None


@dataclass
class TableRow:
    """A table's metadata as stored: everything but the log.

    ``meta`` is JSON written by ``TableSession.meta`` and read back as it is in the database (``schema.read_meta``
    checks it), so here it is any JSON value.
    """

    table_id: str
    meta: object
    created: float = field(default_factory=time.time)


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match kept for history, replay and download: its summary and its ``dehla-record/1`` record.

    Both are JSON objects written by the table session (``schema.MatchSummary``, ``record.RecordJSON``); read back,
    they are objects as stored (``replay`` checks a record).
    """

    table_id: str
    match_no: int
    finished: float
    summary: Mapping[str, object]
    record: Mapping[str, object]
    #: Who may see it (``dehla.web.visibility``): everyone if its table was listed throughout the match, else the
    #: table's players and the holders of one of its links (the links' token hashes).
    listed: bool = False
    players: tuple[str, ...] = ()
    hashes: tuple[str, ...] = ()
    #: The seat each player held when the match ended (a player who had left by then has none).
    seats: tuple[tuple[str, int], ...] = ()


class Storage(Protocol):
    """The storage interface the table service needs; every write is committed when it returns."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_table(self, row: TableRow, lease: str | None = None) -> None:
        """A new table's row; ``lease``: the node that runs it (shared storage only)."""
        ...

    async def update_table(self, table_id: str, meta: Mapping[str, object]) -> None: ...

    async def append(self, table_id: str, seq: int, entry: Mapping[str, object], *, lease: str | None = None) -> None:
        """Add log entry ``seq`` (0, 1, 2, ...) of a table; ``StaleLog`` if ``seq`` is not the next position.

        With ``lease`` (a process's node id) the entry is refused with ``LeaseLost``
        unless that process holds the table's lease (shared storage only).
        """
        ...

    async def load_tables(self) -> list[TableRow]: ...

    async def load_table(self, table_id: str) -> TableRow | None: ...

    async def load_log(self, table_id: str, since: int = 0) -> list[object]:
        """The entries from position ``since`` on, as stored (``log.upgrade_entry`` checks each)."""
        ...

    async def save_finished(self, finished: FinishedMatch) -> None:
        """Keep a finished match (again: the same match saved twice is kept once, as last saved)."""
        ...

    async def list_finished(self, player: str | None = None, limit: int = 100) -> list[FinishedMatch]:
        """The newest finished matches ``player`` may see: those of listed tables and those ``player`` played
        (without their records)."""
        ...

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None: ...

    async def finished_numbers(self, table_id: str) -> set[int]:
        """The numbers of a table's matches kept as finished."""
        ...

    async def player_matches(self, player: str, limit: int = 500) -> list[tuple[FinishedMatch, int | None]]:
        """The newest finished matches ``player`` played, with their records and the seat they held."""
        ...

    async def secret(self, name: str) -> str:
        """A random secret of this database, made on first use and the same for every process (cookie signing)."""
        ...

    async def player_name(self, player: str) -> str | None:
        """The display name a player chose, if any."""
        ...

    async def set_player_name(self, player: str, name: str) -> None: ...

    async def delete_player(self, player: str) -> None:
        """Forget a player: their name, ratings and which finished matches were theirs (the records keep the names
        people played under, as every record of a card game does)."""
        ...

    async def ratings(self, family: str, players: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        """The players' ratings in a family: mu, sigma and rated matches (a player never rated is missing)."""
        ...

    async def save_ratings(self, table_id: str, match_no: int, family: str,
                           updates: Mapping[str, tuple[str, float, float, int]], at: float) -> bool:
        """Keep the new ratings a match gave (player -> name, mu, sigma, matches) and their history; False (and
        nothing kept) if that match was rated already."""
        ...

    async def leaderboard(self, family: str, limit: int = 50) -> list[tuple[str, str, float, float, int]]:
        """A family's rated players, best first by mu - 3 sigma: player, name, mu, sigma, matches."""
        ...

    async def rating_history(self, player: str) -> list[tuple[str, float, float, float]]:
        """A player's ratings over time: family, when, mu, sigma, oldest first."""
        ...

    async def report(self, table_id: str, reporter: str, player: str | None, name: str, text: str) -> None:
        """Someone reported a chat line (the line, who said it and who reported it are kept for the admins)."""
        ...

    async def reports(self, limit: int = 100) -> list[tuple[str, float, str, str, str | None, str, str]]:
        """The newest reports: id, when, table, reporter, reported player, name, text."""
        ...

    async def ban(self, player: str, reason: str) -> None: ...

    async def unban(self, player: str) -> bool: ...

    async def bans(self) -> list[tuple[str, float, str]]: ...

    async def banned(self, player: str) -> bool: ...

    async def block(self, player: str, blocked: str, name: str) -> None: ...

    async def unblock(self, player: str, blocked: str) -> None: ...

    async def blocked_by(self, player: str) -> dict[str, str]:
        """The players ``player`` blocked, with the names they were blocked under."""
        ...

    async def blocks_among(self, players: Sequence[str]) -> set[tuple[str, str]]:
        """The blocks between these players, as (blocker, blocked)."""
        ...

    async def follow(self, player: str, friend: str, name: str) -> None: ...

    async def unfollow(self, player: str, friend: str) -> None: ...

    async def friends(self, player: str) -> list[tuple[str, str, float | None]]:
        """The players ``player`` follows: id, the name they were followed under, when last seen (if ever)."""
        ...

    async def saw(self, player: str, at: float) -> None:
        """``player`` was here (a socket at a table, the lobby) at ``at``."""
        ...

    async def notify_player(self, player: str, table_id: str, seat: int, sender: str) -> None:
        """A notice for ``player``'s lobby: ``sender`` invites them to ``seat`` of ``table_id``."""
        ...

    async def notices(self, player: str) -> list[tuple[str, float, str, int, str]]:
        """A player's notices, newest first: id, when, table, seat, who sent it."""
        ...

    async def dismiss(self, player: str, notice: str) -> None: ...

    async def add_passkey(self, credential: str, player: str, public_key: str, sign_count: int) -> None:
        """A passkey (its credential id and public key, base64url) that signs in as ``player``."""
        ...

    async def passkey(self, credential: str) -> tuple[str, str, int] | None:
        """A passkey's player, public key and sign count."""
        ...

    async def passkey_used(self, credential: str, sign_count: int) -> None: ...

    async def passkeys_of(self, player: str) -> list[str]:
        """The credential ids of a player's passkeys."""
        ...

    async def queue_join(self, player: str, name: str, key: QueueKey, since: float) -> None:
        """The player waits in the queue ``key`` (leaving any other); a new wait starts now."""
        ...

    async def queue_leave(self, player: str) -> None: ...

    async def queue_entry(self, player: str) -> QueueEntry | None:
        """Where the player is in the queue: waiting (no table yet), or seated at a table the queue made."""
        ...

    async def queue_counts(self) -> list[tuple[QueueKey, int]]:
        """How many wait in each queue (not yet seated)."""
        ...

    async def queue_claim(self, key: QueueKey, count: int, table_id: str,
                          only: str | None = None) -> list[tuple[str, str]]:
        """Take the ``count`` longest waiting players of ``key`` (all of them up to ``count`` if ``only`` names one
        of them) for the table ``table_id``: their (player, name), in the order they came; none if fewer wait (or
        ``only`` does not).  Claimed players wait for no other table."""
        ...

    async def queue_seat(self, table_id: str, seats: Mapping[str, int | None]) -> None:
        """The table the players were claimed for exists: each one's seat (``None``: it could not be made, they wait
        again)."""
        ...


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _object(text: str, what: str) -> dict[str, object]:
    """A stored JSON object (a finished match's summary or record)."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise DehlaError(f"the stored {what} is not a JSON object")
    return value


def _access(finished: FinishedMatch) -> str:
    return _dumps({"players": list(finished.players), "hashes": list(finished.hashes)})


#: The columns of ``finished`` a ``FinishedMatch`` is read from (``_finished``); ``_LISTING`` leaves out the record.
_FINISHED_COLUMNS = "table_id, match_no, finished, summary, record, listed, access"
_LISTING_COLUMNS = "table_id, match_no, finished, summary, '{}', listed, access"
#: The finished matches a player may see in the history: listed ones and their own (``?``: player, player, limit).
_VISIBLE = ("SELECT " + _LISTING_COLUMNS + " FROM finished WHERE listed OR EXISTS (SELECT 1 FROM finished_players p "
            "WHERE p.table_id = finished.table_id AND p.match_no = finished.match_no AND p.player = ?) "
            "ORDER BY finished DESC LIMIT ?")
#: Where a player's rows are, for forgetting them.
_PLAYER_ROWS = (("players", "id"), ("finished_players", "player"), ("ratings", "player"),
                ("rating_history", "player"), ("queue", "player"), ("passkeys", "player"), ("blocks", "player"),
                ("friends", "player"), ("seen", "player"), ("notices", "player"))
_FOLLOW = "INSERT INTO friends (player, friend, name) VALUES (?, ?, ?) ON CONFLICT (player, friend) DO NOTHING"
_FRIENDS = ("SELECT f.friend, f.name, s.at FROM friends f LEFT JOIN seen s ON s.player = f.friend "
            "WHERE f.player = ? ORDER BY f.name")
_SAW = "INSERT INTO seen (player, at) VALUES (?, ?) ON CONFLICT (player) DO UPDATE SET at = EXCLUDED.at"
_NOTICE = "INSERT INTO notices (id, player, at, table_id, seat, sender) VALUES (?, ?, ?, ?, ?, ?)"
_NOTICES = "SELECT id, at, table_id, seat, sender FROM notices WHERE player = ? ORDER BY at DESC LIMIT 20"


def _friend_row(row: Sequence[Any]) -> tuple[str, str, float | None]:
    return str(row[0]), str(row[1]), None if row[2] is None else float(row[2])


def _notice_row(row: Sequence[Any]) -> tuple[str, float, str, int, str]:
    return str(row[0]), float(row[1]), str(row[2]), int(row[3]), str(row[4])


_REPORT = "INSERT INTO reports (id, at, table_id, reporter, player, name, text) VALUES (?, ?, ?, ?, ?, ?, ?)"
_REPORTS = "SELECT id, at, table_id, reporter, player, name, text FROM reports ORDER BY at DESC LIMIT ?"
_BAN = ("INSERT INTO bans (player, at, reason) VALUES (?, ?, ?) "
        "ON CONFLICT (player) DO UPDATE SET reason = EXCLUDED.reason")
_BANS = "SELECT player, at, reason FROM bans ORDER BY at"
_BLOCK = "INSERT INTO blocks (player, blocked, name) VALUES (?, ?, ?) ON CONFLICT (player, blocked) DO NOTHING"


def _report_row(row: Sequence[Any]) -> tuple[str, float, str, str, str | None, str, str]:
    number, at, table_id, reporter, player, name, text = row
    return (str(number), float(at), str(table_id), str(reporter), None if player is None else str(player), str(name),
            str(text))


_ADD_PASSKEY = "INSERT INTO passkeys (id, player, public_key, sign_count, created) VALUES (?, ?, ?, ?, ?)"
_PASSKEY = "SELECT player, public_key, sign_count FROM passkeys WHERE id = ?"
_QUEUE_JOIN = "INSERT INTO queue (player, name, preset, target, rated, since) VALUES (?, ?, ?, ?, ?, ?)"
_QUEUE_ENTRY = "SELECT preset, target, rated, since, table_id, seat FROM queue WHERE player = ?"
_QUEUE_COUNTS = ("SELECT preset, target, rated, count(*) FROM queue WHERE table_id IS NULL "
                 "GROUP BY preset, target, rated")
_QUEUE_WAITING = ("SELECT player, name FROM queue WHERE preset = ? AND target = ? AND rated = ? AND table_id IS NULL "
                  "ORDER BY since LIMIT ?")


#: How many of the longest waiting a queue looks at to find a group without blocks (per seat to fill).
CANDIDATES = 4


def pick_group(waiting: Sequence[tuple[str, str]], blocks: set[tuple[str, str]], count: int,
               only: str | None) -> list[tuple[str, str]]:
    """The first ``count`` of ``waiting`` (in order) with no block between any two of them; with ``only``: a group
    around that player of at most ``count`` (bots fill the rest).  Empty if there is none."""
    apart = {frozenset(pair) for pair in blocks}
    group: list[tuple[str, str]] = []
    if only is not None:
        group = [item for item in waiting if item[0] == only]
        if not group:
            return []
    for item in waiting:
        if len(group) == count:
            break
        if item in group or any(frozenset((item[0], other)) in apart for other, _ in group):
            continue
        group.append(item)
    if only is None and len(group) < count:
        return []
    return sorted(group, key=waiting.index)


@dataclass(frozen=True)
class QueueKey:
    """One queue of "Find a game": a preset, the match's target, rated or casual."""

    preset: str
    target: int
    rated: bool


@dataclass(frozen=True)
class QueueEntry:
    key: QueueKey
    since: float
    table_id: str | None
    seat: int | None


def _queue_entry(row: Sequence[Any]) -> QueueEntry:
    preset, target, rated, since, table_id, seat = row
    return QueueEntry(QueueKey(str(preset), int(target), bool(rated)), float(since),
                      None if table_id is None else str(table_id), None if seat is None else int(seat))


def _queue_seat_statement(table_id: str, player: str, seat: int | None) -> tuple[str, tuple[SQLParam, ...]]:
    if seat is None:
        return "UPDATE queue SET table_id = NULL WHERE player = ? AND table_id = ?", (player, table_id)
    return "UPDATE queue SET seat = ? WHERE player = ? AND table_id = ?", (seat, player, table_id)
_RATING = "SELECT player, mu, sigma, matches FROM ratings WHERE player = ? AND family = ?"
_SET_RATING = ("INSERT INTO ratings (player, family, name, mu, sigma, matches) VALUES (?, ?, ?, ?, ?, ?) "
               "ON CONFLICT (player, family) DO UPDATE SET name = EXCLUDED.name, mu = EXCLUDED.mu, "
               "sigma = EXCLUDED.sigma, matches = EXCLUDED.matches")
_RATING_HISTORY = "INSERT INTO rating_history (player, family, at, mu, sigma) VALUES (?, ?, ?, ?, ?)"
_LEADERBOARD = ("SELECT player, name, mu, sigma, matches FROM ratings WHERE family = ? "
                "ORDER BY mu - 3 * sigma DESC LIMIT ?")
_HISTORY_OF = "SELECT family, at, mu, sigma FROM rating_history WHERE player = ? ORDER BY at"
#: A player's display name, made or changed (``?``: id, name, now).
_SET_NAME = ("INSERT INTO players (id, name, created) VALUES (?, ?, ?) "
             "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name")
#: The matches a player played, with their records and the seat they held (``?``: player, limit).
_PLAYERS_MATCHES = ("SELECT f.table_id, f.match_no, f.finished, f.summary, f.record, f.listed, f.access, p.seat "
                    "FROM finished f JOIN finished_players p ON p.table_id = f.table_id AND p.match_no = f.match_no "
                    "WHERE p.player = ? ORDER BY f.finished DESC LIMIT ?")


class SQLiteStorage:
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

    async def _write(self, sql: str, params: tuple[SQLParam, ...]) -> None:
        """Queue one statement and wait until the transaction holding it is committed."""
        if self._db is None:
            raise DehlaError("the storage is not open")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((sql, params, done))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())
        await done

    async def _write_all(self, statements: list[tuple[str, tuple[SQLParam, ...]]]) -> None:
        """Queue several statements together (so one transaction commits them all) and wait for them."""
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
        await self._write("INSERT INTO tables (id, created, meta) VALUES (?, ?, ?)",
                          (row.table_id, row.created, _dumps(row.meta)))

    async def update_table(self, table_id: str, meta: Mapping[str, object]) -> None:
        await self._write("UPDATE tables SET meta = ? WHERE id = ?", (_dumps(meta), table_id))

    async def append(self, table_id: str, seq: int, entry: Mapping[str, object], *, lease: str | None = None) -> None:
        # one process serves a SQLite file, so there is no lease to check; a taken position is refused by the key
        try:
            await self._write("INSERT INTO log (table_id, seq, entry) VALUES (?, ?, ?)",
                              (table_id, seq, _dumps(entry)))
        except sqlite3.IntegrityError:
            raise StaleLog(f"table {table_id}: log position {seq} is taken") from None

    async def load_tables(self) -> list[TableRow]:
        rows = self.reader.execute("SELECT id, created, meta FROM tables ORDER BY created").fetchall()
        return [TableRow(table_id, json.loads(meta), created) for table_id, created, meta in rows]

    async def load_table(self, table_id: str) -> TableRow | None:
        row = self.reader.execute("SELECT id, created, meta FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else TableRow(row[0], json.loads(row[2]), row[1])

    async def load_log(self, table_id: str, since: int = 0) -> list[object]:
        rows = self.reader.execute("SELECT entry FROM log WHERE table_id = ? AND seq >= ? ORDER BY seq",
                                   (table_id, since)).fetchall()
        return [json.loads(entry) for (entry,) in rows]

    async def save_finished(self, finished: FinishedMatch) -> None:
        key = (finished.table_id, finished.match_no)
        statements: list[tuple[str, tuple[SQLParam, ...]]] = [
            ("INSERT OR REPLACE INTO finished (table_id, match_no, finished, summary, record, listed, access) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)",
             (*key, finished.finished, _dumps(finished.summary), _dumps(finished.record), finished.listed,
              _access(finished))),
            ("DELETE FROM finished_players WHERE table_id = ? AND match_no = ?", key),
        ]
        seats = dict(finished.seats)
        statements += [("INSERT INTO finished_players (table_id, match_no, player, seat) VALUES (?, ?, ?, ?)",
                        (*key, player, seats.get(player))) for player in sorted(set(finished.players))]
        await self._write_all(statements)

    async def list_finished(self, player: str | None = None, limit: int = 100) -> list[FinishedMatch]:
        rows = self.reader.execute(_VISIBLE, (player, limit)).fetchall()
        return [_finished(row) for row in rows]

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None:
        row = self.reader.execute(
            f"SELECT {_FINISHED_COLUMNS} FROM finished WHERE table_id = ? AND match_no = ?", (table_id, match_no),
        ).fetchone()
        return None if row is None else _finished(row)

    async def finished_numbers(self, table_id: str) -> set[int]:
        rows = self.reader.execute("SELECT match_no FROM finished WHERE table_id = ?", (table_id,)).fetchall()
        return {int(row[0]) for row in rows}

    async def player_matches(self, player: str, limit: int = 500) -> list[tuple[FinishedMatch, int | None]]:
        rows = self.reader.execute(_PLAYERS_MATCHES, (player, limit)).fetchall()
        return [(_finished(row[:-1]), None if row[-1] is None else int(row[-1])) for row in rows]

    async def secret(self, name: str) -> str:
        await self._write("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)",
                          (name, secrets.token_urlsafe(32)))
        row = self.reader.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        return str(row[0])

    async def player_name(self, player: str) -> str | None:
        row = self.reader.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
        return None if row is None else str(row[0])

    async def set_player_name(self, player: str, name: str) -> None:
        await self._write(_SET_NAME, (player, name, time.time()))

    async def delete_player(self, player: str) -> None:
        await self._write_all([(f"DELETE FROM {table} WHERE {column} = ?", (player,))
                               for table, column in _PLAYER_ROWS])

    async def ratings(self, family: str, players: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        rows = [self.reader.execute(_RATING, (player, family)).fetchone() for player in players]
        return {str(row[0]): (float(row[1]), float(row[2]), int(row[3])) for row in rows if row is not None}

    async def save_ratings(self, table_id: str, match_no: int, family: str,
                           updates: Mapping[str, tuple[str, float, float, int]], at: float) -> bool:
        # one process serves a SQLite file: the check and the write cannot interleave with another process
        if self.reader.execute("SELECT 1 FROM rated_matches WHERE table_id = ? AND match_no = ?",
                               (table_id, match_no)).fetchone():
            return False
        statements: list[tuple[str, tuple[SQLParam, ...]]] = [
            ("INSERT INTO rated_matches (table_id, match_no) VALUES (?, ?)", (table_id, match_no))]
        for player, (name, mu, sigma, matches) in updates.items():
            statements.append((_SET_RATING, (player, family, name, mu, sigma, matches)))
            statements.append((_RATING_HISTORY, (player, family, at, mu, sigma)))
        await self._write_all(statements)
        return True

    async def leaderboard(self, family: str, limit: int = 50) -> list[tuple[str, str, float, float, int]]:
        rows = self.reader.execute(_LEADERBOARD, (family, limit)).fetchall()
        return [(str(a), str(b), float(c), float(d), int(e)) for a, b, c, d, e in rows]

    async def rating_history(self, player: str) -> list[tuple[str, float, float, float]]:
        rows = self.reader.execute(_HISTORY_OF, (player,)).fetchall()
        return [(str(a), float(b), float(c), float(d)) for a, b, c, d in rows]

    async def report(self, table_id: str, reporter: str, player: str | None, name: str, text: str) -> None:
        await self._write(_REPORT, (secrets.token_hex(6), time.time(), table_id, reporter, player, name, text))

    async def reports(self, limit: int = 100) -> list[tuple[str, float, str, str, str | None, str, str]]:
        return [_report_row(row) for row in self.reader.execute(_REPORTS, (limit,)).fetchall()]

    async def ban(self, player: str, reason: str) -> None:
        await self._write(_BAN, (player, time.time(), reason))

    async def unban(self, player: str) -> bool:
        found = self.reader.execute("SELECT 1 FROM bans WHERE player = ?", (player,)).fetchone() is not None
        await self._write("DELETE FROM bans WHERE player = ?", (player,))
        return found

    async def bans(self) -> list[tuple[str, float, str]]:
        return [(str(a), float(b), str(c)) for a, b, c in self.reader.execute(_BANS).fetchall()]

    async def banned(self, player: str) -> bool:
        return self.reader.execute("SELECT 1 FROM bans WHERE player = ?", (player,)).fetchone() is not None

    async def block(self, player: str, blocked: str, name: str) -> None:
        await self._write(_BLOCK, (player, blocked, name))

    async def unblock(self, player: str, blocked: str) -> None:
        await self._write("DELETE FROM blocks WHERE player = ? AND blocked = ?", (player, blocked))

    async def blocked_by(self, player: str) -> dict[str, str]:
        rows = self.reader.execute("SELECT blocked, name FROM blocks WHERE player = ?", (player,)).fetchall()
        return {str(blocked): str(name) for blocked, name in rows}

    async def blocks_among(self, players: Sequence[str]) -> set[tuple[str, str]]:
        if not players:
            return set()
        marks = ", ".join("?" * len(players))
        rows = self.reader.execute(f"SELECT player, blocked FROM blocks WHERE player IN ({marks}) AND blocked IN "
                                   f"({marks})", (*players, *players)).fetchall()
        return {(str(a), str(b)) for a, b in rows}

    async def follow(self, player: str, friend: str, name: str) -> None:
        await self._write(_FOLLOW, (player, friend, name))

    async def unfollow(self, player: str, friend: str) -> None:
        await self._write("DELETE FROM friends WHERE player = ? AND friend = ?", (player, friend))

    async def friends(self, player: str) -> list[tuple[str, str, float | None]]:
        return [_friend_row(row) for row in self.reader.execute(_FRIENDS, (player,)).fetchall()]

    async def saw(self, player: str, at: float) -> None:
        await self._write(_SAW, (player, at))

    async def notify_player(self, player: str, table_id: str, seat: int, sender: str) -> None:
        await self._write(_NOTICE, (secrets.token_hex(6), player, time.time(), table_id, seat, sender))

    async def notices(self, player: str) -> list[tuple[str, float, str, int, str]]:
        return [_notice_row(row) for row in self.reader.execute(_NOTICES, (player,)).fetchall()]

    async def dismiss(self, player: str, notice: str) -> None:
        await self._write("DELETE FROM notices WHERE player = ? AND id = ?", (player, notice))

    async def add_passkey(self, credential: str, player: str, public_key: str, sign_count: int) -> None:
        await self._write(_ADD_PASSKEY, (credential, player, public_key, sign_count, time.time()))

    async def passkey(self, credential: str) -> tuple[str, str, int] | None:
        row = self.reader.execute(_PASSKEY, (credential,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), int(row[2]))

    async def passkey_used(self, credential: str, sign_count: int) -> None:
        await self._write("UPDATE passkeys SET sign_count = ? WHERE id = ?", (sign_count, credential))

    async def passkeys_of(self, player: str) -> list[str]:
        return [str(row[0]) for row in self.reader.execute("SELECT id FROM passkeys WHERE player = ?", (player,))]

    async def queue_join(self, player: str, name: str, key: QueueKey, since: float) -> None:
        await self._write_all([("DELETE FROM queue WHERE player = ?", (player,)),
                               (_QUEUE_JOIN, (player, name, key.preset, key.target, key.rated, since))])

    async def queue_leave(self, player: str) -> None:
        await self._write("DELETE FROM queue WHERE player = ?", (player,))

    async def queue_entry(self, player: str) -> QueueEntry | None:
        row = self.reader.execute(_QUEUE_ENTRY, (player,)).fetchone()
        return None if row is None else _queue_entry(row)

    async def queue_counts(self) -> list[tuple[QueueKey, int]]:
        rows = self.reader.execute(_QUEUE_COUNTS).fetchall()
        return [(QueueKey(str(preset), int(target), bool(rated)), int(n)) for preset, target, rated, n in rows]

    async def queue_claim(self, key: QueueKey, count: int, table_id: str,
                          only: str | None = None) -> list[tuple[str, str]]:
        # one process serves a SQLite file, and nothing awaits between the read and the write below but the write
        rows = self.reader.execute(_QUEUE_WAITING, (key.preset, key.target, key.rated, count * CANDIDATES)).fetchall()
        waiting = [(str(player), str(name)) for player, name in rows]
        players = pick_group(waiting, await self.blocks_among([player for player, _ in waiting]), count, only)
        if not players:
            return []
        await self._write_all([("UPDATE queue SET table_id = ? WHERE player = ?", (table_id, player))
                               for player, _ in players])
        return players

    async def queue_seat(self, table_id: str, seats: Mapping[str, int | None]) -> None:
        await self._write_all([_queue_seat_statement(table_id, player, seat) for player, seat in seats.items()])


def _finished(row: Sequence[object]) -> FinishedMatch:
    table_id, match_no, finished, summary, record, listed, access = row
    if not (isinstance(table_id, str) and isinstance(match_no, int) and isinstance(finished, int | float)
            and isinstance(summary, str) and isinstance(record, str) and isinstance(access, str)):
        raise DehlaError(f"a row of finished matches is not what the server writes: {str(row)[:80]}")
    who = _object(access, "access")
    players, hashes = who.get("players", []), who.get("hashes", [])
    return FinishedMatch(table_id, match_no, float(finished), _object(summary, "summary"), _object(record, "record"),
                         bool(listed), tuple(str(item) for item in players) if isinstance(players, list) else (),
                         tuple(str(item) for item in hashes) if isinstance(hashes, list) else ())


_PG_SCHEMA = (
    # the version of each table (how many log entries it has) and which process runs its bots and timers
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS seq INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS lease_owner TEXT",
    "CREATE INDEX IF NOT EXISTS tables_lease_owner ON tables (lease_owner)",
    # every serving process, with its last heartbeat (the database's clock, so the processes' clocks never matter)
    "CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, started TIMESTAMPTZ NOT NULL DEFAULT now(), "
    "seen TIMESTAMPTZ NOT NULL DEFAULT now())",
    # where each process serves (host:port and pid), so that whoever holds a lease can be found
    "ALTER TABLE nodes ADD COLUMN IF NOT EXISTS address TEXT",
    # tables written before the version column: their version is their log's length
    "UPDATE tables SET seq = counted.n FROM (SELECT table_id, max(seq) + 1 AS n FROM log GROUP BY table_id) AS counted "
    "WHERE tables.id = counted.table_id AND tables.seq < counted.n",
)

#: One statement, so one round trip and one transaction: lock the table's row if it is at version ``seq`` (and, for
#: a bot's or timer's step, leased to the caller), insert the entry and move the version on.  A second process at
#: the same version waits for the row lock, then finds the version moved on: no row, no insert.
_APPEND = """
WITH t AS (
    SELECT id FROM tables WHERE id = %(id)s AND seq = %(seq)s
        AND (%(lease)s::text IS NULL OR lease_owner = %(lease)s::text)
    FOR UPDATE),
ins AS (INSERT INTO log (table_id, seq, entry) SELECT id, %(seq)s, %(entry)s FROM t RETURNING seq),
up AS (UPDATE tables SET seq = ins.seq + 1 FROM ins WHERE tables.id = %(id)s RETURNING tables.id)
SELECT 1 FROM up
"""

#: Many messages in one statement: the appends of a batch, with its commit; the other messages (presence, chat)
#: from a connection of their own with ``synchronous_commit`` off (a message needs no disk).
_NOTIFY = "SELECT pg_notify(%s, message) FROM unnest(%s::text[]) AS message"

#: How many leases' time a silent process stays in ``nodes`` (to be found by an operator) before it is forgotten.
FORGET_AFTER = 12

#: The tables nobody live runs (their lease holder stopped sending heartbeats, or never had one), taken in a batch.
_TAKE = """
UPDATE tables SET lease_owner = %(node)s WHERE id IN (
    SELECT id FROM tables WHERE lease_owner IS NULL OR lease_owner NOT IN (
        SELECT id FROM nodes WHERE seen > now() - make_interval(secs => %(ttl)s))
    ORDER BY created LIMIT %(limit)s FOR UPDATE SKIP LOCKED)
RETURNING id
"""


class _AppendParams(TypedDict):
    """The parameters of ``_APPEND``."""

    id: str
    seq: int
    lease: str | None
    entry: str


class PostgresStorage:
    """PostgreSQL through psycopg 3: a few pooled connections in autocommit (each statement its own transaction).

    Any number of serving processes may share one database: every log append is
    version-checked under the table's row lock (``_APPEND``) and, once committed,
    announced with ``NOTIFY`` on a channel named after the schema (servers on
    different schemas of one database never hear each other).  Messages leave in
    order through one connection of their own, in batches (``_notifier``).
    """

    #: Other processes may write the same tables: the table service keeps its copies in step with the log.
    shared = True

    def __init__(self, url: str, pool_size: int = 4) -> None:
        self.url = url
        self.pool_size = pool_size
        self.channel = "dehla"
        self._free: asyncio.Queue[Any] | None = None
        self._all: list[Any] = []
        self._messages: asyncio.Queue[str] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._appends: list[tuple[_AppendParams, str, asyncio.Future[bool]]] = []
        self._flushing: asyncio.Task[None] | None = None

    async def open(self) -> None:
        try:
            import psycopg
        except ImportError:  # pragma: no cover - psycopg is a dependency of the web extra
            raise DehlaError("PostgreSQL needs psycopg: pip install 'psycopg[binary]'") from None
        try:
            first = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self._all = [first]
            # many processes may start at once: one of them creates the schema while the others wait
            async with first.transaction():
                await first.execute("SELECT pg_advisory_xact_lock(727274)")
                cursor = await first.execute("SELECT to_regclass('tables') IS NOT NULL")
                found = await cursor.fetchone()

                async def run(sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
                    cursor = await first.execute(sql.replace("?", "%s"), tuple(params))
                    return [] if cursor.description is None else list(await cursor.fetchall())

                before, after = await migrate(run, bool(found and found[0]), _PG_SCHEMA)
            if before and before != after:
                log.info("database upgraded from schema version %d to %d", before, after)
            cursor = await first.execute("SELECT current_schema()")
            row = await cursor.fetchone()
            schema = str(row[0]) if row else "public"
            self.channel = "dehla_" + "".join(char if char.isalnum() else "_" for char in schema)[:50]
            for _ in range(self.pool_size - 1):
                self._all.append(await psycopg.AsyncConnection.connect(self.url, autocommit=True))
        except psycopg.Error as error:
            await self.close()
            raise DehlaError(f"cannot open the PostgreSQL database: {str(error).strip().splitlines()[0]}") from None
        self._free = asyncio.Queue()
        for connection in self._all:
            self._free.put_nowait(connection)
        self._sender = asyncio.get_running_loop().create_task(self._notifier(), name="postgres-notify")

    async def _notifier(self) -> None:
        """Send the queued messages, in order, as many per transaction as are waiting."""
        import psycopg

        connection: Any = None
        while True:
            batch = [await self._messages.get()]
            while not self._messages.empty() and len(batch) < 500:
                batch.append(self._messages.get_nowait())
            for attempt in range(3):
                try:
                    if connection is None or connection.closed:
                        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                        await connection.execute("SET synchronous_commit = off")
                    await connection.execute(_NOTIFY, (self.channel, batch))
                    break
                except psycopg.Error:
                    log.exception("cannot send %d messages on %s (attempt %d)", len(batch), self.channel, attempt + 1)
                    with contextlib.suppress(Exception):
                        await connection.close()
                    connection = None
                    await asyncio.sleep(0.2)

    async def close(self) -> None:
        if self._flushing is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._flushing)
        if self._sender is not None:
            for _ in range(50):  # let the last messages leave (a clean stop announces its last moves)
                if self._messages.empty():
                    break
                await asyncio.sleep(0.02)
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
            self._sender = None
        for connection in self._all:
            with contextlib.suppress(Exception):
                await connection.close()
        self._all = []
        self._free = None

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        if self._free is None:
            raise DehlaError("the storage is not open")
        free = self._free
        connection = await free.get()
        try:
            if connection.closed:
                # the database went away and came back (or the connection was cut): a new one takes its place
                import psycopg

                fresh = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                self._all = [fresh if item is connection else item for item in self._all]
                connection = fresh
            yield connection
        finally:
            free.put_nowait(connection)

    async def _execute(self, sql: str, params: Sequence[SQLParam] | Mapping[str, object] = ()) -> list[Any]:
        """The rows of one statement (psycopg's rows: tuples of the columns' values)."""
        async with self._connection() as connection:
            cursor = await connection.execute(sql, params)
            if cursor.description is None:
                return []
            rows: list[Any] = await cursor.fetchall()
            return rows

    async def connect_listener(self) -> Any:
        """A connection of its own that LISTENs on this database's channel (``dehla.web.cluster`` reads it)."""
        import psycopg

        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await connection.execute(f'LISTEN "{self.channel}"')
        return connection

    def notify(self, payload: Mapping[str, object]) -> None:
        """Queue a message for every listening process (sent soon, in order, after what was queued before)."""
        self._messages.put_nowait(_dumps(payload))

    def notify_text(self, payload: str) -> None:
        self._messages.put_nowait(payload)

    async def create_table(self, row: TableRow, lease: str | None = None) -> None:
        await self._execute("INSERT INTO tables (id, created, meta, lease_owner) VALUES (%s, %s, %s, %s)",
                            (row.table_id, row.created, _dumps(row.meta), lease))

    async def update_table(self, table_id: str, meta: Mapping[str, object]) -> None:
        await self._execute("UPDATE tables SET meta = %s WHERE id = %s", (_dumps(meta), table_id))

    async def append(self, table_id: str, seq: int, entry: Mapping[str, object], *, lease: str | None = None) -> None:
        text = _dumps(entry)
        # the entry rides on the NOTIFY (at most 8000 bytes), so the other processes need not read it back
        payload = _dumps({"k": "log", "t": table_id, "s": seq, "e": entry})
        if len(payload.encode()) > 7900:
            payload = _dumps({"k": "log", "t": table_id, "s": seq})
        params: _AppendParams = {"id": table_id, "seq": seq, "lease": lease, "entry": text}
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._appends.append((params, payload, done))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())
        if await done:
            return
        rows = await self._execute("SELECT seq, lease_owner FROM tables WHERE id = %s", (table_id,))
        if lease is not None and rows and rows[0][1] != lease:
            raise LeaseLost(f"table {table_id} is run by {rows[0][1]}, not {lease}")
        raise StaleLog(f"table {table_id}: log position {seq} is taken (version {rows[0][0] if rows else '?'})")

    async def _flush(self) -> None:
        """Group commit: every append queued meanwhile goes into one transaction (one flush to disk for the lot).

        Each append is still its own version-checked statement and succeeds or
        finds its position taken on its own; the batch's ``NOTIFY`` goes out with
        its commit.  (A ``NOTIFY`` holds PostgreSQL's one notification lock
        through its transaction's flush to disk: one transaction per append
        would serialise every table's appends behind one another's fsync,
        measured 406 appends a second against 1,478 without, 40 tables at once.)
        The statements lock their tables' rows in the order of the tables' ids,
        the same order in every process, so two processes' batches never wait
        for each other in a circle; if a batch fails anyway (a lost connection),
        its appends are tried one by one.
        """
        import psycopg

        try:
            while self._appends:
                batch, self._appends = self._appends, []
                batch.sort(key=lambda item: (item[0]["id"], item[0]["seq"]))
                outcomes: list[bool | BaseException] = []
                try:
                    async with self._connection() as connection, connection.transaction():
                        for params, _, _ in batch:
                            cursor = await connection.execute(_APPEND, params)
                            outcomes.append(await cursor.fetchone() is not None)
                        announce = [payload for (_, payload, _), ok in zip(batch, outcomes) if ok]
                        if announce:
                            await connection.execute(_NOTIFY, (self.channel, announce))
                except psycopg.Error:
                    outcomes = []
                    for params, payload, _ in batch:
                        try:
                            appended = bool(await self._execute(_APPEND, params))
                        except psycopg.Error as error:
                            outcomes.append(error)
                            continue
                        outcomes.append(appended)
                        if appended:
                            self.notify_text(payload)
                for (_, _, done), outcome in zip(batch, outcomes, strict=True):
                    if done.done():
                        continue
                    if isinstance(outcome, BaseException):
                        done.set_exception(outcome)
                    else:
                        done.set_result(outcome)
        finally:
            self._flushing = None

    async def load_tables(self) -> list[TableRow]:
        rows = await self._execute("SELECT id, created, meta FROM tables ORDER BY created")
        return [TableRow(table_id, json.loads(meta), float(created)) for table_id, created, meta in rows]

    async def load_table(self, table_id: str) -> TableRow | None:
        rows = await self._execute("SELECT id, created, meta FROM tables WHERE id = %s", (table_id,))
        return TableRow(rows[0][0], json.loads(rows[0][2]), float(rows[0][1])) if rows else None

    async def load_log(self, table_id: str, since: int = 0) -> list[object]:
        rows = await self._execute("SELECT entry FROM log WHERE table_id = %s AND seq >= %s ORDER BY seq",
                                   (table_id, since))
        return [json.loads(entry) for (entry,) in rows]

    async def recent_tables(self, limit: int) -> list[str]:
        """The ids of the newest tables (a lobby on one process lists those another has just made)."""
        rows = await self._execute("SELECT id FROM tables ORDER BY created DESC LIMIT %s", (limit,))
        return [str(row[0]) for row in rows]

    # -- processes and leases (dehla.web.cluster) ----------------------------------------------

    async def heartbeat(self, node: str, ttl: float, address: str | None = None) -> set[str]:
        """Say this process is alive (and where it serves, for whoever must find it); returns every live process's
        id (this one included).  Processes silent for ``FORGET_AFTER`` leases are forgotten (their tables were taken
        long before)."""
        await self._execute("INSERT INTO nodes (id, address) VALUES (%s, %s) "
                            "ON CONFLICT (id) DO UPDATE SET seen = now(), address = EXCLUDED.address", (node, address))
        await self._execute("DELETE FROM nodes WHERE seen < now() - make_interval(secs => %s)", (ttl * FORGET_AFTER,))
        rows = await self._execute("SELECT id FROM nodes WHERE seen > now() - make_interval(secs => %s)", (ttl,))
        return {str(row[0]) for row in rows}

    async def nodes(self) -> list[tuple[str, str | None, bool]]:
        """The processes the database knows: id, address, and whether it holds any table's lease."""
        rows = await self._execute("SELECT n.id, n.address, EXISTS (SELECT 1 FROM tables t WHERE t.lease_owner = n.id) "
                                   "FROM nodes n ORDER BY n.started")
        return [(str(row[0]), None if row[1] is None else str(row[1]), bool(row[2])) for row in rows]

    async def take_leases(self, node: str, ttl: float, limit: int = 1000) -> list[str]:
        """Take the lease of tables whose runner is gone (or never was); returns their ids."""
        rows = await self._execute(_TAKE, {"node": node, "ttl": ttl, "limit": limit})
        return [str(row[0]) for row in rows]

    async def leases_of(self, node: str) -> set[str]:
        rows = await self._execute("SELECT id FROM tables WHERE lease_owner = %s", (node,))
        return {str(row[0]) for row in rows}

    async def release(self, node: str) -> None:
        """A process stopping cleanly: its tables are free at once and it is no longer counted alive."""
        await self._execute("UPDATE tables SET lease_owner = NULL WHERE lease_owner = %s", (node,))
        await self._execute("DELETE FROM nodes WHERE id = %s", (node,))
        await self._execute("DELETE FROM nodes WHERE seen < now() - interval '1 day'")

    async def save_finished(self, finished: FinishedMatch) -> None:
        key = (finished.table_id, finished.match_no)
        async with self._connection() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO finished (table_id, match_no, finished, summary, record, listed, access) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, match_no) DO UPDATE SET "
                "finished = EXCLUDED.finished, summary = EXCLUDED.summary, record = EXCLUDED.record, "
                "listed = EXCLUDED.listed, access = EXCLUDED.access",
                (*key, finished.finished, _dumps(finished.summary), _dumps(finished.record), finished.listed,
                 _access(finished)),
            )
            await connection.execute("DELETE FROM finished_players WHERE table_id = %s AND match_no = %s", key)
            seats = dict(finished.seats)
            for player in sorted(set(finished.players)):
                await connection.execute(
                    "INSERT INTO finished_players (table_id, match_no, player, seat) VALUES (%s, %s, %s, %s)",
                    (*key, player, seats.get(player)))

    async def list_finished(self, player: str | None = None, limit: int = 100) -> list[FinishedMatch]:
        rows = await self._execute(_VISIBLE.replace("?", "%s"), (player, limit))
        return [_finished(row) for row in rows]

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None:
        rows = await self._execute(
            f"SELECT {_FINISHED_COLUMNS} FROM finished WHERE table_id = %s AND match_no = %s", (table_id, match_no))
        return _finished(rows[0]) if rows else None

    async def finished_numbers(self, table_id: str) -> set[int]:
        rows = await self._execute("SELECT match_no FROM finished WHERE table_id = %s", (table_id,))
        return {int(row[0]) for row in rows}

    async def player_matches(self, player: str, limit: int = 500) -> list[tuple[FinishedMatch, int | None]]:
        rows = await self._execute(_PLAYERS_MATCHES.replace("?", "%s"), (player, limit))
        return [(_finished(row[:-1]), None if row[-1] is None else int(row[-1])) for row in rows]

    async def secret(self, name: str) -> str:
        await self._execute("INSERT INTO secrets (name, value) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
                            (name, secrets.token_urlsafe(32)))
        rows = await self._execute("SELECT value FROM secrets WHERE name = %s", (name,))
        return str(rows[0][0])

    async def player_name(self, player: str) -> str | None:
        rows = await self._execute("SELECT name FROM players WHERE id = %s", (player,))
        return str(rows[0][0]) if rows else None

    async def set_player_name(self, player: str, name: str) -> None:
        await self._execute(_SET_NAME.replace("?", "%s"), (player, name, time.time()))

    async def delete_player(self, player: str) -> None:
        async with self._connection() as connection, connection.transaction():
            for table, column in _PLAYER_ROWS:
                await connection.execute(f"DELETE FROM {table} WHERE {column} = %s", (player,))

    async def ratings(self, family: str, players: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        found: dict[str, tuple[float, float, int]] = {}
        for player in players:
            rows = await self._execute(_RATING.replace("?", "%s"), (player, family))
            if rows:
                found[str(rows[0][0])] = (float(rows[0][1]), float(rows[0][2]), int(rows[0][3]))
        return found

    async def save_ratings(self, table_id: str, match_no: int, family: str,
                           updates: Mapping[str, tuple[str, float, float, int]], at: float) -> bool:
        async with self._connection() as connection, connection.transaction():
            cursor = await connection.execute(
                "INSERT INTO rated_matches (table_id, match_no) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING 1",
                (table_id, match_no))
            if await cursor.fetchone() is None:
                return False  # another process rated it first
            for player, (name, mu, sigma, matches) in updates.items():
                await connection.execute(_SET_RATING.replace("?", "%s"), (player, family, name, mu, sigma, matches))
                await connection.execute(_RATING_HISTORY.replace("?", "%s"), (player, family, at, mu, sigma))
        return True

    async def leaderboard(self, family: str, limit: int = 50) -> list[tuple[str, str, float, float, int]]:
        rows = await self._execute(_LEADERBOARD.replace("?", "%s"), (family, limit))
        return [(str(a), str(b), float(c), float(d), int(e)) for a, b, c, d, e in rows]

    async def rating_history(self, player: str) -> list[tuple[str, float, float, float]]:
        rows = await self._execute(_HISTORY_OF.replace("?", "%s"), (player,))
        return [(str(a), float(b), float(c), float(d)) for a, b, c, d in rows]

    async def report(self, table_id: str, reporter: str, player: str | None, name: str, text: str) -> None:
        await self._execute(_REPORT.replace("?", "%s"),
                            (secrets.token_hex(6), time.time(), table_id, reporter, player, name, text))

    async def reports(self, limit: int = 100) -> list[tuple[str, float, str, str, str | None, str, str]]:
        return [_report_row(row) for row in await self._execute(_REPORTS.replace("?", "%s"), (limit,))]

    async def ban(self, player: str, reason: str) -> None:
        await self._execute(_BAN.replace("?", "%s"), (player, time.time(), reason))

    async def unban(self, player: str) -> bool:
        return bool(await self._execute("DELETE FROM bans WHERE player = %s RETURNING player", (player,)))

    async def bans(self) -> list[tuple[str, float, str]]:
        return [(str(a), float(b), str(c)) for a, b, c in await self._execute(_BANS)]

    async def banned(self, player: str) -> bool:
        return bool(await self._execute("SELECT 1 FROM bans WHERE player = %s", (player,)))

    async def block(self, player: str, blocked: str, name: str) -> None:
        await self._execute(_BLOCK.replace("?", "%s"), (player, blocked, name))

    async def unblock(self, player: str, blocked: str) -> None:
        await self._execute("DELETE FROM blocks WHERE player = %s AND blocked = %s", (player, blocked))

    async def blocked_by(self, player: str) -> dict[str, str]:
        rows = await self._execute("SELECT blocked, name FROM blocks WHERE player = %s", (player,))
        return {str(blocked): str(name) for blocked, name in rows}

    async def blocks_among(self, players: Sequence[str]) -> set[tuple[str, str]]:
        rows = await self._execute(
            "SELECT player, blocked FROM blocks WHERE player = ANY(%(p)s) AND blocked = ANY(%(p)s)",
            {"p": list(players)})
        return {(str(a), str(b)) for a, b in rows}

    async def follow(self, player: str, friend: str, name: str) -> None:
        await self._execute(_FOLLOW.replace("?", "%s"), (player, friend, name))

    async def unfollow(self, player: str, friend: str) -> None:
        await self._execute("DELETE FROM friends WHERE player = %s AND friend = %s", (player, friend))

    async def friends(self, player: str) -> list[tuple[str, str, float | None]]:
        return [_friend_row(row) for row in await self._execute(_FRIENDS.replace("?", "%s"), (player,))]

    async def saw(self, player: str, at: float) -> None:
        await self._execute(_SAW.replace("?", "%s"), (player, at))

    async def notify_player(self, player: str, table_id: str, seat: int, sender: str) -> None:
        await self._execute(_NOTICE.replace("?", "%s"),
                            (secrets.token_hex(6), player, time.time(), table_id, seat, sender))

    async def notices(self, player: str) -> list[tuple[str, float, str, int, str]]:
        return [_notice_row(row) for row in await self._execute(_NOTICES.replace("?", "%s"), (player,))]

    async def dismiss(self, player: str, notice: str) -> None:
        await self._execute("DELETE FROM notices WHERE player = %s AND id = %s", (player, notice))

    async def add_passkey(self, credential: str, player: str, public_key: str, sign_count: int) -> None:
        await self._execute(_ADD_PASSKEY.replace("?", "%s"), (credential, player, public_key, sign_count, time.time()))

    async def passkey(self, credential: str) -> tuple[str, str, int] | None:
        rows = await self._execute(_PASSKEY.replace("?", "%s"), (credential,))
        return (str(rows[0][0]), str(rows[0][1]), int(rows[0][2])) if rows else None

    async def passkey_used(self, credential: str, sign_count: int) -> None:
        await self._execute("UPDATE passkeys SET sign_count = %s WHERE id = %s", (sign_count, credential))

    async def passkeys_of(self, player: str) -> list[str]:
        return [str(row[0]) for row in await self._execute("SELECT id FROM passkeys WHERE player = %s", (player,))]

    async def queue_join(self, player: str, name: str, key: QueueKey, since: float) -> None:
        async with self._connection() as connection, connection.transaction():
            await connection.execute("DELETE FROM queue WHERE player = %s", (player,))
            await connection.execute(_QUEUE_JOIN.replace("?", "%s"),
                                     (player, name, key.preset, key.target, key.rated, since))

    async def queue_leave(self, player: str) -> None:
        await self._execute("DELETE FROM queue WHERE player = %s", (player,))

    async def queue_entry(self, player: str) -> QueueEntry | None:
        rows = await self._execute(_QUEUE_ENTRY.replace("?", "%s"), (player,))
        return _queue_entry(rows[0]) if rows else None

    async def queue_counts(self) -> list[tuple[QueueKey, int]]:
        rows = await self._execute(_QUEUE_COUNTS)
        return [(QueueKey(str(preset), int(target), bool(rated)), int(n)) for preset, target, rated, n in rows]

    async def queue_claim(self, key: QueueKey, count: int, table_id: str,
                          only: str | None = None) -> list[tuple[str, str]]:
        async with self._connection() as connection, connection.transaction():
            # the waiting rows are locked, so two processes never claim one player; rows another is claiming are
            # skipped, not waited for
            cursor = await connection.execute(_QUEUE_WAITING.replace("?", "%s") + " FOR UPDATE SKIP LOCKED",
                                              (key.preset, key.target, key.rated, count * CANDIDATES))
            waiting = [(str(player), str(name)) for player, name in await cursor.fetchall()]
            players = pick_group(waiting, await self.blocks_among([player for player, _ in waiting]), count, only)
            if not players:
                return []
            for player, _ in players:
                await connection.execute("UPDATE queue SET table_id = %s WHERE player = %s", (table_id, player))
        return players

    async def queue_seat(self, table_id: str, seats: Mapping[str, int | None]) -> None:
        async with self._connection() as connection, connection.transaction():
            for player, seat in seats.items():
                sql, params = _queue_seat_statement(table_id, player, seat)
                await connection.execute(sql.replace("?", "%s"), params)


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
