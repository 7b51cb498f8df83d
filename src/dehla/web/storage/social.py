"""Between players: reports, bans and blocks (moderation), friends, when they were last seen, and invitations
(notices); written once for both backends.

Lifting a ban stays in each backend: PostgreSQL tells in the one statement that deletes it whether there was one.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence

from dehla.web.storage.sql import (
    BAN,
    BANS,
    BLOCK,
    FOLLOW,
    FRIENDS,
    NOTICE,
    NOTICES,
    REPORT,
    REPORTS,
    SAW,
    friend_row,
    notice_row,
    report_row,
)
from dehla.web.storage.statements import Statements

__all__ = ["SocialTables"]


class SocialTables(Statements):
    """What players say of each other (reports, blocks, friends, invitations) and what the admins decide (bans)."""

    async def report(self, table_id: str, reporter: str, player: str | None, name: str, text: str) -> None:
        await self.write(REPORT, (secrets.token_hex(6), time.time(), table_id, reporter, player, name, text))

    async def reports(self, limit: int = 100) -> list[tuple[str, float, str, str, str | None, str, str]]:
        return [report_row(row) for row in await self.read(REPORTS, (limit,))]

    async def ban(self, player: str, reason: str) -> None:
        await self.write(BAN, (player, time.time(), reason))

    async def bans(self) -> list[tuple[str, float, str]]:
        return [(str(a), float(b), str(c)) for a, b, c in await self.read(BANS, ())]

    async def banned(self, player: str) -> bool:
        return bool(await self.read("SELECT 1 FROM bans WHERE player = ?", (player,)))

    async def block(self, player: str, blocked: str, name: str) -> None:
        await self.write(BLOCK, (player, blocked, name))

    async def unblock(self, player: str, blocked: str) -> None:
        await self.write("DELETE FROM blocks WHERE player = ? AND blocked = ?", (player, blocked))

    async def blocked_by(self, player: str) -> dict[str, str]:
        rows = await self.read("SELECT blocked, name FROM blocks WHERE player = ?", (player,))
        return {str(blocked): str(name) for blocked, name in rows}

    async def blocks_among(self, players: Sequence[str]) -> set[tuple[str, str]]:
        if not players:
            return set()
        marks = ", ".join("?" * len(players))
        rows = await self.read(
            f"SELECT player, blocked FROM blocks WHERE player IN ({marks}) AND blocked IN ({marks})",
            (*players, *players),
        )
        return {(str(a), str(b)) for a, b in rows}

    async def follow(self, player: str, friend: str, name: str) -> None:
        await self.write(FOLLOW, (player, friend, name))

    async def unfollow(self, player: str, friend: str) -> None:
        await self.write("DELETE FROM friends WHERE player = ? AND friend = ?", (player, friend))

    async def friends(self, player: str) -> list[tuple[str, str, float | None]]:
        return [friend_row(row) for row in await self.read(FRIENDS, (player,))]

    async def saw(self, player: str, at: float) -> None:
        await self.write(SAW, (player, at))

    async def notify_player(self, player: str, table_id: str, seat: int, sender: str) -> None:
        await self.write(NOTICE, (secrets.token_hex(6), player, time.time(), table_id, seat, sender))

    async def notices(self, player: str) -> list[tuple[str, float, str, int, str]]:
        return [notice_row(row) for row in await self.read(NOTICES, (player,))]

    async def dismiss(self, player: str, notice: str) -> None:
        await self.write("DELETE FROM notices WHERE player = ? AND id = ?", (player, notice))
