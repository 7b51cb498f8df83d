"""The daily duplicate's tables (``dehla.web.daily``), written once for both backends.

SQLite and PostgreSQL run the same statements (``sql``) and read the same rows back; they differ only in how a
statement reaches the database, which each backend says in ``statements.Statements``'s methods.
"""

from __future__ import annotations

from collections.abc import Mapping

from dehla.web.storage.model import DailyEntry
from dehla.web.storage.sql import (
    DAILY_DAY,
    DAILY_DAY_ADD,
    DAILY_DAYS,
    DAILY_ENTER,
    DAILY_ENTRIES,
    DAILY_ENTRY,
    DAILY_REFERENCE,
    DAILY_REFERENCE_ADD,
    DAILY_RESULT,
    daily_entry_row,
    dumps,
    json_object,
)
from dehla.web.storage.statements import Statements

__all__ = ["DailyTables"]


class DailyTables(Statements):
    """Each day's seed, the players' entries and the bots' own results, over the backend's ``read`` and ``write``."""

    async def daily_day(self, day: str, seed: str, commitment: str, at: float) -> tuple[str, str]:
        await self.write(DAILY_DAY_ADD, (day, seed, commitment, at))
        seed_kept, commitment_kept = (await self.read(DAILY_DAY, (day,)))[0]
        return str(seed_kept), str(commitment_kept)

    async def daily_days(self, before: str, limit: int = 60) -> list[tuple[str, str, str]]:
        rows = await self.read(DAILY_DAYS, (before, limit))
        return [(str(day), str(seed), str(commitment)) for day, seed, commitment in rows]

    async def daily_enter(self, entry: DailyEntry) -> DailyEntry:
        await self.write(DAILY_ENTER, (entry.day, entry.deal, entry.player, entry.name, entry.table_id, entry.started))
        return daily_entry_row((await self.read(DAILY_ENTRY, (entry.day, entry.deal, entry.player)))[0])

    async def daily_entries(self, day: str) -> list[DailyEntry]:
        return [daily_entry_row(row) for row in await self.read(DAILY_ENTRIES, (day,))]

    async def daily_result(self, day: str, deal: int, player: str, result: Mapping[str, object]) -> None:
        await self.write(DAILY_RESULT, (dumps(result), day, deal, player))

    async def daily_reference(self, day: str, deal: int) -> Mapping[str, object] | None:
        rows = await self.read(DAILY_REFERENCE, (day, deal))
        return json_object(str(rows[0][0]), "daily reference") if rows else None

    async def save_daily_reference(self, day: str, deal: int, result: Mapping[str, object]) -> None:
        await self.write(DAILY_REFERENCE_ADD, (day, deal, dumps(result)))
