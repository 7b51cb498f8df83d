"""The queues of "Find a game", written once for both backends.

Claiming a group stays in each backend (over ``waiting_statement`` and ``claim_statements``): PostgreSQL locks the
waiting rows so that two processes never claim one player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dehla.web.storage.model import QueueEntry, QueueKey
from dehla.web.storage.sql import (
    CANDIDATES,
    QUEUE_COUNTS,
    QUEUE_ENTRY,
    QUEUE_JOIN,
    QUEUE_WAITING,
    queue_seat_statement,
    read_queue_entry,
)
from dehla.web.storage.statements import Statement, Statements

__all__ = ["QueueTables", "claim_statements", "waiting_statement"]


def waiting_statement(key: QueueKey, count: int) -> Statement:
    """The longest waiting of a queue, as many as a claim of ``count`` seats looks at (``CANDIDATES`` a seat)."""
    return QUEUE_WAITING, (key.preset, key.target, key.rated, count * CANDIDATES)


def claim_statements(table_id: str, players: Sequence[tuple[str, str]]) -> list[Statement]:
    """The claimed players, given their table."""
    return [("UPDATE queue SET table_id = ? WHERE player = ?", (table_id, player)) for player, _ in players]


class QueueTables(Statements):
    """Who waits in which queue since when, and the table and seat each claimed player was given."""

    async def queue_join(self, player: str, name: str, key: QueueKey, since: float) -> None:
        await self.write_all(
            [
                ("DELETE FROM queue WHERE player = ?", (player,)),
                (QUEUE_JOIN, (player, name, key.preset, key.target, key.rated, since)),
            ]
        )

    async def queue_leave(self, player: str) -> None:
        await self.write("DELETE FROM queue WHERE player = ?", (player,))

    async def queue_entry(self, player: str) -> QueueEntry | None:
        rows = await self.read(QUEUE_ENTRY, (player,))
        return read_queue_entry(rows[0]) if rows else None

    async def queue_counts(self) -> list[tuple[QueueKey, int]]:
        rows = await self.read(QUEUE_COUNTS, ())
        return [(QueueKey(str(preset), int(target), bool(rated)), int(n)) for preset, target, rated, n in rows]

    async def queue_seat(self, table_id: str, seats: Mapping[str, int | None]) -> None:
        await self.write_all([queue_seat_statement(table_id, player, seat) for player, seat in seats.items()])
