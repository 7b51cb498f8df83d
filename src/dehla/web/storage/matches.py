"""The tables' rows and logs as read back, and the finished matches, written once for both backends.

Making a table and appending to its log stay in each backend (PostgreSQL keeps a table's lease and version with
it); updating, loading and the finished matches are the same statements on both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from dehla.web.storage.model import FinishedMatch, TableRow
from dehla.web.storage.sql import (
    FINISHED_COLUMNS,
    PLAYERS_MATCHES,
    VISIBLE,
    access_json,
    dumps,
    finished_match,
)
from dehla.web.storage.statements import Statement, Statements

__all__ = ["MatchTables"]

#: A finished match, written again whole if it was saved before (``?``: the columns of ``FINISHED_COLUMNS``).
SAVE_FINISHED = (
    "INSERT INTO finished (table_id, match_no, finished, summary, record, listed, access) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, match_no) DO UPDATE SET "
    "finished = EXCLUDED.finished, summary = EXCLUDED.summary, record = EXCLUDED.record, "
    "listed = EXCLUDED.listed, access = EXCLUDED.access"
)


class MatchTables(Statements):
    """The tables' metadata and logs, read back; the finished matches and who played them."""

    async def update_table(self, table_id: str, meta: Mapping[str, object]) -> None:
        await self.write("UPDATE tables SET meta = ? WHERE id = ?", (dumps(meta), table_id))

    async def load_tables(self) -> list[TableRow]:
        rows = await self.read("SELECT id, created, meta FROM tables ORDER BY created", ())
        return [TableRow(str(table_id), json.loads(meta), float(created)) for table_id, created, meta in rows]

    async def load_table(self, table_id: str) -> TableRow | None:
        rows = await self.read("SELECT id, created, meta FROM tables WHERE id = ?", (table_id,))
        return TableRow(str(rows[0][0]), json.loads(rows[0][2]), float(rows[0][1])) if rows else None

    async def load_log(self, table_id: str, since: int = 0) -> list[object]:
        rows = await self.read("SELECT entry FROM log WHERE table_id = ? AND seq >= ? ORDER BY seq", (table_id, since))
        return [json.loads(entry) for (entry,) in rows]

    async def save_finished(self, finished: FinishedMatch) -> None:
        key = (finished.table_id, finished.match_no)
        summary, record = dumps(finished.summary), dumps(finished.record)
        statements: list[Statement] = [
            (SAVE_FINISHED, (*key, finished.finished, summary, record, finished.listed, access_json(finished))),
            ("DELETE FROM finished_players WHERE table_id = ? AND match_no = ?", key),
        ]
        seats = dict(finished.seats)
        statements += [
            (
                "INSERT INTO finished_players (table_id, match_no, player, seat) VALUES (?, ?, ?, ?)",
                (*key, player, seats.get(player)),
            )
            for player in sorted(set(finished.players))
        ]
        await self.write_all(statements)

    async def list_finished(self, player: str | None = None, limit: int = 100) -> list[FinishedMatch]:
        return [finished_match(row) for row in await self.read(VISIBLE, (player, limit))]

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None:
        rows = await self.read(
            f"SELECT {FINISHED_COLUMNS} FROM finished WHERE table_id = ? AND match_no = ?", (table_id, match_no)
        )
        return finished_match(rows[0]) if rows else None

    async def finished_numbers(self, table_id: str) -> set[int]:
        rows = await self.read("SELECT match_no FROM finished WHERE table_id = ?", (table_id,))
        return {int(row[0]) for row in rows}

    async def player_matches(self, player: str, limit: int = 500) -> list[tuple[FinishedMatch, int | None]]:
        rows = await self.read(PLAYERS_MATCHES, (player, limit))
        return [(finished_match(row[:-1]), None if row[-1] is None else int(row[-1])) for row in rows]
