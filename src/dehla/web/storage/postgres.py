"""PostgreSQL storage: the meeting point of many serving processes.

``append`` checks the table's version under its row lock (and, for a bot's or timer's step, that this process
still holds the table's lease) in the same statement that inserts the entry, so two processes can never both
take one position of a log; once committed, the entry is announced with ``NOTIFY``.  The leases and the
processes' heartbeats kept here are ``dehla.web.cluster``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypedDict

from dehla.errors import DehlaError
from dehla.web.storage.connections import NOTIFY, Announcer, PostgresPool, connect
from dehla.web.storage.migrations import migrate
from dehla.web.storage.model import LeaseLost, QueueKey, SQLParam, StaleLog, TableRow
from dehla.web.storage.players import rating_statements
from dehla.web.storage.queue import claim_statements, waiting_statement
from dehla.web.storage.shared import SharedTables
from dehla.web.storage.sql import dumps, pick_group
from dehla.web.storage.statements import Statement

log = logging.getLogger("dehla.web")


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


@contextlib.contextmanager
def scratch_schema(url: str, prefix: str) -> Iterator[str]:
    """A new, empty schema ``prefix_<random>`` of the PostgreSQL database at ``url``, as a URL whose connections
    use it (``search_path``), dropped with everything in it afterwards: a test or benchmark run that sees no table
    of an earlier or concurrent run, without a database of its own."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", prefix):
        raise DehlaError(f"a schema prefix is lower-case letters, digits and underscores, not {prefix!r}")
    import psycopg

    schema = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


async def _run_all(connection: Any, statements: Sequence[Statement]) -> None:
    """Run statements (``?`` placeholders) in order on one connection (within the caller's transaction)."""
    for sql, params in statements:
        await connection.execute(sql.replace("?", "%s"), params)


class _AppendParams(TypedDict):
    """The parameters of ``_APPEND``."""

    id: str
    seq: int
    lease: str | None
    entry: str


