"""Versioned schema migrations, the same steps for SQLite and PostgreSQL.

The database says its version in ``schema_version``.  A database made before
that table existed is version 1 (the release that first kept finished matches)
if it has a ``tables`` table, else it is new.  Opening storage brings it to
``CURRENT``: the base schema (version 1, written so that running it again
changes nothing), then each later migration once, in order, in the same
transaction as the new version number.  Every statement is written in the SQL
both databases understand; ``?`` stands for a parameter (the PostgreSQL runner
turns it into ``%s``).  A migration may also rewrite rows (``backfill``), reading
them with the same runner.

A new migration is one more ``Migration`` at the end of ``MIGRATIONS`` with the
next version: never edit one that has shipped.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Migration", "MIGRATIONS", "CURRENT", "BASE", "Runner", "migrate"]

#: A value bound to a statement's placeholder.
Param = str | int | float | bool | None


class Runner(Protocol):
    """Runs one statement (``?`` placeholders) inside the migration's transaction and returns its rows."""

    async def __call__(self, sql: str, params: Sequence[Param] = ()) -> list[tuple[Any, ...]]: ...


@dataclass(frozen=True)
class Migration:
    version: int
    about: str
    statements: tuple[str, ...]
    backfill: Callable[[Runner], Awaitable[None]] | None = None


