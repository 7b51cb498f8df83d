"""The players' names, ratings and passkeys, and the server's secrets, written once for both backends.

Saving a match's ratings stays in each backend (over ``rating_statements``): PostgreSQL makes sure, in one
transaction, that no other process rated the match first.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence

from dehla.web.storage.sql import (
    ADD_PASSKEY,
    HISTORY_OF,
    LEADERBOARD,
    PASSKEY,
    PLAYER_ROWS,
    RATING,
    RATING_HISTORY,
    SET_NAME,
    SET_RATING,
)
from dehla.web.storage.statements import Statement, Statements

__all__ = ["PlayerTables", "rating_statements"]


def rating_statements(family: str, updates: Mapping[str, tuple[str, float, float, int]], at: float) -> list[Statement]:
    """A rated match's new ratings and their history (``save_ratings``, once the match is marked rated)."""
    statements: list[Statement] = []
    for player, (name, mu, sigma, matches) in updates.items():
        statements.append((SET_RATING, (player, family, name, mu, sigma, matches)))
        statements.append((RATING_HISTORY, (player, family, at, mu, sigma)))
    return statements


class PlayerTables(Statements):
    """Who the players are (names, passkeys), how they are rated, and forgetting them; the server's secrets."""

    async def secret(self, name: str) -> str:
        await self.write(
            "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (name, secrets.token_urlsafe(32)),
        )
        return str((await self.read("SELECT value FROM secrets WHERE name = ?", (name,)))[0][0])

    async def player_name(self, player: str) -> str | None:
        rows = await self.read("SELECT name FROM players WHERE id = ?", (player,))
        return str(rows[0][0]) if rows else None

    async def set_player_name(self, player: str, name: str) -> None:
        await self.write(SET_NAME, (player, name, time.time()))

    async def delete_player(self, player: str) -> None:
        await self.write_all([(f"DELETE FROM {table} WHERE {column} = ?", (player,)) for table, column in PLAYER_ROWS])

    async def ratings(self, family: str, players: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        found: dict[str, tuple[float, float, int]] = {}
        for player in players:
            for row in await self.read(RATING, (player, family)):
                found[str(row[0])] = (float(row[1]), float(row[2]), int(row[3]))
        return found

    async def leaderboard(self, family: str, limit: int = 50) -> list[tuple[str, str, float, float, int]]:
        rows = await self.read(LEADERBOARD, (family, limit))
        return [(str(a), str(b), float(c), float(d), int(e)) for a, b, c, d, e in rows]

    async def rating_history(self, player: str) -> list[tuple[str, float, float, float]]:
        rows = await self.read(HISTORY_OF, (player,))
        return [(str(a), float(b), float(c), float(d)) for a, b, c, d in rows]

    async def add_passkey(self, credential: str, player: str, public_key: str, sign_count: int) -> None:
        await self.write(ADD_PASSKEY, (credential, player, public_key, sign_count, time.time()))

    async def passkey(self, credential: str) -> tuple[str, str, int] | None:
        rows = await self.read(PASSKEY, (credential,))
        return (str(rows[0][0]), str(rows[0][1]), int(rows[0][2])) if rows else None

    async def passkey_used(self, credential: str, sign_count: int) -> None:
        await self.write("UPDATE passkeys SET sign_count = ? WHERE id = ?", (sign_count, credential))

    async def passkeys_of(self, player: str) -> list[str]:
        return [str(row[0]) for row in await self.read("SELECT id FROM passkeys WHERE player = ?", (player,))]