class PostgresStorage(SharedTables):
    """PostgreSQL through psycopg 3: a few pooled connections in autocommit (each statement its own transaction).

    Any number of serving processes may share one database: every log append is
    version-checked under the table's row lock (``_APPEND``) and, once committed,
    announced with ``NOTIFY`` on a channel named after the schema (servers on
    different schemas of one database never hear each other).  Other messages leave
    through one connection of their own, in batches (``connections.Announcer``), in
    the order they were made with the appends.
    """

    #: Other processes may write the same tables: the table service keeps its copies in step with the log.
    shared = True

    def __init__(self, url: str, pool_size: int = 4) -> None:
        self.url = url
        self.pool_size = pool_size
        self.channel = "dehla"
        self._pool = PostgresPool(url)
        self._announcer = Announcer(url)
        self._appends: list[tuple[_AppendParams, str, asyncio.Future[bool]]] = []
        self._flushing: asyncio.Task[None] | None = None

    async def open(self) -> None:
        try:
            import psycopg
        except ImportError:  # pragma: no cover - psycopg is a dependency of the web extra
            raise DehlaError("PostgreSQL needs psycopg: pip install 'psycopg[binary]'") from None
        try:
            first = await self._pool.add()
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
                await self._pool.add()
        except psycopg.Error as error:
            await self.close()
            raise DehlaError(f"cannot open the PostgreSQL database: {str(error).strip().splitlines()[0]}") from None
        self._pool.start()
        self._announcer.start(self.channel)

    async def close(self) -> None:
        if self._flushing is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._flushing)
        await self._announcer.stop()
        await self._pool.close()

    async def connect_listener(self) -> Any:
        """A connection of its own that LISTENs on this database's channel (``dehla.web.cluster`` reads it)."""
        connection = await connect(self.url)
        await connection.execute(f'LISTEN "{self.channel}"')
        return connection

    def notify(self, payload: Mapping[str, object]) -> None:
        """Queue a message for every listening process (sent soon, in order, after what was queued before)."""
        self._announcer.put(dumps(payload))

    def notify_text(self, payload: str) -> None:
        self._announcer.put(payload)

    async def create_table(self, row: TableRow, lease: str | None = None) -> None:
        await self._pool.execute(
            "INSERT INTO tables (id, created, meta, lease_owner) VALUES (%s, %s, %s, %s)",
            (row.table_id, row.created, dumps(row.meta), lease),
        )

    async def append(self, table_id: str, seq: int, entry: Mapping[str, object], *, lease: str | None = None) -> None:
        text = dumps(entry)
        # the entry rides on the NOTIFY (at most 8000 bytes), so the other processes need not read it back
        payload = dumps({"k": "log", "t": table_id, "s": seq, "e": entry})
        if len(payload.encode()) > 7900:
            payload = dumps({"k": "log", "t": table_id, "s": seq})
        params: _AppendParams = {"id": table_id, "seq": seq, "lease": lease, "entry": text}
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._appends.append((params, payload, done))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())
        if await done:
            return
        rows = await self._pool.execute("SELECT seq, lease_owner FROM tables WHERE id = %s", (table_id,))
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
                    # the messages queued before these appends go out first, in the same NOTIFY
                    async with self._announcer.turn:
                        earlier = self._announcer.take()
                        try:
                            async with self._pool.connection() as connection, connection.transaction():
                                for params, _, _ in batch:
                                    cursor = await connection.execute(_APPEND, params)
                                    outcomes.append(await cursor.fetchone() is not None)
                                announce = [payload for (_, payload, _), ok in zip(batch, outcomes) if ok]
                                if earlier or announce:
                                    await connection.execute(NOTIFY, (self.channel, earlier + announce))
                        except BaseException:
                            self._announcer.put_back(earlier)
                            raise
                except psycopg.Error:
                    outcomes = []
                    for params, payload, _ in batch:
                        try:
                            appended = bool(await self._pool.execute(_APPEND, params))
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

    async def recent_tables(self, limit: int) -> list[str]:
        """The ids of the newest tables (a lobby on one process lists those another has just made)."""
        rows = await self._pool.execute("SELECT id FROM tables ORDER BY created DESC LIMIT %s", (limit,))
        return [str(row[0]) for row in rows]

    # -- processes and leases (dehla.web.cluster) ----------------------------------------------

    async def heartbeat(self, node: str, ttl: float, address: str | None = None) -> set[str]:
        """Say this process is alive (and where it serves, for whoever must find it); returns every live process's
        id (this one included).  Processes silent for ``FORGET_AFTER`` leases are forgotten (their tables were taken
        long before)."""
        await self._pool.execute(
            "INSERT INTO nodes (id, address) VALUES (%s, %s) "
            "ON CONFLICT (id) DO UPDATE SET seen = now(), address = EXCLUDED.address",
            (node, address),
        )
        await self._pool.execute(
            "DELETE FROM nodes WHERE seen < now() - make_interval(secs => %s)", (ttl * FORGET_AFTER,)
        )
        rows = await self._pool.execute("SELECT id FROM nodes WHERE seen > now() - make_interval(secs => %s)", (ttl,))
        return {str(row[0]) for row in rows}

    async def nodes(self) -> list[tuple[str, str | None, bool]]:
        """The processes the database knows: id, address, and whether it holds any table's lease."""
        rows = await self._pool.execute(
            "SELECT n.id, n.address, EXISTS (SELECT 1 FROM tables t WHERE t.lease_owner = n.id) "
            "FROM nodes n ORDER BY n.started"
        )
        return [(str(row[0]), None if row[1] is None else str(row[1]), bool(row[2])) for row in rows]

    async def take_leases(self, node: str, ttl: float, limit: int = 1000) -> list[str]:
        """Take the lease of tables whose runner is gone (or never was); returns their ids."""
        rows = await self._pool.execute(_TAKE, {"node": node, "ttl": ttl, "limit": limit})
        return [str(row[0]) for row in rows]

    async def leases_of(self, node: str) -> set[str]:
        rows = await self._pool.execute("SELECT id FROM tables WHERE lease_owner = %s", (node,))
        return {str(row[0]) for row in rows}

    async def release(self, node: str) -> None:
        """A process stopping cleanly: its tables are free at once and it is no longer counted alive."""
        await self._pool.execute("UPDATE tables SET lease_owner = NULL WHERE lease_owner = %s", (node,))
        await self._pool.execute("DELETE FROM nodes WHERE id = %s", (node,))
        await self._pool.execute("DELETE FROM nodes WHERE seen < now() - interval '1 day'")

    async def save_ratings(
        self, table_id: str, match_no: int, family: str, updates: Mapping[str, tuple[str, float, float, int]], at: float
    ) -> bool:
        async with self._pool.connection() as connection, connection.transaction():
            cursor = await connection.execute(
                "INSERT INTO rated_matches (table_id, match_no) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING 1",
                (table_id, match_no),
            )
            if await cursor.fetchone() is None:
                return False  # another process rated it first
            await _run_all(connection, rating_statements(family, updates, at))
        return True

    async def unban(self, player: str) -> bool:
        return bool(await self._pool.execute("DELETE FROM bans WHERE player = %s RETURNING player", (player,)))

    async def queue_claim(
        self, key: QueueKey, count: int, table_id: str, only: str | None = None
    ) -> list[tuple[str, str]]:
        async with self._pool.connection() as connection, connection.transaction():
            # the waiting rows are locked, so two processes never claim one player; rows another is claiming are
            # skipped, not waited for
            sql, params = waiting_statement(key, count)
            cursor = await connection.execute(sql.replace("?", "%s") + " FOR UPDATE SKIP LOCKED", params)
            waiting = [(str(player), str(name)) for player, name in await cursor.fetchall()]
            players = pick_group(waiting, await self.blocks_among([player for player, _ in waiting]), count, only)
            if not players:
                return []
            await _run_all(connection, claim_statements(table_id, players))
        return players

    # -- how a statement runs, for the tables written once for both backends (``statements``) --

    async def read(self, sql: str, params: tuple[SQLParam, ...]) -> list[Sequence[Any]]:
        """The rows of one query, on a pooled connection (``?`` placeholders become psycopg's)."""
        return await self._pool.execute(sql.replace("?", "%s"), params)

    async def write(self, sql: str, params: tuple[SQLParam, ...]) -> None:
        """One statement, its own transaction (autocommit)."""
        await self._pool.execute(sql.replace("?", "%s"), params)

    async def write_all(self, statements: Sequence[Statement]) -> None:
        """Several statements in one transaction, on one pooled connection."""
        async with self._pool.connection() as connection, connection.transaction():
            await _run_all(connection, statements)