#: Version 1: tables (a row each), their logs, and finished matches.
BASE = (
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, meta TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS log (table_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, "
    "PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS finished (table_id TEXT NOT NULL, match_no INTEGER NOT NULL, "
    "finished DOUBLE PRECISION NOT NULL, summary TEXT NOT NULL, record TEXT NOT NULL, "
    "PRIMARY KEY (table_id, match_no))",
)


async def _private_unless_listed(run: Runner) -> None:
    """Matches finished before this version were shown to everyone: now each is visible as its table is, to the
    holders of its seat and watch links (the tables' rows still have their hashes); a table whose row is gone keeps
    its matches private."""
    metas: dict[str, object] = {}
    for table_id, meta in await run("SELECT id, meta FROM tables"):
        try:
            metas[str(table_id)] = json.loads(meta)
        except ValueError:
            metas[str(table_id)] = None
    for table_id, match_no in await run("SELECT table_id, match_no FROM finished"):
        meta = metas.get(str(table_id))
        listed = False
        hashes: list[str] = []
        if isinstance(meta, dict):
            listed = meta.get("listed", True) is True
            seats = meta.get("seats")
            for seat in seats if isinstance(seats, list) else []:
                if isinstance(seat, dict) and isinstance(seat.get("token_hash"), str):
                    hashes.append(seat["token_hash"])
            if isinstance(meta.get("watch_hash"), str):
                hashes.append(meta["watch_hash"])
        access = json.dumps({"players": [], "hashes": hashes}, separators=(",", ":"))
        await run(
            "UPDATE finished SET listed = ?, access = ? WHERE table_id = ? AND match_no = ?",
            (listed, access, table_id, match_no),
        )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        2,
        "who may see a finished match; players; the server's secrets",
        (
            "ALTER TABLE finished ADD COLUMN listed BOOLEAN NOT NULL DEFAULT FALSE",
            "ALTER TABLE finished ADD COLUMN access TEXT NOT NULL DEFAULT '{}'",
            "CREATE INDEX IF NOT EXISTS finished_listed ON finished (listed, finished)",
            "CREATE TABLE IF NOT EXISTS finished_players (table_id TEXT NOT NULL, match_no INTEGER NOT NULL, "
            "player TEXT NOT NULL, seat INTEGER, PRIMARY KEY (table_id, match_no, player))",
            "CREATE INDEX IF NOT EXISTS finished_players_player ON finished_players (player)",
            "CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
            "created DOUBLE PRECISION NOT NULL)",
            "CREATE TABLE IF NOT EXISTS ratings (player TEXT NOT NULL, family TEXT NOT NULL, name TEXT NOT NULL, "
            "mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, matches INTEGER NOT NULL, "
            "PRIMARY KEY (player, family))",
            "CREATE TABLE IF NOT EXISTS rating_history (player TEXT NOT NULL, family TEXT NOT NULL, "
            "at DOUBLE PRECISION NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX IF NOT EXISTS rating_history_player ON rating_history (player, family, at)",
            "CREATE TABLE IF NOT EXISTS rated_matches (table_id TEXT NOT NULL, match_no INTEGER NOT NULL, "
            "PRIMARY KEY (table_id, match_no))",
            "CREATE TABLE IF NOT EXISTS reports (id TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL, "
            "table_id TEXT NOT NULL, reporter TEXT NOT NULL, player TEXT, name TEXT NOT NULL, text TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS bans (player TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL, "
            "reason TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS friends (player TEXT NOT NULL, friend TEXT NOT NULL, name TEXT NOT NULL, "
            "PRIMARY KEY (player, friend))",
            "CREATE TABLE IF NOT EXISTS seen (player TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
            "CREATE TABLE IF NOT EXISTS notices (id TEXT PRIMARY KEY, player TEXT NOT NULL, "
            "at DOUBLE PRECISION NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT NULL, sender TEXT NOT NULL)",
            "CREATE INDEX IF NOT EXISTS notices_player ON notices (player)",
            "CREATE TABLE IF NOT EXISTS blocks (player TEXT NOT NULL, blocked TEXT NOT NULL, name TEXT NOT NULL, "
            "PRIMARY KEY (player, blocked))",
            "CREATE TABLE IF NOT EXISTS passkeys (id TEXT PRIMARY KEY, player TEXT NOT NULL, public_key TEXT NOT NULL, "
            "sign_count INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX IF NOT EXISTS passkeys_player ON passkeys (player)",
            "CREATE TABLE IF NOT EXISTS queue (player TEXT PRIMARY KEY, name TEXT NOT NULL, preset TEXT NOT NULL, "
            "target INTEGER NOT NULL, rated BOOLEAN NOT NULL, since DOUBLE PRECISION NOT NULL, table_id TEXT, "
            "seat INTEGER)",
        ),
        _private_unless_listed,
    ),
    Migration(
        3,
        "the daily duplicate: each day's seed, the players' entries, the bots' own results",
        (
            "CREATE TABLE IF NOT EXISTS daily_days (day TEXT PRIMARY KEY, seed TEXT NOT NULL, "
            "commitment TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)",
            "CREATE TABLE IF NOT EXISTS daily_entries (day TEXT NOT NULL, deal INTEGER NOT NULL, "
            "player TEXT NOT NULL, name TEXT NOT NULL, table_id TEXT NOT NULL, started DOUBLE PRECISION NOT NULL, "
            "result TEXT, PRIMARY KEY (day, deal, player))",
            "CREATE INDEX IF NOT EXISTS daily_entries_player ON daily_entries (player)",
            "CREATE TABLE IF NOT EXISTS daily_reference (day TEXT NOT NULL, deal INTEGER NOT NULL, "
            "result TEXT NOT NULL, PRIMARY KEY (day, deal))",
        ),
    ),
)

CURRENT = MIGRATIONS[-1].version if MIGRATIONS else 1


async def migrate(run: Runner, had_tables: bool, extra_base: Sequence[str] = ()) -> tuple[int, int]:
    """Bring the database to ``CURRENT`` inside the caller's transaction; returns (version before, version after).

    ``had_tables``: the database already had a ``tables`` table before this call (so without ``schema_version`` it
    is version 1); ``extra_base``: statements of the base a backend adds (PostgreSQL's leases and versions).
    """
    await run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    rows = await run("SELECT version FROM schema_version")
    before = int(rows[0][0]) if rows else (1 if had_tables else 0)
    for statement in (*BASE, *extra_base):
        await run(statement)
    version = max(before, 1)
    for migration in MIGRATIONS:
        if migration.version <= version:
            continue
        for statement in migration.statements:
            await run(statement)
        if migration.backfill is not None:
            await migration.backfill(run)
        version = migration.version
    if rows:
        await run("UPDATE schema_version SET version = ?", (version,))
    else:
        await run("INSERT INTO schema_version (version) VALUES (?)", (version,))
    return before, version
